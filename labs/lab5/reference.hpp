// Lab 5's CPU reference: the exact sum of the input, the error bound every correct rung meets
// whatever its order of additions, and the textbook's recursive pairwise reduction (the table's
// CPU row).
//
// A sum of n doubles computed by any tree of additions (sequential, pairwise, a block tree, a
// grid-stride loop then a tree, atomics in any order) differs from the exact sum S by at most
// gamma_{n-1} * sum_i |x_i|, gamma_k = k u / (1 - k u), u = 2^-53: each x_i goes through at
// most n - 1 roundings (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed.,
// section 4.2, eq. 4.4). The reference value is S itself rounded once (|ref - S| <= u |S| <=
// u sum|x_i|), so a correct rung lies within (gamma_{n-1} + u) sum|x_i| <= gamma_n sum|x_i| of
// it: that is the bound. Pairwise or tree orders have the tighter gamma_{ceil(log2 n)}, but
// a grid-stride loop adds n / (grid x block) values one after another first, and a student
// may choose any grid: only gamma_{n-1} holds for every rung.
#pragma once
#include <cstddef>

// gamma_k for doubles: k u / (1 - k u), u = 2^-53.
double double_gamma(size_t k);

// The exact sum of x[0..n) rounded once to the nearest double (ties to even): every element
// is an integer times a power of two, those of one power are added exactly in 128-bit
// integers, and the powers are combined exactly by Shewchuk's algorithm (Python's math.fsum).
// n = 0 gives 0; an infinity or NaN among the x gives NaN.
double exact_sum(const double* x, size_t n);
// The same for sum |x_i|.
double exact_abs_sum(const double* x, size_t n);

// The textbook's CPU reduction, recursiveReduce: the sum of the first half plus the sum of the
// second half, down to single elements (pairs, then pairs of pairs, ...). It reads x and does
// not change it, and an odd size keeps its last element (the textbook's in-place loop
// `data[i] += data[i + stride]` with stride = size / 2 drops it). n >= 1.
double pairwise_sum(const double* x, size_t n);

struct SumReference {
    double value;  // exact_sum
    double bound;  // gamma_n * sum |x_i|, rounded up: how far a correct GPU sum may lie from value
};
SumReference sum_reference(const double* x, size_t n);

// The driver's ways in (common/reference_hook.hpp), so that the grader's builds for submissions
// can leave this file out.
using SumReferenceFunction = SumReference(const double* x, size_t n);
using PairwiseSumFunction = double(const double* x, size_t n);
