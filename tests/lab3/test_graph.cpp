// Lab 3's graph reader and generator, without a GPU: every mistake in a file is refused with its
// line number and the reason; the sample graphs parse; the generator is deterministic and keeps
// to its spec; the adjacency matrix keeps the smallest of parallel arcs and ignores self-loops.
#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "floyd.h"
#include "graph.hpp"

namespace {

Graph parse(const std::string& text, GraphFormat format, size_t memory = size_t(1) << 40) {
    std::istringstream in(text);
    return parse_graph(in, "g", format, memory);
}

// The message of the GraphError that parsing `text` throws ("" when it parses).
std::string error_of(const std::string& text, GraphFormat format, size_t memory = size_t(1) << 40) {
    try {
        parse(text, format, memory);
    } catch (const GraphError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("the plain format: header, arcs, comments anywhere, blank lines, CRLF", "[lab3][graph]") {
    Graph g = parse("# a comment\n\n3 2   # vertices, arcs\n0 1 5\r\n  2 0 0  # zero weight\n", GraphFormat::plain);
    CHECK(g.n == 3);
    REQUIRE(g.arcs.size() == 2);
    CHECK((g.arcs[0].from == 0 && g.arcs[0].to == 1 && g.arcs[0].weight == 5 && g.arcs[0].line == 4));
    CHECK((g.arcs[1].from == 2 && g.arcs[1].to == 0 && g.arcs[1].weight == 0 && g.arcs[1].line == 5));
}

TEST_CASE("DIMACS .gr: 1-based vertices, comment lines between arcs", "[lab3][graph]") {
    Graph g = parse("c hello\np sp 4 3\na 1 2 7\nc in between\na 4 3 1\n\na 2 2 9\n", GraphFormat::dimacs);
    CHECK(g.n == 4);
    REQUIRE(g.arcs.size() == 3);
    CHECK((g.arcs[0].from == 0 && g.arcs[0].to == 1 && g.arcs[0].weight == 7));
    CHECK((g.arcs[1].from == 3 && g.arcs[1].to == 2 && g.arcs[1].line == 5));
    CHECK((g.arcs[2].from == 1 && g.arcs[2].to == 1));
}

TEST_CASE("the format follows the file name: .gr is DIMACS, anything else plain", "[lab3][graph]") {
    CHECK(format_of("roads.gr") == GraphFormat::dimacs);
    CHECK(format_of("a/b/c.gr") == GraphFormat::dimacs);
    CHECK(format_of("tiny.txt") == GraphFormat::plain);
    CHECK(format_of("graph") == GraphFormat::plain);
    CHECK(format_of("x.grr") == GraphFormat::plain);
}

TEST_CASE("every mistake in a plain file names its line and the reason", "[lab3][graph]") {
    const GraphFormat plain = GraphFormat::plain;
    // (text, the line it must name, words the reason must hold)
    struct Bad {
        std::string text, where, reason;
    };
    const std::vector<Bad> bad = {
        {"", "g:1: ", "no header"},
        {"# only comments\n\n", "g:2: ", "no header"},
        {"0 1 5\n", "g:1: ", "an arc before the header"},
        {"3\n", "g:1: ", "this line has 1 fields"},
        {"3 1\n0 1\n", "g:2: ", "looks like a second header"},
        {"3 1\n0 1 2 3\n", "g:2: ", "this line has 4 fields"},
        {"3 1\n0 3 2\n", "g:2: ", "vertex 3 is out of range: the graph has 3 vertices, numbered 0 to 2"},
        {"3 1\n-1 2 2\n", "g:2: ", "vertex -1 is out of range"},
        {"3 1\n0 1 -4\n", "g:2: ", "negative weight -4"},
        {"3 1\n0 1 2.5\n", "g:2: ", "weight '2.5' is not a whole number"},
        {"3 1\n0 1 1e3\n", "g:2: ", "weight '1e3' is not a whole number"},
        {"3 1\n0 1 abc\n", "g:2: ", "weight 'abc' is not a number"},
        {"3 1\nx 1 2\n", "g:2: ", "vertex 'x' is not a number"},
        {"3 1\n0 1 1073741823\n", "g:2: ", "weight 1073741823 is too large: weights must be below FW_INF"},
        {"3 1\n0 1 99999999999999999999\n", "g:2: ", "is too large"},
        {"3 2\n0 1 2\n", "g:2: ", "end of file after 1 arcs, but the header (line 1) announces 2"},
        {"3 1\n0 1 2\n1 2 3\n", "g:3: ", "arc 2, but the header (line 1) announces 1 arcs"},
        {"0 0\n", "g:1: ", "at least 1 vertex"},
        {"3 x\n", "g:1: ", "the number of arcs 'x' is not a number"},
        {"p sp 3 1\n", "g:1: ", "looks like a DIMACS line"},
        {"46341 0\n", "g:1: ", "this lab takes at most 46340 vertices"},
        // (N - 1) x the largest weight must stay below FW_INF: named at the heaviest arc.
        {"# x\n3 2\n0 1 5\n1 2 600000000\n", "g:4: ", "could be as long as 1200000000, which reaches FW_INF"},
    };
    for (const Bad& b : bad) {
        INFO("file:\n" << b.text);
        std::string message = error_of(b.text, plain);
        CHECK_THAT(message, LAB_CONTAINS(b.where));
        CHECK_THAT(message, LAB_CONTAINS(b.reason));
    }
}

TEST_CASE("every mistake in a DIMACS file names its line and the reason", "[lab3][graph]") {
    const GraphFormat dimacs = GraphFormat::dimacs;
    struct Bad {
        std::string text, where, reason;
    };
    const std::vector<Bad> bad = {
        {"c nothing\n", "g:1: ", "a DIMACS file needs a 'p sp N M' line"},
        {"c x\na 1 2 3\np sp 3 1\n", "g:2: ", "an arc before the 'p sp N M' header"},
        {"p sp 3 1\np sp 3 1\na 1 2 3\n", "g:2: ", "a second 'p' header (the first is on line 1)"},
        {"p max 3 1\n", "g:1: ", "the header must be 'p sp N M'"},
        {"p sp 3\n", "g:1: ", "the header must be 'p sp N M'"},
        {"p sp 3 1\na 0 2 3\n", "g:2: ", "vertex 0 is out of range: the graph has 3 vertices, numbered 1 to 3"},
        {"p sp 3 1\na 1 4 3\n", "g:2: ", "vertex 4 is out of range"},
        {"p sp 3 1\na 1 2 -3\n", "g:2: ", "negative weight -3"},
        {"p sp 3 1\na 1 2 3.0\n", "g:2: ", "not a whole number"},
        {"p sp 3 1\na 1 2\n", "g:2: ", "this line has 2 numbers after the 'a'"},
        {"p sp 3 1\nx 1 2 3\n", "g:2: ", "starts with 'c' (comment), 'p' (header) or 'a' (arc), not 'x'"},
        {"p sp 3 2\nc\na 1 2 3\nc end\n", "g:4: ", "end of file after 1 arcs, but the header (line 1) announces 2"},
        {"p sp 3 1\na 1 2 3\na 2 3 4\n", "g:3: ", "arc 2, but the header (line 1) announces 1 arcs"},
        {"c the New York road network\np sp 264346 733846\n", "g:2: ", "this lab takes at most 46340 vertices"},
    };
    for (const Bad& b : bad) {
        INFO("file:\n" << b.text);
        std::string message = error_of(b.text, dimacs);
        CHECK_THAT(message, LAB_CONTAINS(b.where));
        CHECK_THAT(message, LAB_CONTAINS(b.reason));
    }
}

TEST_CASE("a graph too large for the machine's memory is refused at its header", "[lab3][graph]") {
    // 10000 vertices need 10^8 x host_bytes_per_entry bytes; give the reader 1 GiB.
    std::string message = error_of("c\np sp 10000 0\n", GraphFormat::dimacs, size_t(1) << 30);
    CHECK_THAT(message, LAB_CONTAINS("g:2: 10000 vertices: the lab's host side needs about"));
    CHECK_THAT(message, LAB_CONTAINS("this machine has 1.0 GiB of memory"));
    CHECK(error_of("c\np sp 10000 0\n", GraphFormat::dimacs, size_t(1) << 40).empty());
}

TEST_CASE("a missing file is its own error", "[lab3][graph]") {
    CHECK_THROWS_AS(read_graph("/no/such/graph.gr"), GraphFileMissing);
    CHECK_THROWS_WITH(read_graph("/no/such/graph.gr"), LAB_CONTAINS("/no/such/graph.gr: cannot open"));
}

TEST_CASE("the sample graphs of the lab parse, with what their comments say", "[lab3][graph]") {
    Graph tiny = read_graph("labs/lab3/graphs/tiny.txt");
    CHECK(tiny.n == 6);
    CHECK(tiny.arcs.size() == 9);
    AdjacencyStats stats;
    adjacency_matrix(tiny, &stats);
    CHECK(stats.parallel == 1);
    CHECK(stats.self_loops == 1);
    Graph islands = read_graph("labs/lab3/graphs/islands.gr");
    CHECK(islands.n == 53);
    for (const Arc& a : islands.arcs) {  // no arc between the islands 0-19, 20-36, 37-52
        auto island = [](int v) { return v < 20 ? 0 : v < 37 ? 1 : 2; };
        CHECK(island(a.from) == island(a.to));
    }
    CHECK(read_graph("labs/lab3/graphs/grid-20x20.gr").n == 400);
    Graph loops = read_graph("labs/lab3/graphs/selfloops.gr");
    adjacency_matrix(loops, &stats);
    CHECK(stats.self_loops > 0);
    CHECK(stats.parallel > 0);
    CHECK(std::any_of(loops.arcs.begin(), loops.arcs.end(), [](const Arc& a) { return a.weight == 0 && a.from != a.to; }));
}

TEST_CASE("the adjacency matrix: FW_INF where no arc, 0 on the diagonal, parallel arcs keep the smallest", "[lab3][graph]") {
    Graph g = parse("3 5\n0 1 9\n0 1 4\n0 1 6\n1 1 3\n2 0 0\n", GraphFormat::plain);
    AdjacencyStats stats;
    std::vector<int> d = adjacency_matrix(g, &stats);
    CHECK(d == std::vector<int>{0, 4, FW_INF, FW_INF, 0, FW_INF, 0, FW_INF, 0});
    CHECK(stats.arcs == 5);
    CHECK(stats.parallel == 2);
    CHECK(stats.self_loops == 1);
}

TEST_CASE("the generator is deterministic and depends on --seed", "[lab3][graph]") {
    RandomGraphSpec spec;
    spec.n = 97;
    spec.density = 0.2;
    spec.min_weight = 3;
    spec.max_weight = 17;
    Graph a = random_graph(spec, 42), b = random_graph(spec, 42), c = random_graph(spec, 43);
    CHECK(adjacency_matrix(a) == adjacency_matrix(b));
    CHECK(adjacency_matrix(a) != adjacency_matrix(c));
    // Pinned: the same graph on every machine and compiler (a failing case must replay anywhere).
    REQUIRE(a.arcs.size() > 3);
    CHECK(a.arcs.size() == 1777);
    CHECK((a.arcs[0].from == 0 && a.arcs[0].to == 2 && a.arcs[0].weight == 6));
}

TEST_CASE("the generator keeps to its spec: density, weights, no self-loop, no parallel arc", "[lab3][graph]") {
    RandomGraphSpec spec;
    spec.n = 300;
    spec.density = 0.1;
    spec.min_weight = 0;
    spec.max_weight = 5;
    Graph g = random_graph(spec, 7);
    const double pairs = 300.0 * 299.0, expected = 0.1 * pairs;
    CHECK(std::abs(double(g.arcs.size()) - expected) < 5 * std::sqrt(expected));  // five standard deviations
    std::set<std::pair<int, int>> seen;
    std::set<int> weights;
    for (const Arc& a : g.arcs) {
        CHECK(a.from != a.to);
        CHECK(seen.insert({a.from, a.to}).second);
        CHECK((a.weight >= 0 && a.weight <= 5));
        weights.insert(a.weight);
    }
    CHECK(weights.size() == 6);  // every weight of the range occurs
    spec.density = 0;
    CHECK(random_graph(spec, 7).arcs.empty());
    spec.density = 1;
    spec.n = 20;
    CHECK(random_graph(spec, 7).arcs.size() == 20u * 19u);
}

TEST_CASE("components: no arc between two runs of vertices", "[lab3][graph]") {
    RandomGraphSpec spec;
    spec.n = 131;
    spec.density = 1;
    spec.components = 3;
    Graph g = random_graph(spec, 1);
    auto component = [](int v) { return v * 3 / 131; };
    for (const Arc& a : g.arcs) CHECK(component(a.from) == component(a.to));
    // With density 1 every pair inside a component is an arc: 44, 44 and 43 vertices.
    CHECK(g.arcs.size() == size_t(44 * 43 + 44 * 43 + 43 * 42));
}

TEST_CASE("a generator spec out of range is refused, naming the option", "[lab3][graph]") {
    auto problem = [](RandomGraphSpec s) {
        try {
            check_random_spec(s, size_t(1) << 40);
        } catch (const GraphError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    RandomGraphSpec ok;
    CHECK(problem(ok).empty());
    RandomGraphSpec s = ok;
    s.n = 0;
    CHECK_THAT(problem(s), LAB_CONTAINS("--n: a graph needs at least 1 vertex"));
    s = ok, s.density = 1.5;
    CHECK_THAT(problem(s), LAB_CONTAINS("--density"));
    s = ok, s.min_weight = -1;
    CHECK_THAT(problem(s), LAB_CONTAINS("--min-weight must be >= 0"));
    s = ok, s.min_weight = 10, s.max_weight = 5;
    CHECK_THAT(problem(s), LAB_CONTAINS("--max-weight (5) is below --min-weight (10)"));
    s = ok, s.n = 1000, s.max_weight = 2000000;  // 999 x 2e6 reaches FW_INF
    CHECK_THAT(problem(s), LAB_CONTAINS("--max-weight: with 1000 vertices"));
    s = ok, s.components = 1001;
    CHECK_THAT(problem(s), LAB_CONTAINS("--components must be between 1 and the number of vertices (1000)"));
}
