// Summary statistics for repeated timings. The median, not the mean: one slow repetition
// (a clock ramp, another process) must not move the number a student reports; the
// quartiles around it show how much the repetitions moved.
#pragma once
#include <algorithm>
#include <stdexcept>
#include <vector>

// The q-quantile (0 <= q <= 1) by linear interpolation between the sorted values
// (the usual "type 7" definition: quantile(v, 0.5) is the median).
inline double quantile(std::vector<double> values, double q) {
    if (values.empty()) throw std::invalid_argument("quantile of no values");
    std::sort(values.begin(), values.end());
    double position = q * double(values.size() - 1);
    size_t below = size_t(position);
    if (below + 1 >= values.size()) return values.back();
    return values[below] + (position - double(below)) * (values[below + 1] - values[below]);
}

inline double median(const std::vector<double>& values) { return quantile(values, 0.5); }

// GFLOP/s (or GB/s, with bytes) from a count and a time in milliseconds.
inline double giga_per_second(double count, double milliseconds) {
    return milliseconds > 0 ? count / (milliseconds * 1e-3) / 1e9 : 0.0;
}
