#include "graph.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "host_info.hpp"
#include "random_data.hpp"

namespace {

std::string fixed(double x, int decimals) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, x);
    return text;
}

// Where a message points: "FILE:LINE: ".
std::string at(const std::string& name, int line) { return name + ":" + std::to_string(line) + ": "; }

size_t memory_or_physical(size_t memory_bytes) { return memory_bytes ? memory_bytes : physical_memory_bytes(); }

// "" when a graph of n vertices fits the lab and the memory; otherwise why not.
std::string size_problem(long long n, size_t memory_bytes) {
    if (n < 1) return "a graph needs at least 1 vertex, got " + std::to_string(n);
    const double entries = double(n) * double(n);
    if (n > max_vertices)
        return std::to_string(n) + " vertices: the distance matrix would hold N^2 = " + fixed(entries, 0) +
               " ints (" + format_bytes(entries * 4) + "); this lab takes at most " + std::to_string(max_vertices) +
               " vertices (N^2 < 2^31, so kernels index it with int)";
    const double need = entries * double(host_bytes_per_entry);
    if (memory_bytes && need > double(memory_bytes))
        return std::to_string(n) + " vertices: the lab's host side needs about " + format_bytes(need) + " (" +
               std::to_string(host_bytes_per_entry) +
               " bytes per pair of vertices: the matrix, its reference and the copies the checks compare), and this "
               "machine has " +
               format_bytes(double(memory_bytes)) + " of memory";
    return "";
}

// The longest a shortest path can be, (n - 1) x the largest weight, must stay below FW_INF.
std::string path_bound_problem(int n, long long max_weight) {
    const long long longest = (long long)(n - 1) * max_weight;
    if (longest < FW_INF) return "";
    return "with " + std::to_string(n) + " vertices and a largest weight of " + std::to_string(max_weight) +
           ", a shortest path (up to N - 1 = " + std::to_string(n - 1) + " arcs) could be as long as " +
           std::to_string(longest) + ", which reaches FW_INF = " + std::to_string(FW_INF) +
           " (the lab's 'unreachable'): use smaller weights or fewer vertices";
}

enum class Field { vertex, weight, count };

// A whole number in [min, max]; otherwise GraphError naming `what` and why.
long long parse_number(const std::string& token, const std::string& where, const std::string& what, Field field,
                       long long min, long long max) {
    size_t start = (token[0] == '+' || token[0] == '-') ? 1 : 0;
    bool digits = token.size() > start;
    for (size_t i = start; i < token.size(); ++i) digits = digits && token[i] >= '0' && token[i] <= '9';
    if (!digits) {
        // A number that is not whole (2.5, 1e3) or not a number at all.
        bool numeric = token.find_first_of("0123456789") != std::string::npos &&
                       token.find_first_not_of("+-0123456789.eE") == std::string::npos;
        throw GraphError(where + what + " '" + token + "' is " +
                         (numeric ? "not a whole number" : "not a number") +
                         (field == Field::weight ? ": weights are whole numbers from 0 to " + std::to_string(FW_INF - 1)
                                                 : ""));
    }
    if (token[0] == '-' && field == Field::weight)
        throw GraphError(where + "negative weight " + token +
                         ": this lab's shortest paths take weights >= 0 (a negative cycle would have no shortest "
                         "path, and dist[i][i] = 0 assumes none)");
    if (token.size() - start > 12) {
        if (field == Field::weight)
            throw GraphError(where + "weight " + token + " is too large: weights must be below FW_INF = " +
                             std::to_string(FW_INF) + " (the lab's 'unreachable')");
        throw GraphError(where + what + " " + token + " is too large");
    }
    long long value = std::stoll(token);
    if (field == Field::weight && value >= FW_INF)
        throw GraphError(where + "weight " + token + " is too large: weights must be below FW_INF = " +
                         std::to_string(FW_INF) + " (the lab's 'unreachable')");
    if (value < min || value > max) {
        if (field == Field::vertex)
            throw GraphError(where + what + " " + token + " is out of range: the graph has " +
                             std::to_string(max - min + 1) + " vertices, numbered " + std::to_string(min) + " to " +
                             std::to_string(max));
        throw GraphError(where + what + " must be between " + std::to_string(min) + " and " + std::to_string(max) +
                         ", got " + token);
    }
    return value;
}

std::vector<std::string> words_of(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> words;
    for (std::string w; in >> w;) words.push_back(w);
    return words;
}

class Parser {
public:
    Parser(const std::string& name, GraphFormat format, size_t memory_bytes)
        : name_(name), format_(format), memory_(memory_or_physical(memory_bytes)) {
        graph_.origin = name + " (" + format_name(format) + ")";
    }

