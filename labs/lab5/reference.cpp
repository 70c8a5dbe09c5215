#include "reference.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "reference_hook.hpp"

namespace {

constexpr double unit_roundoff = 0x1p-53;

// Shewchuk's exact summation (Python's math.fsum): `partials` stays a list of doubles that do
// not overlap and whose sum is exactly the sum so far; at the end they are added from the
// largest with one correct rounding (ties to even).
double fsum(const std::vector<double>& values) {
    std::vector<double> partials;
    for (double x : values) {
        size_t kept = 0;
        for (size_t j = 0; j < partials.size(); ++j) {
            double y = partials[j];
            if (std::fabs(x) < std::fabs(y)) std::swap(x, y);
            double hi = x + y;
            double lo = y - (hi - x);  // hi + lo == x + y exactly
            if (lo != 0) partials[kept++] = lo;
            x = hi;
        }
        partials.resize(kept);
        partials.push_back(x);
    }
    size_t n = partials.size();
    if (n == 0) return 0;
    double hi = partials[--n], lo = 0;
    while (n > 0) {
        double x = hi, y = partials[--n];
        hi = x + y;
        lo = y - (hi - x);
        if (lo != 0) break;
    }
    // Half-way between two doubles with more below in the same direction: round away.
    if (n > 0 && ((lo < 0 && partials[n - 1] < 0) || (lo > 0 && partials[n - 1] > 0))) {
        double y = lo * 2, x = hi + y;
        if (y == x - hi) hi = x;
    }
    return hi;
}

// Every finite double is +-M * 2^(k - 1075) with M < 2^53 an integer, k = max(exponent field,
// 1) in [1, 2046]. Elements of the same k are added exactly as 128-bit integers (2^74 of them
// fit), then each bucket, split into three pieces of at most 53 bits (each exactly a double),
// goes to fsum.
double bucket_sum(const double* x, size_t n, bool absolute) {
    std::vector<__int128> buckets(2047, 0);
    for (size_t i = 0; i < n; ++i) {
        uint64_t bits;
        std::memcpy(&bits, &x[i], sizeof bits);
        unsigned field = unsigned(bits >> 52) & 0x7ff;
        if (field == 0x7ff) return std::numeric_limits<double>::quiet_NaN();  // inf or NaN
        int64_t mantissa = int64_t(bits & ((uint64_t(1) << 52) - 1));
        if (field != 0) mantissa |= int64_t(1) << 52;  // the hidden bit of a normal number
        bool negative = (bits >> 63) && !absolute;
        buckets[field == 0 ? 1 : field] += negative ? -mantissa : mantissa;
    }
    std::vector<double> pieces;
    const unsigned __int128 low53 = (unsigned __int128)((uint64_t(1) << 53) - 1);
    for (int k = 1; k < 2047; ++k) {
        if (buckets[k] == 0) continue;
        bool negative = buckets[k] < 0;
        unsigned __int128 a = negative ? -(unsigned __int128)buckets[k] : (unsigned __int128)buckets[k];
        for (int piece = 0; piece < 3; ++piece, a >>= 53) {
            double chunk = double(uint64_t(a & low53));  // < 2^53: exact
            if (chunk != 0) pieces.push_back(std::ldexp(negative ? -chunk : chunk, k - 1075 + 53 * piece));
        }
    }
    return fsum(pieces);
}

}  // namespace

double double_gamma(size_t k) {
    double ku = double(k) * unit_roundoff;
    return ku / (1 - ku);
}

double exact_sum(const double* x, size_t n) { return bucket_sum(x, n, false); }
double exact_abs_sum(const double* x, size_t n) { return bucket_sum(x, n, true); }

double pairwise_sum(const double* x, size_t n) {
    if (n == 1) return x[0];
    size_t half = n / 2;
    return pairwise_sum(x, half) + pairwise_sum(x + half, n - half);
}

SumReference sum_reference(const double* x, size_t n) {
    SumReference r;
    r.value = exact_sum(x, n);
    // exact_abs_sum and the products below are each rounded once or twice: 8 u more covers them.
    r.bound = double_gamma(n) * exact_abs_sum(x, n) * (1 + 8 * unit_roundoff);
    return r;
}

namespace {
const ReferenceHook<SumReferenceFunction>::Install install_reference(&sum_reference);
const ReferenceHook<PairwiseSumFunction>::Install install_pairwise(&pairwise_sum);
}  // namespace
