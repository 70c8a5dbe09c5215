#include "run_graph.hpp"

#include <algorithm>

PairDraws pair_draws(const RandomGraphSpec& spec) {
    PairDraws d;
    d.n = spec.n;
    d.threshold = uint64_t(spec.density * 9007199254740992.0);  // as graph.cpp's generator: density x 2^53
    d.min_weight = spec.min_weight;
    d.max_weight = spec.max_weight;
    d.components = spec.components;
    return d;
}

WeightJitter weight_jitter(const std::vector<int>& adjacency, int n) {
    WeightJitter j;
    bool any = false;
    for (int w : adjacency)
        if (w != 0 && w < FW_INF) {
            j.lo = any ? std::min(j.lo, w) : w;
            j.hi = any ? std::max(j.hi, w) : w;
            any = true;
        }
    if (!any) return j;  // spread 0: no weight to move
    j.spread = std::max(3, (j.hi - j.lo) / 8);
    // One weight only: moving it within [lo, lo] would change nothing, so the range grows upwards
    // by the spread, where the longest path, (n - 1) x the largest weight, stays below FW_INF.
    if (j.lo == j.hi) {
        if ((long long)(n - 1) * (j.hi + j.spread) < FW_INF) j.hi += j.spread;
        else j.spread = 0;
    }
    return j;
}

std::vector<int> drawn_adjacency(const PairDraws& draws, uint64_t seed) {
    const size_t n = size_t(draws.n);
    std::vector<int> d(n * n);
    for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < n; ++j) d[i * n + j] = drawn_entry(draws, seed, int(i), int(j));
    return d;
}

std::vector<int> jittered_adjacency(const std::vector<int>& adjacency, const WeightJitter& jitter, uint64_t seed) {
    std::vector<int> d(adjacency.size());
    for (size_t p = 0; p < d.size(); ++p) d[p] = jittered_entry(adjacency[p], jitter, seed, p);
    return d;
}
