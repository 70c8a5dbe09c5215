// Lab 1's CPU reference and error bound: the yardstick every rung is judged by.
#include <algorithm>
#include <cmath>
#include <vector>

#include "catch.hpp"
#include "random_data.hpp"
#include "reference/matmul_reference.hpp"

TEST_CASE("reference product of a small rectangular case, worked by hand", "[lab1][reference]") {
    // A (2x3) * B (3x2)
    std::vector<float> A = {1, 2, 3, 4, 5, 6};
    std::vector<float> B = {7, 8, 9, 10, 11, 12};
    MatmulReference r = matmul_reference(A.data(), B.data(), 2, 2, 3);
    CHECK(r.value == std::vector<double>{58, 64, 139, 154});
    // the bound is gamma_3 times the sum of |a||b|: equal to the product here (all positive)
    CHECK(r.bound[0] == Approx(float_dot_gamma(3) * 58));
}

TEST_CASE("gamma_K is K u / (1 - K u) for float", "[lab1][reference]") {
    CHECK(float_dot_gamma(1) == Approx(std::ldexp(1.0, -24)).epsilon(1e-6));
    CHECK(float_dot_gamma(1000) == Approx(1000 * std::ldexp(1.0, -24)).epsilon(1e-4));
}

TEST_CASE("sampled reference agrees with the full one at the sampled positions", "[lab1][reference]") {
    const int M = 37, N = 41, K = 43;
    auto A = random_floats(size_t(M) * K, 5), B = random_floats(size_t(K) * N, 6);
    MatmulReference full = matmul_reference(A.data(), B.data(), M, N, K);
    std::vector<size_t> at = sample_positions(M, N, 100, 7);
    MatmulReference some = matmul_reference_at(A.data(), B.data(), M, N, K, at);
    REQUIRE(some.value.size() == at.size());
    for (size_t i = 0; i < at.size(); ++i) {
        CHECK(some.value[i] == Approx(full.value[at[i]]).margin(1e-12));
        CHECK(some.bound[i] == Approx(full.bound[at[i]]).margin(1e-18));
    }
}

TEST_CASE("the reference's rows, shared among the CPUs, are each position's own sum", "[lab1][reference]") {
    const int M = 301, N = 67, K = 251;  // 16,817 multiply-adds a row: rows of C in several threads
    auto A = random_floats(size_t(M) * K, 8), B = random_floats(size_t(K) * N, 9);
    MatmulReference full = matmul_reference(A.data(), B.data(), M, N, K);
    std::vector<size_t> every(size_t(M) * N);
    for (size_t p = 0; p < every.size(); ++p) every[p] = p;
    MatmulReference one_by_one = matmul_reference_at(A.data(), B.data(), M, N, K, every);
    size_t differ = 0;
    for (size_t p = 0; p < every.size(); ++p)
        differ += !(std::fabs(full.value[p] - one_by_one.value[p]) <= 1e-12 && std::fabs(full.bound[p] - one_by_one.bound[p]) <= 1e-18);
    CHECK(differ == 0);
}

TEST_CASE("sample positions cover the edges, are sorted, unique and inside C", "[lab1][reference]") {
    std::vector<size_t> at = sample_positions(5, 7, 50, 1);
    for (size_t i = 1; i < at.size(); ++i) CHECK(at[i - 1] < at[i]);
    CHECK(at.back() < 35u);
    for (size_t corner : {size_t(0), size_t(6), size_t(28), size_t(34)})
        CHECK(std::find(at.begin(), at.end(), corner) != at.end());
    CHECK(sample_positions(1, 1, 10, 1) == std::vector<size_t>{0});
}

TEST_CASE("the bound is loose enough for float and tight enough to catch a dropped product", "[lab1][reference]") {
    const int M = 16, N = 16, K = 257;  // K one past a multiple of the tile: the tail a student report's kernel drops
    auto A = random_floats(size_t(M) * K, 11), B = random_floats(size_t(K) * N, 12);
    MatmulReference r = matmul_reference(A.data(), B.data(), M, N, K);
    int float_fail = 0, dropped_pass = 0;
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            float sum = 0;  // plain float summation, the way a kernel does it
            for (int k = 0; k < K; ++k) sum += A[i * K + k] * B[k * N + j];
            float without_last = sum - A[i * K + K - 1] * B[(K - 1) * N + j];
            double e = r.bound[i * N + j];
            float_fail += std::fabs(sum - r.value[i * N + j]) > e;
            dropped_pass += std::fabs(without_last - r.value[i * N + j]) <= e;
        }
    CHECK(float_fail == 0);
    // A dropped product hides only where it happens to be tiny (|ab| < bound: under 1% of
    // uniform products); a kernel that drops the tail drops it everywhere, so it fails.
    CHECK(dropped_pass < M * N / 32);
}
