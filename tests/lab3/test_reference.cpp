// Lab 3's CPU reference, without a GPU: the triple loop on graphs checked by hand (unreachable
// pairs, zero weights, self-loops, parallel arcs), against Dijkstra on random graphs, the INF
// arithmetic that must never overflow, the diameter; and the lab as the driver core sees it.
#include <algorithm>
#include <climits>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "floyd.h"
#include "graph.hpp"
#include "lab3.hpp"
#include "reference.hpp"

namespace {

constexpr int X = FW_INF;

std::vector<int> shortest_paths(const std::string& plain_graph) {
    std::istringstream in(plain_graph);
    Graph g = parse_graph(in, "test", GraphFormat::plain, size_t(1) << 40);
    std::vector<int> d = adjacency_matrix(g);
    floyd_warshall_cpu(d.data(), g.n);
    return d;
}

std::vector<int> all_rows(int n) {
    std::vector<int> rows(n);
    for (int i = 0; i < n; ++i) rows[i] = i;
    return rows;
}

}  // namespace

TEST_CASE("FW_INF + FW_INF fits in an int, and the relaxation keeps unreachable exactly FW_INF", "[lab3][reference]") {
    CHECK(FW_INF == (1 << 30) - 1);
    CHECK((long long)FW_INF + FW_INF <= INT_MAX);
    // The largest sum a relaxation can make, in the lab's int arithmetic.
    const int sum = FW_INF + FW_INF;
    CHECK(sum > 0);
    CHECK(std::min(FW_INF, sum) == FW_INF);
    // The longest real path the reader and the generator allow stays below FW_INF, and two of
    // them added still fit.
    const long long longest = (long long)(max_vertices - 1) * ((FW_INF - 1) / (max_vertices - 1));
    CHECK(longest < FW_INF);
    CHECK(max_vertices * max_vertices < (long long)INT_MAX);  // int indices i * n + j
    CHECK((long long)(max_vertices + 1) * (max_vertices + 1) > (long long)INT_MAX);
}

TEST_CASE("the triple loop on the documented tiny graph gives the matrix its comments give", "[lab3][reference]") {
    // labs/lab3/graphs/tiny.txt writes out its shortest paths under "# The shortest paths": the
    // students' first check, so the comment itself must be right.
    Graph g = read_graph("labs/lab3/graphs/tiny.txt");
    std::vector<int> d = adjacency_matrix(g);
    floyd_warshall_cpu(d.data(), g.n);
    std::ifstream file("labs/lab3/graphs/tiny.txt");
    std::vector<int> documented;
    bool in_table = false;
    for (std::string line; std::getline(file, line);) {
        if (line.find("The shortest paths") != std::string::npos) {
            in_table = true;
            std::getline(file, line);  // the column numbers
            continue;
        }
        if (!in_table || line.find("diameter") != std::string::npos) continue;
        std::istringstream words(line.substr(1));
        std::string word;
        words >> word;  // the row number
        while (words >> word) documented.push_back(word == "INF" ? FW_INF : std::stoi(word));
    }
    CHECK(documented == d);
    CHECK(diameter_cpu(d.data(), d.size()) == 8);  // "The diameter ...: 8"
}

TEST_CASE("hand-checked graphs: a shortcut, unreachable pairs, zero weights, self-loops, parallel arcs", "[lab3][reference]") {
    // 0 -> 1 -> 2 is shorter than 0 -> 2; nothing reaches 0 back.
    CHECK(shortest_paths("3 3\n0 1 1\n1 2 2\n0 2 10\n") == std::vector<int>{0, 1, 3, X, 0, 2, X, X, 0});
    // A zero-weight cycle: every pair of the cycle at distance 0, vertex 3 beyond it at 5.
    CHECK(shortest_paths("4 4\n0 1 0\n1 2 0\n2 0 0\n2 3 5\n") ==
          std::vector<int>{0, 0, 0, 5, 0, 0, 0, 5, 0, 0, 0, 5, X, X, X, 0});
    // A self-loop changes nothing; of two parallel arcs the smaller counts, in either order.
    CHECK(shortest_paths("2 4\n0 0 7\n0 1 9\n0 1 2\n1 1 0\n") == std::vector<int>{0, 2, X, 0});
    // No arc at all: everything unreachable but the diagonal.
    CHECK(shortest_paths("3 0\n") == std::vector<int>{0, X, X, X, 0, X, X, X, 0});
    // One vertex.
    CHECK(shortest_paths("1 1\n0 0 5\n") == std::vector<int>{0});
    // Two disconnected pairs, the heaviest weights the path bound allows for 4 vertices.
    const int w = (FW_INF - 1) / 3;
    std::string heavy = "4 2\n0 1 " + std::to_string(w) + "\n2 3 " + std::to_string(w) + "\n";
    CHECK(shortest_paths(heavy) == std::vector<int>{0, w, X, X, X, 0, X, X, X, X, 0, w, X, X, X, 0});
}