    void line(std::string text, int number) {
        last_line_ = number;
        if (!text.empty() && text.back() == '\r') text.pop_back();  // a file written on Windows
        const std::string where = at(name_, number);
        if (format_ == GraphFormat::plain) {
            if (size_t hash = text.find('#'); hash != std::string::npos) text.resize(hash);
            std::vector<std::string> w = words_of(text);
            if (w.empty()) return;
            if (header_line_ == 0) {
                if (w[0] == "p" || w[0] == "c" || w[0] == "a")
                    throw GraphError(where + "this looks like a DIMACS line ('" + w[0] +
                                     " ...'): a DIMACS graph's file name must end in .gr; the plain format starts "
                                     "with the header 'N M'");
                if (w.size() == 3)
                    throw GraphError(where + "an arc before the header: the first line (after comments) must be 'N M', "
                                             "the numbers of vertices and arcs");
                if (w.size() != 2)
                    throw GraphError(where + "the header is 'N M' (vertices, arcs: two whole numbers), this line has " +
                                     std::to_string(w.size()) + " fields");
                header(w[0], w[1], number);
                return;
            }
            if (w.size() == 2)
                throw GraphError(where + "two numbers after the header (line " + std::to_string(header_line_) +
                                 "), which looks like a second header: an arc is 'u v w', three whole numbers");
            if (w.size() != 3)
                throw GraphError(where + "an arc is 'u v w' (three whole numbers: from, to, weight), this line has " +
                                 std::to_string(w.size()) + " fields");
            arc(w[0], w[1], w[2], number, 0);
            return;
        }
        std::vector<std::string> w = words_of(text);
        if (w.empty() || w[0] == "c") return;
        if (w[0] == "p") {
            if (header_line_ != 0)
                throw GraphError(where + "a second 'p' header (the first is on line " + std::to_string(header_line_) +
                                 "): a DIMACS file has one");
            if (w.size() != 4 || w[1] != "sp")
                throw GraphError(where + "the header must be 'p sp N M' (a shortest-path problem, N vertices, M arcs), "
                                         "got '" +
                                 text + "'");
            header(w[2], w[3], number);
            return;
        }
        if (w[0] == "a") {
            if (header_line_ == 0) throw GraphError(where + "an arc before the 'p sp N M' header: the header comes first");
            if (w.size() != 4)
                throw GraphError(where + "an arc is 'a u v w' (from, to, weight), this line has " +
                                 std::to_string(w.size() - 1) + " numbers after the 'a'");
            arc(w[1], w[2], w[3], number, 1);
            return;
        }
        throw GraphError(where + "a DIMACS .gr line starts with 'c' (comment), 'p' (header) or 'a' (arc), not '" + w[0] +
                         "'");
    }

    Graph finish() {
        const std::string where = at(name_, std::max(last_line_, 1));
        if (header_line_ == 0)
            throw GraphError(where + "end of file, and no header: " +
                             (format_ == GraphFormat::plain ? std::string("the plain format starts with 'N M'")
                                                            : std::string("a DIMACS file needs a 'p sp N M' line")));
        if ((long long)graph_.arcs.size() != announced_)
            throw GraphError(where + "end of file after " + std::to_string(graph_.arcs.size()) +
                             " arcs, but the header (line " + std::to_string(header_line_) + ") announces " +
                             std::to_string(announced_));
        if (!graph_.arcs.empty()) {
            const Arc& heaviest = *std::max_element(graph_.arcs.begin(), graph_.arcs.end(),
                                                    [](const Arc& a, const Arc& b) { return a.weight < b.weight; });
            std::string problem = path_bound_problem(graph_.n, heaviest.weight);
            if (!problem.empty()) throw GraphError(at(name_, heaviest.line) + problem);
        }
        return std::move(graph_);
    }

private:
    void header(const std::string& n_text, const std::string& m_text, int number) {
        const std::string where = at(name_, number);
        long long n = parse_number(n_text, where, "the number of vertices", Field::count, 0, 1ll << 40);
        std::string problem = size_problem(n, memory_);
        if (!problem.empty()) throw GraphError(where + problem);
        announced_ = parse_number(m_text, where, "the number of arcs", Field::count, 0, 1ll << 40);
        header_line_ = number;
        graph_.n = int(n);
        graph_.arcs.reserve(size_t(std::min<long long>(announced_, 1ll << 24)));
    }

    void arc(const std::string& u, const std::string& v, const std::string& w, int number, int base) {
        const std::string where = at(name_, number);
        if ((long long)graph_.arcs.size() == announced_)
            throw GraphError(where + "arc " + std::to_string(announced_ + 1) + ", but the header (line " +
                             std::to_string(header_line_) + ") announces " + std::to_string(announced_) + " arcs");
        const long long first = base, last = base + graph_.n - 1;
        int from = int(parse_number(u, where, "vertex", Field::vertex, first, last) - base);
        int to = int(parse_number(v, where, "vertex", Field::vertex, first, last) - base);
        int weight = int(parse_number(w, where, "weight", Field::weight, 0, FW_INF - 1));
        graph_.arcs.push_back({from, to, weight, number});
    }

    std::string name_;
    GraphFormat format_;
    size_t memory_;
    Graph graph_;
    int header_line_ = 0, last_line_ = 0;
    long long announced_ = 0;
};

}  // namespace

