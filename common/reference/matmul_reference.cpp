#include "reference/matmul_reference.hpp"

#include <algorithm>
#include <cmath>

#include "parallel_ranges.hpp"
#include "reference_hook.hpp"

double float_dot_gamma(int K) {
    const double u = std::ldexp(1.0, -24);
    return K * u / (1 - K * u);
}

MatmulReference matmul_reference(const float* A, const float* B, int M, int N, int K) {
    MatmulReference r;
    r.value.assign(size_t(M) * N, 0.0);
    r.bound.assign(size_t(M) * N, 0.0);
    const double gamma = float_dot_gamma(K);
    // Rows of C on every CPU: each row is summed in the same order whichever thread does it.
    parallel_ranges(size_t(M), items_per_range(double(N) * K), [&](size_t first_row, size_t end_row) {
        std::vector<double> absolute_row(N);
        // i-k-j order: the inner loop walks rows of B and C contiguously.
        for (size_t i = first_row; i < end_row; ++i) {
            double* value = &r.value[i * N];
            std::fill(absolute_row.begin(), absolute_row.end(), 0.0);
            for (int k = 0; k < K; ++k) {
                double a = A[i * K + k];
                const float* b = &B[size_t(k) * N];
                for (int j = 0; j < N; ++j) {
                    value[j] += a * b[j];
                    absolute_row[j] += std::fabs(a) * std::fabs(b[j]);
                }
            }
            for (int j = 0; j < N; ++j) r.bound[i * N + j] = gamma * absolute_row[j];
        }
    });
    return r;
}

MatmulReference matmul_reference_at(const float* A, const float* B, int M, int N, int K,
                                    const std::vector<size_t>& positions) {
    (void)M;
    // The columns of B the positions need, gathered once into rows of their own: a column read
    // in place costs a cache miss a product (a stride of N floats), which at 5000 x 1000 x 5000
    // made a 16,000-element sample take longer than the GPU's whole product.
    std::vector<int> slot_of(N, -1);
    std::vector<int> columns;
    for (size_t p : positions)
        if (slot_of[p % N] < 0) slot_of[p % N] = int(columns.size()), columns.push_back(int(p % N));
    std::vector<float> column_rows(columns.size() * size_t(K));
    for (int k = 0; k < K; ++k)
        for (size_t c = 0; c < columns.size(); ++c) column_rows[c * K + k] = B[size_t(k) * N + columns[c]];
    MatmulReference r;
    r.value.resize(positions.size());
    r.bound.resize(positions.size());
    const double gamma = float_dot_gamma(K);
    parallel_ranges(positions.size(), items_per_range(double(K)), [&](size_t first, size_t end) {
        for (size_t q = first; q < end; ++q) {
            const float* a = &A[positions[q] / N * K];
            const float* b = &column_rows[size_t(slot_of[positions[q] % N]) * K];
            double sum = 0, absolute = 0;
            for (int k = 0; k < K; ++k) {
                double product = double(a[k]) * b[k];
                sum += product;
                absolute += std::fabs(product);
            }
            r.value[q] = sum;
            r.bound[q] = gamma * absolute;
        }
    });
    return r;
}

namespace {

MatmulReference reference_for_driver(const float* A, const float* B, int M, int N, int K, bool full,
                                     unsigned long long seed, std::vector<size_t>& positions) {
    if (full) {
        positions.clear();
        return matmul_reference(A, B, M, N, K);
    }
    positions = sample_positions(M, N, 4096, seed);
    return matmul_reference_at(A, B, M, N, K, positions);
}

const ReferenceHook<MatmulReferenceFunction>::Install install(&reference_for_driver);

}  // namespace
