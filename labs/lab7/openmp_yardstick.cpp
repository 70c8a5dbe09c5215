#include "openmp_yardstick.hpp"

#include <cstddef>

void openmp_yardstick_ikj(const float* A, const float* B, float* C, int n, int threads) {
    // Whole rows of C per thread; rows of B and C walked contiguously (vectorised inner loop).
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int i = 0; i < n; ++i) {
        float* c = C + size_t(i) * n;
        for (int j = 0; j < n; ++j) c[j] = 0;
        for (int k = 0; k < n; ++k) {
            const float a = A[size_t(i) * n + k];
            const float* b = B + size_t(k) * n;
            // Vectorised whatever the optimisation level (g++ -O2 may not): B's and C's rows never overlap.
#pragma omp simd
            for (int j = 0; j < n; ++j) c[j] += a * b[j];
        }
    }
}
