// The CPU reference of a float matrix product (labs 1, 2 and 7) and the error bound that
// decides what "correct" means.
//
// A float dot product of length K, summed in any order (with or without FMA), differs
// from the exact value by at most gamma_K * sum_k |a_k| |b_k|, gamma_K = K u / (1 - K u),
// u = 2^-24 (Higham, Accuracy and Stability of Numerical Algorithms, section 3.1). The
// reference is computed in double, whose own error is a billion times smaller, so a GPU
// element passes when |gpu - reference| <= gamma_K * (|A| |B|)_ij. No kernel that is
// right can fail this; a kernel that drops or repeats even one product almost surely does.
#pragma once
#include <cstddef>
#include <vector>

#include "sample_positions.hpp"

double float_dot_gamma(int K);  // gamma_K for float32

struct MatmulReference {
    std::vector<double> value;  // (A B)_ij
    std::vector<double> bound;  // gamma_K (|A| |B|)_ij
};

// The whole M x N product. Costs M N K multiply-adds, twice.
MatmulReference matmul_reference(const float* A, const float* B, int M, int N, int K);

// Only the elements at `positions` (row * N + col): for sizes where the whole product
// would take the CPU too long.
MatmulReference matmul_reference_at(const float* A, const float* B, int M, int N, int K,
                                    const std::vector<size_t>& positions);

// The driver's one way in (common/reference_hook.hpp), so that the grader's builds for
// submissions can leave this file out: every element when `full`, else a sample drawn from
// `seed`, whose positions it stores in `positions`.
using MatmulReferenceFunction = MatmulReference(const float* A, const float* B, int M, int N, int K, bool full,
                                                unsigned long long seed, std::vector<size_t>& positions);
