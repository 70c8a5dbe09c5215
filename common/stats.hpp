// Summary statistics for repeated timings. The median, not the mean: one slow repetition
// (a clock ramp, another process) must not move the number a student reports.
#pragma once
#include <algorithm>
#include <stdexcept>
#include <vector>

inline double median(std::vector<double> values) {
    if (values.empty()) throw std::invalid_argument("median of no values");
    size_t mid = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + mid, values.end());
    double upper = values[mid];
    if (values.size() % 2) return upper;
    double lower = *std::max_element(values.begin(), values.begin() + mid);
    return (lower + upper) / 2;
}

// GFLOP/s (or GB/s, with bytes) from a count and a time in milliseconds.
inline double giga_per_second(double count, double milliseconds) {
    return milliseconds > 0 ? count / (milliseconds * 1e-3) / 1e9 : 0.0;
}
