// The graphs of runs 1 and later (run_graph.hpp), on the host, without a GPU: a generated case's
// runs draw graphs of their own with the generator's spec; a file's runs keep its arcs, zero
// weights and unreachable pairs and move its other weights within the file's range; and each
// run's answer differs from run 0's, so a result kept from one run answers no other.
#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "catch.hpp"
#include "floyd.h"
#include "graph.hpp"
#include "random_data.hpp"
#include "reference.hpp"
#include "run_graph.hpp"

namespace {

std::vector<int> shortest_paths(std::vector<int> d, int n) {
    floyd_warshall_cpu(d.data(), n);
    return d;
}

}  // namespace

TEST_CASE("a drawn graph keeps the generator's spec: density, weights, components, no self-loop", "[lab3][graph]") {
    RandomGraphSpec spec;
    spec.n = 300;
    spec.density = 0.1;
    spec.min_weight = 2;
    spec.max_weight = 6;
    spec.components = 3;
    const PairDraws draws = pair_draws(spec);
    std::vector<int> d = drawn_adjacency(draws, uint64_t(15068862340908800810ull));
    REQUIRE(d.size() == 300u * 300u);
    auto component = [](int v) { return v * 3 / 300; };
    size_t arcs = 0, pairs = 0;
    std::set<int> weights;
    for (int i = 0; i < 300; ++i)
        for (int j = 0; j < 300; ++j) {
            const int w = d[size_t(i) * 300 + size_t(j)];
            if (i == j) {
                CHECK(w == 0);
                continue;
            }
            if (component(i) != component(j)) {
                CHECK(w == FW_INF);
                continue;
            }
            ++pairs;
            if (w == FW_INF) continue;
            ++arcs;
            CHECK((w >= 2 && w <= 6));
            weights.insert(w);
        }
    const double expected = 0.1 * double(pairs);
    CHECK(std::abs(double(arcs) - expected) < 5 * std::sqrt(expected));  // five standard deviations
    CHECK(weights.size() == 5);  // every weight of the range occurs
    // Entry by entry what the GPU's kernel computes (run_graph_draw.cu), so it must stay the host's.
    CHECK(d[1] == drawn_entry(draws, uint64_t(15068862340908800810ull), 0, 1));
}

TEST_CASE("every run draws its own graph, the same on every call, and density 0 or 1 holds", "[lab3][graph]") {
    RandomGraphSpec spec;
    spec.n = 97;
    spec.density = 0.2;
    const PairDraws draws = pair_draws(spec);
    const uint64_t one_run = 4265811925338924985ull, another = 5265834713277307401ull;  // two runs' seeds
    std::vector<int> a = drawn_adjacency(draws, one_run), b = drawn_adjacency(draws, one_run);
    std::vector<int> c = drawn_adjacency(draws, another);
    CHECK(a == b);
    CHECK(a != c);
    CHECK(shortest_paths(a, 97) != shortest_paths(c, 97));
    // Pinned: the same graph on every machine and compiler (a failing run must replay anywhere).
    CHECK(std::count_if(a.begin(), a.end(), [](int w) { return w > 0 && w < FW_INF; }) == 1915);
    CHECK((a[1] == FW_INF && a[2] == FW_INF && a[3] == 66));  // the first arc: 0 -> 3, weight 66
    spec.density = 0;
    std::vector<int> none = drawn_adjacency(pair_draws(spec), 5);
    CHECK(std::count(none.begin(), none.end(), FW_INF) == 97 * 96);
    spec.density = 1;
    std::vector<int> all = drawn_adjacency(pair_draws(spec), 5);
    CHECK(std::count(all.begin(), all.end(), FW_INF) == 0);
}

TEST_CASE("a file's runs keep its structure and move its weights within its range", "[lab3][graph]") {
    for (const char* file : {"labs/lab3/graphs/tiny.txt", "labs/lab3/graphs/islands.gr", "labs/lab3/graphs/grid-20x20.gr",
                             "labs/lab3/graphs/selfloops.gr"}) {
        INFO(file);
        Graph g = read_graph(file);
        const int n = g.n;
        const std::vector<int> a = adjacency_matrix(g);
        const WeightJitter jitter = weight_jitter(a, n);
        int lo = FW_INF, hi = 0;
        for (int w : a)
            if (w != 0 && w < FW_INF) lo = std::min(lo, w), hi = std::max(hi, w);
        CHECK(jitter.lo == lo);
        CHECK(jitter.hi == hi);
        CHECK(jitter.spread == std::max(3, (hi - lo) / 8));
        const std::vector<int> paths = shortest_paths(a, n);
        for (uint64_t seed : {2812292265504210138ull, 14602429099744326308ull, 2296860483407129496ull}) {  // three runs'
            const std::vector<int> b = jittered_adjacency(a, jitter, seed);
            REQUIRE(b.size() == a.size());
            size_t moved = 0;
            for (size_t p = 0; p < a.size(); ++p) {
                if (a[p] == 0 || a[p] == FW_INF) {
                    CHECK(b[p] == a[p]);  // the diagonal, zero weights and missing arcs stay
                    continue;
                }
                CHECK((b[p] >= lo && b[p] <= hi));
                CHECK(std::abs(b[p] - a[p]) <= jitter.spread);
                moved += b[p] != a[p];
            }
            CHECK(moved > 0);
            CHECK(shortest_paths(b, n) != paths);
            CHECK(b == jittered_adjacency(a, jitter, seed));
        }
    }
}

TEST_CASE("a file's weights: one weight only gets room to move, none keeps the file", "[lab3][graph]") {
    const int X = FW_INF;
    // Every arc weighs 5: the range grows to 5..8 so the runs differ.
    std::vector<int> same = {0, 5, X, X, 0, 5, 5, X, 0};
    WeightJitter j = weight_jitter(same, 3);
    CHECK((j.lo == 5 && j.hi == 8 && j.spread == 3));
    bool differs = false;
    for (uint64_t seed = 1; seed < 8; ++seed) differs |= jittered_adjacency(same, j, seed) != same;
    CHECK(differs);
    // ... unless the longest path would reach FW_INF: then the weights stay.
    const int heavy = FW_INF / 2 - 1;
    std::vector<int> big = {0, heavy, heavy, 0};
    CHECK(weight_jitter(big, 2).spread == 3);
    std::vector<int> edge = {0, X, X, X, X, X, X, X, X};
    edge[1] = FW_INF / 2 - 1;  // (3 - 1) x (w + 3) reaches FW_INF
    CHECK(weight_jitter(edge, 3).spread == 0);
    CHECK(jittered_adjacency(edge, weight_jitter(edge, 3), 9) == edge);
    // Zero weights and no arcs: nothing to move, every run has the file's matrix.
    std::vector<int> zeros = {0, 0, X, 0};
    CHECK(weight_jitter(zeros, 2).spread == 0);
    CHECK(jittered_adjacency(zeros, weight_jitter(zeros, 2), 9) == zeros);
}