TEST_CASE("the triple loop agrees with Dijkstra on random graphs, connected or not", "[lab3][reference]") {
    // 500 vertices: each step's rows are shared among the CPUs (parallel_ranges.hpp).
    for (int n : {1, 2, 3, 17, 37, 64, 65, 100, 500}) {
        for (int components : {1, 3}) {
            if (components > n) continue;
            for (double density : {0.02, 0.1, 0.5}) {
                RandomGraphSpec spec;
                spec.n = n;
                spec.density = density;
                spec.min_weight = 0;
                spec.max_weight = 20;
                spec.components = components;
                INFO("n " << n << ", density " << density << ", components " << components);
                std::vector<int> adjacency = adjacency_matrix(random_graph(spec, uint64_t(n * 10 + components)));
                std::vector<int> d = adjacency;
                floyd_warshall_cpu(d.data(), n);
                std::vector<int> rows = shortest_path_rows(adjacency, n, all_rows(n));
                size_t differ = 0;
                for (size_t i = 0; i < d.size(); ++i) differ += d[i] != rows[i];
                CHECK(differ == 0);
            }
        }
    }
}

TEST_CASE("Dijkstra's rows come in the order asked, and a sample is the same rows", "[lab3][reference]") {
    RandomGraphSpec spec;
    spec.n = 50;
    spec.density = 0.1;
    std::vector<int> adjacency = adjacency_matrix(random_graph(spec, 5));
    std::vector<int> all = shortest_path_rows(adjacency, 50, all_rows(50));
    std::vector<int> two = shortest_path_rows(adjacency, 50, {49, 7});
    REQUIRE(two.size() == 100);
    CHECK(std::vector<int>(two.begin(), two.begin() + 50) == std::vector<int>(all.begin() + 49 * 50, all.end()));
    CHECK(std::vector<int>(two.begin() + 50, two.end()) == std::vector<int>(all.begin() + 7 * 50, all.begin() + 8 * 50));
}

TEST_CASE("the reference catches a k loop that stops one short", "[lab3][reference]") {
    // The comparisons above could not fail if the graphs were too easy: on a random graph (the
    // primes case of the manifest), a Floyd-Warshall without its last k gives other distances.
    // (On the 20 x 20 grid it does not: its last vertex, a corner, is on no shortest path.)
    RandomGraphSpec spec;
    spec.n = 37;
    spec.density = 0.15;
    const int n = spec.n;
    std::vector<int> full = adjacency_matrix(random_graph(spec, 303)), short_k = full;
    floyd_warshall_cpu(full.data(), n);
    for (int k = 0; k < n - 1; ++k)
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j)
                short_k[i * n + j] = std::min(short_k[i * n + j], short_k[i * n + k] + short_k[k * n + j]);
    size_t differ = 0;
    for (size_t i = 0; i < full.size(); ++i) differ += full[i] != short_k[i];
    CHECK(differ > 0);
}

TEST_CASE("the diameter: the largest entry below FW_INF, 0 when nothing is reachable", "[lab3][reference]") {
    std::vector<int> d = {0, 5, X, 7, 0, X, X, X, 0};
    CHECK(diameter_cpu(d.data(), d.size()) == 7);
    std::vector<int> none = {0, X, X, 0};
    CHECK(diameter_cpu(none.data(), none.size()) == 0);
    std::vector<int> near = {0, FW_INF - 1, X, 0};
    CHECK(diameter_cpu(near.data(), near.size()) == FW_INF - 1);
    CHECK(diameter_cpu(d.data(), 0) == 0);
}

TEST_CASE("the lab declares its parts in the manifest's order, relaxations/s and GB/s, four yardsticks", "[lab3]") {
    LabInfo lab = lab3();
    CHECK(lab.name == "lab3");
    CHECK(lab.parts == std::vector<std::string>{"fw_1d", "fw_2d", "fw_blocked", "diameter"});
    REQUIRE(lab.metrics.size() == 2);
    CHECK(lab.metrics[0].csv_name == "grelax");
    CHECK(lab.metrics[1].csv_name == "gbps");
    REQUIRE(lab.yardsticks.size() == 4);
    CHECK(lab.yardsticks[0].name == "cpu");
    CHECK(lab.yardsticks[1].name == "trusted_2d");
    CHECK(lab.yardsticks[2].name == "minplus_limit");  // the ceiling of fw_blocked's rate
    CHECK(lab.yardsticks[3].name == "cpu_diameter");
    CHECK(lab.host_parts.empty());  // every part is a kernel: no GPU, no run
}

TEST_CASE("the diameter's partial buffer has one int per block at every --block the driver accepts", "[lab3]") {
    // The driver refuses every --block for which lab3_block_accepted is false (lab3.cu), so
    // trying every value up to well past the largest accepted one covers them all.
    std::vector<int> accepted;
    for (long long block = -1; block <= 4096; ++block)
        if (lab3_block_accepted(block)) accepted.push_back(int(block));
    REQUIRE(!accepted.empty());
    CHECK(accepted.front() == 1);  // blocks of one thread: one partial maximum per element
    for (int block : accepted)
        for (int n : {1, 2, 3, 7, 37, 63, 64, 65, 70, 193, 1000, 2049, 46340}) {
            // A diameter written as the handout says (section 3.6, floyd.cu TODO 4): block x block
            // threads a block, one element a thread, so ceil(n * n / threads) blocks, each
            // writing partial[blockIdx.x].
            const size_t threads = size_t(block) * size_t(block);
            const size_t blocks = (size_t(n) * size_t(n) + threads - 1) / threads;
            INFO("n " << n << ", --block " << block);
            CHECK(diameter_partial_capacity(n, block) >= blocks);
        }
}
