#include "reference/matmul_reference.hpp"

#include <algorithm>
#include <cmath>

#include "random_data.hpp"
#include "reference_hook.hpp"

double float_dot_gamma(int K) {
    const double u = std::ldexp(1.0, -24);
    return K * u / (1 - K * u);
}

MatmulReference matmul_reference(const float* A, const float* B, int M, int N, int K) {
    MatmulReference r;
    r.value.assign(size_t(M) * N, 0.0);
    r.bound.assign(size_t(M) * N, 0.0);
    std::vector<double> absolute_row(N);
    // i-k-j order: the inner loop walks rows of B and C contiguously.
    for (int i = 0; i < M; ++i) {
        double* value = &r.value[size_t(i) * N];
        std::fill(absolute_row.begin(), absolute_row.end(), 0.0);
        for (int k = 0; k < K; ++k) {
            double a = A[size_t(i) * K + k];
            const float* b = &B[size_t(k) * N];
            for (int j = 0; j < N; ++j) {
                value[j] += a * b[j];
                absolute_row[j] += std::fabs(a) * std::fabs(b[j]);
            }
        }
        double gamma = float_dot_gamma(K);
        for (int j = 0; j < N; ++j) r.bound[size_t(i) * N + j] = gamma * absolute_row[j];
    }
    return r;
}

MatmulReference matmul_reference_at(const float* A, const float* B, int M, int N, int K,
                                    const std::vector<size_t>& positions) {
    (void)M;
    MatmulReference r;
    double gamma = float_dot_gamma(K);
    for (size_t p : positions) {
        size_t i = p / N, j = p % N;
        double sum = 0, absolute = 0;
        for (int k = 0; k < K; ++k) {
            double product = double(A[i * K + k]) * B[size_t(k) * N + j];
            sum += product;
            absolute += std::fabs(product);
        }
        r.value.push_back(sum);
        r.bound.push_back(gamma * absolute);
    }
    return r;
}

std::vector<size_t> sample_positions(int M, int N, size_t random_count, unsigned long long seed) {
    std::vector<size_t> positions;
    for (int j = 0; j < N; ++j) {
        positions.push_back(size_t(j));
        positions.push_back(size_t(M - 1) * N + j);
    }
    for (int i = 0; i < M; ++i) {
        positions.push_back(size_t(i) * N);
        positions.push_back(size_t(i) * N + N - 1);
    }
    SeededRandom random(seed);
    for (size_t s = 0; s < random_count; ++s) positions.push_back(size_t(random.integer(0, int64_t(M) * N - 1)));
    std::sort(positions.begin(), positions.end());
    positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
    return positions;
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
