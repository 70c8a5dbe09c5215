// Lab 3's graphs: the one reader of graph files, the seeded generator and the distance matrix
// the parts start from. Host-only (no CUDA), so every error path is tested without a GPU
// (tests/lab3/test_graph.cpp).
//
// Two file formats, told apart by the name: a file ending in .gr is DIMACS, anything else the
// plain format. Both are documented in labs/lab3/graphs/README.md, with examples beside it.
//
//   plain                                   DIMACS .gr (9th DIMACS challenge, shortest paths)
//   # comment (a '#' anywhere ends a line)   c comment
//   N M          vertices, arcs              p sp N M
//   u v w        M lines, vertices 0..N-1    a u v w      M lines, vertices 1..N
//
// Weights are whole numbers from 0 to FW_INF - 1, and a shortest path (at most N - 1 arcs)
// must stay below FW_INF: (N - 1) x the largest weight < FW_INF (floyd.h says why). Parallel
// arcs keep their smallest weight; a self-loop changes nothing (dist[i][i] = 0: no weight is
// negative). Any mistake throws GraphError whose message starts with "FILE:LINE: ".
#pragma once
#include <cstddef>
#include <cstdint>
#include <istream>
#include <stdexcept>
#include <string>
#include <vector>

#include "floyd.h"

// The most vertices a graph may have: N^2 < 2^31, so every kernel may index the matrix with int
// (46340^2 ints are 8 GiB).
constexpr int max_vertices = 46340;
// Bytes the lab's host side holds per entry of the N x N matrix: the adjacency matrix and the
// CPU's copy (ints), the reference and the two downloads the checks compare (doubles).
constexpr size_t host_bytes_per_entry = 4 + 4 + 8 + 8 + 8;

struct GraphError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Arc {
    int from, to;  // 0-based
    int weight;
    int line;  // where the file gave it (0: generated)
};

struct Graph {
    int n = 0;
    std::vector<Arc> arcs;
    std::string origin;  // "labs/lab3/graphs/tiny.txt (plain)", "random: ..."
};

enum class GraphFormat { plain, dimacs };
GraphFormat format_of(const std::string& path);  // .gr: dimacs; anything else: plain
const char* format_name(GraphFormat format);     // "plain", "DIMACS .gr"

// Reads a graph file. `memory_bytes`: the host memory a graph may use (N^2 x
// host_bytes_per_entry must fit), by default this machine's. Throws GraphError (a file that
// cannot be opened: GraphFileMissing, a GraphError too).
struct GraphFileMissing : GraphError {
    using GraphError::GraphError;
};
Graph read_graph(const std::string& path, size_t memory_bytes = 0);
// The same from a stream: `name` starts every message.
Graph parse_graph(std::istream& in, const std::string& name, GraphFormat format, size_t memory_bytes = 0);

// The seeded generator: every ordered pair (i, j), i != j, of the same component is an arc with
// probability `density`, of a weight uniform in [min_weight, max_weight]. Components: the
// vertices split into `components` runs of consecutive numbers, no arc between two runs (so
// every pair across runs is unreachable). The same spec and seed give the same graph on every
// machine (common/random_data.hpp).
struct RandomGraphSpec {
    int n = 1000;
    double density = 0.1;
    int min_weight = 1, max_weight = 100;
    int components = 1;
};
// Throws GraphError naming the option (--n, --density, ...) that is out of range.
void check_random_spec(const RandomGraphSpec& spec, size_t memory_bytes = 0);
Graph random_graph(const RandomGraphSpec& spec, uint64_t seed);
// "random: 1000 vertices, density 0.1, weights 1..100" (and ", 3 components").
std::string describe_spec(const RandomGraphSpec& spec);

// The N x N matrix the parts start from, row-major: dist[i][j] = the smallest weight of an arc
// i -> j, FW_INF where there is none, 0 on the diagonal.
struct AdjacencyStats {
    size_t arcs = 0, parallel = 0, self_loops = 0;  // parallel: arcs that repeat a pair
};
std::vector<int> adjacency_matrix(const Graph& graph, AdjacencyStats* stats = nullptr);

// "2.0 GiB", for messages.
std::string format_bytes(double bytes);
