#include "perf_curve.hpp"

#include <cmath>

double perf_fraction(double ratio, double full_ratio, double zero_ratio) {
    if (!std::isfinite(ratio) || ratio <= 0) return 0;
    if (ratio <= full_ratio) return 1;
    if (ratio >= zero_ratio) return 0;
    return std::log(zero_ratio / ratio) / std::log(zero_ratio / full_ratio);
}