GraphFormat format_of(const std::string& path) {
    return path.size() >= 3 && path.compare(path.size() - 3, 3, ".gr") == 0 ? GraphFormat::dimacs : GraphFormat::plain;
}

const char* format_name(GraphFormat format) { return format == GraphFormat::dimacs ? "DIMACS .gr" : "plain"; }

Graph parse_graph(std::istream& in, const std::string& name, GraphFormat format, size_t memory_bytes) {
    Parser parser(name, format, memory_bytes);
    std::string text;
    for (int number = 1; std::getline(in, text); ++number) parser.line(text, number);
    return parser.finish();
}

Graph read_graph(const std::string& path, size_t memory_bytes) {
    std::ifstream in(path);
    if (!in) throw GraphFileMissing(path + ": cannot open the graph file (does it exist, and may it be read?)");
    return parse_graph(in, path, format_of(path), memory_bytes);
}

void check_random_spec(const RandomGraphSpec& s, size_t memory_bytes) {
    std::string problem = size_problem(s.n, memory_or_physical(memory_bytes));
    if (!problem.empty()) throw GraphError("--n: " + problem);
    if (!(s.density >= 0 && s.density <= 1))
        throw GraphError("--density is the probability of each arc, from 0 to 1, got " + fixed(s.density, 6));
    if (s.min_weight < 0)
        throw GraphError("--min-weight must be >= 0 (this lab's shortest paths take no negative weight), got " +
                         std::to_string(s.min_weight));
    if (s.max_weight < s.min_weight)
        throw GraphError("--max-weight (" + std::to_string(s.max_weight) + ") is below --min-weight (" +
                         std::to_string(s.min_weight) + ")");
    if (s.max_weight >= FW_INF)
        throw GraphError("--max-weight must be below FW_INF = " + std::to_string(FW_INF) + ", got " +
                         std::to_string(s.max_weight));
    problem = path_bound_problem(s.n, s.max_weight);
    if (!problem.empty()) throw GraphError("--max-weight: " + problem);
    if (s.components < 1 || s.components > s.n)
        throw GraphError("--components must be between 1 and the number of vertices (" + std::to_string(s.n) +
                         "), got " + std::to_string(s.components));
}

Graph random_graph(const RandomGraphSpec& s, uint64_t seed) {
    check_random_spec(s, ~size_t(0));  // the memory was checked by the caller, where it matters
    Graph g;
    g.n = s.n;
    g.origin = describe_spec(s) + ", seed " + std::to_string(seed);
    SeededRandom random(seed);
    // An arc when a 53-bit draw falls below density x 2^53 (density 1: always).
    const uint64_t threshold = uint64_t(s.density * 9007199254740992.0);
    const size_t expected = size_t(s.density * double(s.n) * double(s.n) / s.components) + 16;
    g.arcs.reserve(std::min<size_t>(expected, size_t(1) << 28));
    auto component = [&](int v) { return int((long long)v * s.components / s.n); };
    for (int i = 0; i < s.n; ++i) {
        // The component of i is the run [begin, end) of consecutive vertices.
        const int c = component(i);
        int begin = int(((long long)c * s.n + s.components - 1) / s.components);
        int end = int(((long long)(c + 1) * s.n + s.components - 1) / s.components);
        for (int j = begin; j < end; ++j) {
            if (j == i) continue;
            if ((random.next() >> 11) >= threshold) continue;
            int w = int(random.integer(s.min_weight, s.max_weight));
            g.arcs.push_back({i, j, w, 0});
        }
    }
    return g;
}

std::string describe_spec(const RandomGraphSpec& s) {
    char density[32];
    std::snprintf(density, sizeof density, "%g", s.density);
    std::string text = "random: " + std::to_string(s.n) + " vertices, density " + density + ", weights " +
                       std::to_string(s.min_weight) + ".." + std::to_string(s.max_weight);
    if (s.components > 1) text += ", " + std::to_string(s.components) + " components";
    return text;
}

std::vector<int> adjacency_matrix(const Graph& g, AdjacencyStats* stats) {
    const size_t n = size_t(g.n);
    std::vector<int> d(n * n, FW_INF);
    for (size_t i = 0; i < n; ++i) d[i * n + i] = 0;
    AdjacencyStats s;
    s.arcs = g.arcs.size();
    for (const Arc& a : g.arcs) {
        if (a.from == a.to) {  // dist[i][i] stays 0: no weight is negative
            ++s.self_loops;
            continue;
        }
        const size_t at = size_t(a.from) * n + size_t(a.to);
        if (d[at] != FW_INF) ++s.parallel;  // an arc is there already (every weight is below FW_INF)
        d[at] = std::min(d[at], a.weight);
    }
    if (stats) *stats = s;
    return d;
}

std::string format_bytes(double bytes) {
    if (bytes >= 1073741824.0) return fixed(bytes / 1073741824.0, 1) + " GiB";
    if (bytes >= 1048576.0) return fixed(bytes / 1048576.0, 1) + " MiB";
    return fixed(bytes / 1024.0, 1) + " KiB";
}
