// The graph each run of a part computes on (common/lab_case.hpp: every run has inputs of its own,
// from a seed of its own). The checked run, whose seed is the case's --seed, keeps the case's own
// graph: the file exactly, or what the seeded generator (graph.hpp) makes from --seed. Every other
// run gets a graph of its own, made on the GPU in microseconds (run_graph_draw.cu) and, for the
// CPU reference, the same on the host (run_graph.cpp), entry by entry from the functions below:
//
// - A generated graph: every pair (i, j) draws its own arc and weight from the run's seed, at
//   positions fixed by (i, j) (splitmix_at), with the generator's spec: the same density,
//   weights and components, a different graph. (graph.hpp's generator draws in sequence, each
//   arc's weight after it, so a pair's draws depend on every pair before it: it cannot draw one
//   pair on its own, which is why the checked run alone keeps it.)
// - A graph from a file: the file's arcs, each nonzero weight moved by a seeded amount in
//   [-spread, spread] and kept within the file's nonzero weights [lo, hi]. The structure stays:
//   the same arcs (parallel arcs and self-loops already folded into the matrix), zero weights
//   stay 0, unreachable pairs stay FW_INF; the shortest paths and the diameter change.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "floyd.h"
#include "graph.hpp"
#include "random_data.hpp"

// A generated graph's spec as the per-pair draws use it (host and GPU alike).
struct PairDraws {
    int n = 1;
    uint64_t threshold = 0;  // an arc when the 53 high bits of its draw fall below this
    int min_weight = 1, max_weight = 1;
    int components = 1;
};
PairDraws pair_draws(const RandomGraphSpec& spec);

// Entry (i, j) of the adjacency matrix of the graph drawn from `seed`.
RANDOM_HD inline int drawn_entry(const PairDraws& d, uint64_t seed, int i, int j) {
    if (i == j) return 0;
    // The component of a vertex as graph.cpp's generator cuts them: runs of consecutive vertices.
    if ((long long)i * d.components / d.n != (long long)j * d.components / d.n) return FW_INF;
    const uint64_t pair = uint64_t(i) * uint64_t(d.n) + uint64_t(j);
    if ((splitmix_at(seed, 2 * pair) >> 11) >= d.threshold) return FW_INF;
    return d.min_weight + int(splitmix_at(seed, 2 * pair + 1) % uint64_t(d.max_weight - d.min_weight + 1));
}

// How a file's weights move from run to run.
struct WeightJitter {
    int lo = 0, hi = 0;  // the file's smallest and largest nonzero weight
    int spread = 0;      // each moves by up to this much; 0: nothing can move (no nonzero weight)
};
// From the file's adjacency matrix (n x n): spread = max(3, (hi - lo) / 8), so every weight has
// several values to take even in a narrow range (tiny.txt, weights 1..8: a run keeps all of
// run 0's shortest paths once in about 1700). Where all nonzero weights are equal (lo = hi), hi is
// raised by the spread when the longest path stays below FW_INF (graph.hpp).
WeightJitter weight_jitter(const std::vector<int>& adjacency, int n);

// The entry at `position` of a file's matrix whose entry there is `w`, in the run of `seed`.
RANDOM_HD inline int jittered_entry(int w, const WeightJitter& j, uint64_t seed, uint64_t position) {
    if (w == 0 || w >= FW_INF || j.spread == 0) return w;  // diagonal, zero weight, no arc
    const int moved = w + int(splitmix_at(seed, position) % uint64_t(2 * j.spread + 1)) - j.spread;
    return moved < j.lo ? j.lo : moved > j.hi ? j.hi : moved;
}

// The same matrices on the host, for the CPU reference.
std::vector<int> drawn_adjacency(const PairDraws& draws, uint64_t seed);
std::vector<int> jittered_adjacency(const std::vector<int>& adjacency, const WeightJitter& jitter, uint64_t seed);

// ... and on the GPU, on `stream` (run_graph_draw.cu): dst holds n x n ints (count of them).
void draw_adjacency_on_gpu(int* dst, const PairDraws& draws, uint64_t seed, cudaStream_t stream);
void jitter_adjacency_on_gpu(int* dst, const int* file_matrix, size_t count, const WeightJitter& jitter, uint64_t seed,
                             cudaStream_t stream);
