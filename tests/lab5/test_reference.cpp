// Lab 5's CPU side, without a GPU: the exact sum and the textbook's pairwise recursion on inputs
// whose answers are worked out by hand, the error bound against the exact sum for many orders
// of addition (and close to tight for the worst one), and the driver's input data.
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "catch.hpp"
#include "lab5.hpp"
#include "reference.hpp"

namespace {

constexpr double two53 = 9007199254740992.0;  // 2^53

double sequential_sum(const std::vector<double>& x) {
    double s = 0;
    for (double v : x) s += v;
    return s;
}

// A block tree as the GPU rungs build it: blocks of `block` values summed interleaved (element
// i + stride into i), then the block sums the same way, until one is left.
double block_tree_sum(std::vector<double> x, size_t block) {
    while (x.size() > 1) {
        std::vector<double> next;
        for (size_t first = 0; first < x.size(); first += block) {
            size_t count = std::min(block, x.size() - first);
            for (size_t stride = block / 2; stride > 0; stride /= 2)
                for (size_t t = 0; t < stride; ++t)
                    if (t + stride < count) x[first + t] += x[first + t + stride];
            next.push_back(x[first]);
        }
        x = next;
    }
    return x[0];
}

// A grid-stride order: `threads` running sums, each over every threads-th value, then a tree.
double grid_stride_sum(const std::vector<double>& x, size_t threads) {
    std::vector<double> partial(threads, 0.0);
    for (size_t i = 0; i < x.size(); ++i) partial[i % threads] += x[i];
    return block_tree_sum(partial, 256);
}

// The exact sum of values on the 2^-53 grid with |x| < 1, in 128-bit integers: the check of
// exact_sum on the driver's own data.
double exact_by_integers(const std::vector<double>& x) {
    __int128 total = 0;
    for (double v : x) total += (__int128)(v * two53);  // exact: v is a multiple of 2^-53
    bool negative = total < 0;
    unsigned __int128 a = negative ? -(unsigned __int128)total : (unsigned __int128)total;
    REQUIRE(a < ((unsigned __int128)1 << 106));
    // |total| < 2^106 splits into two pieces of 53 bits, each exact; their sum rounds once.
    double hi = double(uint64_t(a >> 53)) * two53, lo = double(uint64_t(a & ((uint64_t(1) << 53) - 1)));
    double s = (hi + lo) / two53;  // dividing by a power of two is exact
    return negative ? -s : s;
}

}  // namespace

TEST_CASE("exact_sum adds exactly and rounds once", "[lab5][reference]") {
    const double tiny = std::numeric_limits<double>::denorm_min();
    CHECK(exact_sum(std::vector<double>{1e16, 1, -1e16}.data(), 3) == 1);
    CHECK(exact_sum(std::vector<double>{1, 1e100, 1, -1e100}.data(), 4) == 2);
    // 0.1 + 0.2 + 0.3 in doubles, added left to right, is 0.6000000000000001; exactly, 0.6.
    CHECK(sequential_sum({0.1, 0.2, 0.3}) != 0.6);
    CHECK(exact_sum(std::vector<double>{0.1, 0.2, 0.3}.data(), 3) == 0.6);
    // 2^53 + 3 lies halfway between 2^53 + 2 and 2^53 + 4: ties go to the even one, + 4.
    CHECK(exact_sum(std::vector<double>{two53, 1, 1, 1}.data(), 4) == two53 + 4);
    CHECK(exact_sum(std::vector<double>{tiny, tiny, -tiny, 3 * tiny}.data(), 4) == 4 * tiny);  // subnormals
    CHECK(exact_sum(std::vector<double>{-0.5, -0.25}.data(), 2) == -0.75);
    CHECK(exact_sum(nullptr, 0) == 0);
    CHECK(std::isnan(exact_sum(std::vector<double>{1, std::numeric_limits<double>::infinity()}.data(), 2)));
    CHECK(exact_abs_sum(std::vector<double>{-1, 2, -3}.data(), 3) == 6);
}

TEST_CASE("pairwise_sum is the textbook's tree, and keeps the last value of an odd size", "[lab5][reference]") {
    // Halves (2^53 + 1) + (1 + 1): the first rounds to 2^53 (a tie, to even), then + 2 is exact.
    // Left to right every + 1 is such a tie and the sum stays 2^53; the exact sum rounds to + 4.
    std::vector<double> x = {two53, 1, 1, 1};
    CHECK(pairwise_sum(x.data(), 4) == two53 + 2);
    CHECK(sequential_sum(x) == two53);
    // The textbook's recursiveReduce on {1, 2, 3}: stride 1, data[0] += data[1], then size 1: 3. It
    // drops the 3; this one does not.
    CHECK(pairwise_sum(std::vector<double>{1, 2, 3}.data(), 3) == 6);
    CHECK(pairwise_sum(std::vector<double>{-7.5}.data(), 1) == -7.5);
    std::vector<double> ramp(1001);
    for (size_t i = 0; i < ramp.size(); ++i) ramp[i] = double(i);
    CHECK(pairwise_sum(ramp.data(), ramp.size()) == 500500);
}

