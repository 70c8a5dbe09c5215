// The CPU references of lab 4 and the error bounds that decide what "correct" means.
//
// Every float result a part computes differs from the exact value by rounding alone, and the
// bound on that difference follows from the arithmetic (Higham, Accuracy and Stability of
// Numerical Algorithms, 3.1; lab 1's matmul bound is the same argument, and the same gamma:
// common/reference/matmul_reference.hpp). With u = 2^-24 and gamma_k = k u / (1 - k u), a
// result obtained from terms x_j through at most k roundings on any path, each a relative error
// of at most u, lies within gamma_k * sum_j |x_j| of the exact sum.
//
//   - The stencil: B[i] = sum_k c_k A[i+k]^2 / 24, c = (1, 2, 1, -3, 5). On the path of one
//     term: the square, the coefficient (1 rounding), the four additions (4), the division by
//     24 or the product with the float 1/24 (2: the constant and the product). The square is 1
//     rounding as x * x, but a kernel may write powf(x, 2), whose error CUDA documents as up
//     to 4 units in the last place: one ulp of a float y is at most 2u|y| (2^(e-23) for y in
//     [2^e, 2^(e+1))), so 4 ulp is up to 8u|y|, a relative error within gamma_8 (8u < 8u / (1 -
//     8u)), which composes with the others like 8 roundings (Higham, lemma 3.3). In all k = 8 +
//     1 + 4 + 2 = 15 at most, so the bound is gamma_16 * sum_k |c_k| A[i+k]^2 / 24
//     (stencil_roundings = 16, one to spare). A kernel that drops a term, swaps two
//     coefficients, reads one element off, or uses fifth powers misses it by orders of
//     magnitude.
//   - The convolution: out[i][j] is a dot product of T = (2r+1)^2 terms in any order, with or
//     without fused multiply-adds: within gamma_T * sum |filter| |in| over the taps inside the
//     image (zero padding adds exact zeros).
//   - The maximum picks one of the floats it is given: it is exact (bound 0).
//
// The references are computed in double, whose own error is a billion times smaller.
#pragma once
#include <cstddef>
#include <vector>

constexpr int stencil_roundings = 16;
// The stencil's coefficients c_k of A[i+k]^2, and its divisor.
constexpr float stencil_coefficients[5] = {1, 2, 1, -3, 5};
constexpr float stencil_divisor = 24;

struct Lab4Reference {
    std::vector<double> value;  // the exact answer, to double precision
    std::vector<double> bound;  // how far a float result may lie from it
};

// Every B[i], 0 <= i < n, from A's n + 4 values.
Lab4Reference stencil_reference(const float* A, int n);
// Only B at `positions` (ascending indices below n).
Lab4Reference stencil_reference_at(const float* A, int n, const std::vector<size_t>& positions);

// The whole height x width output of the (2r+1) x (2r+1) filter, zero padding.
Lab4Reference convolution_reference(const float* image, int width, int height, const float* filter, int radius);
// Only the outputs at `positions` (row * width + col).
Lab4Reference convolution_reference_at(const float* image, int width, int height, const float* filter, int radius,
                                       const std::vector<size_t>& positions);

// The largest of `count` floats (count >= 1), exactly.
float max_reference(const float* values, size_t count);

// The driver's ways in (common/reference_hook.hpp), so that the grader's builds for
// submissions can leave this file out: every element when `full`, else a sample drawn from
// `seed`, whose positions they store in `positions` (the first and last 1024 elements of B and
// 4096 others; the first and last rows and columns of the image and 4096 other outputs).
using StencilReferenceFunction = Lab4Reference(const float* A, int n, bool full, unsigned long long seed,
                                               std::vector<size_t>& positions);
using ConvolutionReferenceFunction = Lab4Reference(const float* image, int width, int height, const float* filter,
                                                   int radius, bool full, unsigned long long seed,
                                                   std::vector<size_t>& positions);
using MaxReferenceFunction = float(const float* values, size_t count);
