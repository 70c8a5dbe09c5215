// Seeded test data that is the same on every machine and compiler: the standard
// library's distributions are not (their algorithms are unspecified), so a student's
// failing case could not be replayed by the TA. SplitMix64 with our own mapping is.
#pragma once
#include <cstdint>
#include <vector>

class SeededRandom {
public:
    explicit SeededRandom(uint64_t seed) : state_(seed) {}

    uint64_t next() {
        uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // Uniform in [lo, hi), on a grid of 2^-24 of the range: exact in float.
    float uniform(float lo, float hi) { return lo + (hi - lo) * float(next() >> 40) * 0x1p-24f; }
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