TEST_CASE("every order of additions lies within gamma_n sum|x| of the exact sum", "[lab5][reference]") {
    std::mt19937_64 shuffle(5);
    for (size_t n : {size_t(1), size_t(2), size_t(17), size_t(1000), size_t(65537), size_t(1000003)}) {
        std::vector<double> x = reduce_input(n, 40 + n);
        SumReference ref = sum_reference(x.data(), n);
        CHECK(ref.value == exact_by_integers(x));
        // A long double compensated (Kahan) sum, 11 more bits each step: it agrees to far within
        // the bound (a second opinion on the exact value, by another method).
        long double s = 0, c = 0;
        for (double v : x) {
            long double y = v - c, t = s + y;
            c = (t - s) - y;
            s = t;
        }
        CHECK(std::fabs(double(s) - ref.value) <= 1e-6 * ref.bound + 4 * 0x1p-53 * std::fabs(ref.value));
        for (int order = 0; order < 3; ++order) {
            INFO("n " << n << ", order " << order);
            CHECK(std::fabs(sequential_sum(x) - ref.value) <= ref.bound);
            CHECK(std::fabs(pairwise_sum(x.data(), n) - ref.value) <= ref.bound);
            CHECK(std::fabs(block_tree_sum(x, 512) - ref.value) <= ref.bound);
            CHECK(std::fabs(block_tree_sum(x, 64) - ref.value) <= ref.bound);
            CHECK(std::fabs(grid_stride_sum(x, 1 + n / 7) - ref.value) <= ref.bound);
            std::shuffle(x.begin(), x.end(), shuffle);
        }
        if (n >= 2) {
            // One value dropped is caught: it moves the sum by at least 0.5, more than twice the
            // bound (the grader's allowance against the reference run).
            double dropped = exact_sum(x.data(), n - 1);
            CHECK(std::fabs(dropped - ref.value) > 2 * ref.bound);
        }
    }
}

TEST_CASE("the bound is close to tight: no smaller multiple of u holds for every order", "[lab5][reference]") {
    // 1 followed by k halves of an ulp of 1: left to right, every addition is a tie that rounds
    // back to 1, so the whole k 2^-53 is lost; gamma_n sum|x| is hardly more.
    const size_t k = 4096;
    std::vector<double> x(k + 1, 0x1p-53);
    x[0] = 1;
    SumReference ref = sum_reference(x.data(), x.size());
    double error = std::fabs(sequential_sum(x) - ref.value);
    CHECK(error <= ref.bound);
    CHECK(error > 0.99 * ref.bound);
}

TEST_CASE("the driver's data: reproducible, mixed signs, |x| in [0.5, 1), exact on the 2^-53 grid", "[lab5][data]") {
    std::vector<double> a = reduce_input(10000, 7), b = reduce_input(10000, 7), c = reduce_input(10000, 8);
    CHECK(a == b);
    CHECK(a != c);
    size_t negative = 0;
    for (double v : a) {
        CHECK(std::fabs(v) >= 0.5);
        CHECK(std::fabs(v) < 1);
        CHECK(v * two53 == std::floor(v * two53));
        negative += v < 0;
    }
    CHECK(negative > 4500);
    CHECK(negative < 5500);
    CHECK(double_gamma(0) == 0);
    CHECK(double_gamma(1) == Approx(0x1p-53));
}

TEST_CASE("the driver's data: element i is the i-th draw alone, so the GPU can draw each run's input", "[lab5][data]") {
    // The host twin of the GPU's kernel (lab5.cu, draw_reduce_input): element i from
    // splitmix_at(seed, i), each on its own. It must give reduce_input's values, run 0's
    // (the committed samples and the handout's sums) and every other run's.
    for (uint64_t seed : {uint64_t(1), uint64_t(512), uint64_t(6432856621843158066ull)}) {
        std::vector<double> x = reduce_input(5000, seed);
        for (size_t i = 0; i < x.size(); ++i) REQUIRE(x[i] == reduce_value(splitmix_at(seed, i)));
    }
    // Run 0 keeps the mapping the driver always had: a draw's low bit the sign, its top 52 bits
    // the magnitude in [0.5, 1).
    SeededRandom random(512);
    std::vector<double> x = reduce_input(3, 512);
    for (double v : x) {
        uint64_t bits = random.next();
        CHECK(v == ((bits & 1) ? -1.0 : 1.0) * (0.5 + double(bits >> 12) * 0x1p-53));
    }
    // Every run has values of its own.
    CHECK(reduce_input(1000, uint64_t(2416195946297469962ull)) != reduce_input(1000, 512));
    CHECK(reduce_input(1000, uint64_t(2416195946297469962ull)) != reduce_input(1000, uint64_t(10978676559644349175ull)));
}
