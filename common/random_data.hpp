// Seeded test data that is the same on every machine and compiler: the standard
// library's distributions are not (their algorithms are unspecified), so a student's
// failing case could not be replayed by the TA. SplitMix64 with our own mapping is.
//
// SplitMix64 is counter-based: the value a generator returns at its k-th call depends only on
// the seed value and k (splitmix_at), so a kernel can draw element i of an array on its own and get
// exactly what SeededRandom gives on the host (common/random_fill.hpp).
//
// SplitMix64 can be inverted: two values of a run's inputs give its seed back. So no seed is
// derived from another: the checked run's is the case's --seed, and every other run's is drawn
// from the operating system as its inputs are loaded (os_random.hpp, common/part_loop.cpp).
#pragma once
#include <cstdint>
#include <vector>

#ifdef __CUDACC__
#define RANDOM_HD __host__ __device__
#else
#define RANDOM_HD
#endif

// The value SeededRandom(seed) returns at its (position + 1)-th call of next().
RANDOM_HD inline uint64_t splitmix_at(uint64_t seed, uint64_t position) {
    uint64_t z = seed + (position + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// Uniform in [lo, hi), on a grid of 2^-24 of the range. The arithmetic is exact in double and
// rounded once to float, so host and device (whether or not they fuse a multiply-add) draw the
// same value from the same bits.
RANDOM_HD inline float uniform_from_bits(uint64_t bits, float lo, float hi) {
    return float(double(lo) + double(hi - lo) * double(bits >> 40) * 0x1p-24);
}

class SeededRandom {
public:
    explicit SeededRandom(uint64_t seed) : state_(seed) {}

    uint64_t next() {
        uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // Uniform in [lo, hi), on a grid of 2^-24 of the range.
    float uniform(float lo, float hi) { return uniform_from_bits(next(), lo, hi); }
    // Uniform integer in [lo, hi].
    int64_t integer(int64_t lo, int64_t hi) { return lo + int64_t(next() % uint64_t(hi - lo + 1)); }

private:
    uint64_t state_;
};

inline std::vector<float> random_floats(size_t count, uint64_t seed, float lo = -1.f, float hi = 1.f) {
    SeededRandom random(seed);
    std::vector<float> values(count);
    for (float& v : values) v = random.uniform(lo, hi);
    return values;
}

// On the host, the values fill_uniform (random_fill.hpp) draws on the GPU: dst[i] is draw
// offset + i of SeededRandom(seed), uniform in [lo, hi). Each element is drawn on its own, so the
// loop vectorises: about a millisecond per million floats, several times faster than calling
// SeededRandom::uniform in turn (a CPU part's inputs drawn afresh for every run, lab 7).
inline void fill_uniform_host(float* dst, size_t count, uint64_t seed, uint64_t offset, float lo, float hi) {
    for (size_t i = 0; i < count; ++i) dst[i] = uniform_from_bits(splitmix_at(seed, offset + i), lo, hi);
}
