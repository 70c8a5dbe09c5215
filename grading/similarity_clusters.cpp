// The class report's similarity clusters, from the pairs `grader similarity` wrote to
// similarity.csv: submissions joined by a pair over the threshold, transitively (A like B and B
// like C makes one group of three, as a ring of copies is).
#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <sstream>

#include "class_report.hpp"
#include "result_files.hpp"

namespace {

// The fields of one line of an RFC 4180 file (no line break inside a field: similarity.csv
// quotes none, its names being plain).
std::vector<std::string> csv_fields(const std::string& line) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
        char c = line[i];
        if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
            fields.back() += '"';
            ++i;
        } else if (c == '"') {
            quoted = !quoted;
        } else if (c == ',' && !quoted) {
            fields.emplace_back();
        } else {
            fields.back() += c;
        }
    }
    return fields;
}

// A name as the gradebook's spreadsheet_text wrote it: a leading ' undone.
std::string student_name(const std::string& cell) { return !cell.empty() && cell[0] == '\'' ? cell.substr(1) : cell; }

}  // namespace

std::vector<SimilarityRow> parse_similarity_csv(const std::string& text) {
    std::vector<SimilarityRow> rows;
    std::istringstream in(text);
    std::string line;
    if (!std::getline(in, line) || line.rfind("lab,student_a,student_b,shared", 0) != 0)
        throw FormatError("similarity.csv: the header is not lab,student_a,student_b,shared,...");
    for (int number = 2; std::getline(in, line); ++number) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        std::vector<std::string> f = csv_fields(line);
        char* end = nullptr;
        double shared = f.size() >= 4 ? std::strtod(f[3].c_str(), &end) : 0;
        if (f.size() < 4 || end == f[3].c_str() || *end != '\0')
            throw FormatError("similarity.csv: line " + std::to_string(number) + " is not lab,student_a,student_b,shared,...");
        rows.push_back({f[0], student_name(f[1]), student_name(f[2]), shared});
    }
    return rows;
}

std::vector<SimilarityCluster> similarity_clusters(const std::vector<SimilarityRow>& rows, const std::string& lab,
                                                   double threshold) {
    std::map<std::string, size_t> id;
    std::vector<std::string> names;
    std::vector<const SimilarityRow*> linked;
    for (const SimilarityRow& r : rows) {
        if (r.lab != lab || r.shared < threshold) continue;
        linked.push_back(&r);
        for (const std::string& name : {r.a, r.b})
            if (id.emplace(name, names.size()).second) names.push_back(name);
    }
    std::vector<size_t> parent(names.size());
    std::iota(parent.begin(), parent.end(), 0);
    auto root = [&](size_t x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    };
    for (const SimilarityRow* r : linked) parent[root(id[r->a])] = root(id[r->b]);
    std::map<size_t, SimilarityCluster> by_root;
    for (size_t i = 0; i < names.size(); ++i) by_root[root(i)].students.push_back(names[i]);
    for (const SimilarityRow* r : linked) {
        SimilarityCluster& c = by_root[root(id[r->a])];
        ++c.pairs;
        c.highest = std::max(c.highest, r->shared);
    }
    std::vector<SimilarityCluster> clusters;
    for (auto& [r, c] : by_root) {
        std::sort(c.students.begin(), c.students.end());
        clusters.push_back(c);
    }
    std::sort(clusters.begin(), clusters.end(), [](const SimilarityCluster& a, const SimilarityCluster& b) {
        if (a.students.size() != b.students.size()) return a.students.size() > b.students.size();
        if (a.highest != b.highest) return a.highest > b.highest;
        return a.students < b.students;
    });
    return clusters;
}
