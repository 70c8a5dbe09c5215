// Element-by-element comparison with a per-element allowance, keeping the first
// mismatches so a student sees where their kernel went wrong, not just that it did.
// NaN never passes (a poisoned output that was never written is NaN), and equal values
// always pass (so +inf against +inf, an unreachable pair in a graph, is a match).
#pragma once
#include <cmath>
#include <cstddef>
#include <vector>

struct Mismatch {
    size_t position;  // index into the compared arrays
    double got, want, allowed;
};

struct Comparison {
    size_t checked = 0;
    size_t bad = 0;
    std::vector<Mismatch> first;  // the first few mismatches, in order
    bool ok() const { return checked > 0 && bad == 0; }
};

inline bool within(double got, double want, double allowed) {
    if (std::isnan(got) || std::isnan(want)) return false;
    if (got == want) return true;
    return std::fabs(got - want) <= allowed;
}

// allowed == nullptr means exact comparison.
inline Comparison compare_values(const double* got, const double* want, const double* allowed, size_t count,
                                 size_t keep = 5) {
    Comparison result;
    result.checked = count;
    for (size_t i = 0; i < count; ++i) {
        double tolerance = allowed ? allowed[i] : 0.0;
        if (within(got[i], want[i], tolerance)) continue;
        ++result.bad;
        if (result.first.size() < keep) result.first.push_back({i, got[i], want[i], tolerance});
    }
    return result;
}
