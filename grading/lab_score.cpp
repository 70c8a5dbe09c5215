#include "lab_score.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "atomic_file.hpp"
#include "json_text.hpp"
#include "result_files.hpp"

namespace {

std::string get(const Record& r, const std::string& key) {
    auto it = r.find(key);
    return it == r.end() ? "" : it->second;
}

double number(const Record& r, const std::string& key) { return std::atof(get(r, key).c_str()); }

}  // namespace

double total_points(const std::vector<ScoreItem>& items) {
    double sum = 0;
    for (const ScoreItem& item : items) sum += item.points;
    return std::max(0.0, sum);
}

void write_lab_score(const std::string& path, const LabScore& s) {
    std::string text = record_line({{"record", "lab"}, {"lab", s.lab}, {"title", s.title}, {"state", s.state},
                                    {"note", s.note}, {"points", json_number(s.points)}, {"max", json_number(s.max)}});
    for (const ScoreItem& i : s.items)
        text += record_line({{"record", "item"}, {"kind", i.kind}, {"part", i.part}, {"case", i.case_name},
                             {"tool", i.tool}, {"points", json_number(i.points)}, {"max", json_number(i.max)},
                             {"passed", i.passed ? "1" : "0"}, {"hidden", i.hidden ? "1" : "0"}, {"message", i.message},
                             {"detail", i.detail}, {"student_ms", json_number(i.student_ms)},
                             {"reference_ms", json_number(i.reference_ms)}, {"ratio", json_number(i.ratio)}});
    write_file_atomically(path, text);
}

LabScore read_lab_score(const std::string& path) {
    LabScore s;
    bool seen_lab = false;
    for (const Record& r : read_results(path)) {
        if (get(r, "record") == "lab") {
            seen_lab = true;
            s.lab = get(r, "lab");
            s.title = get(r, "title");
            s.state = get(r, "state");
            s.note = get(r, "note");
            s.points = number(r, "points");
            s.max = number(r, "max");
        } else if (get(r, "record") == "item") {
            ScoreItem i;
            i.kind = get(r, "kind");
            i.part = get(r, "part");
            i.case_name = get(r, "case");
            i.tool = get(r, "tool");
            i.points = number(r, "points");
            i.max = number(r, "max");
            i.passed = get(r, "passed") == "1";
            i.hidden = get(r, "hidden") == "1";
            i.message = get(r, "message");
            i.detail = get(r, "detail");
            i.student_ms = number(r, "student_ms");
            i.reference_ms = number(r, "reference_ms");
            i.ratio = number(r, "ratio");
            s.items.push_back(i);
        }
    }
    if (!seen_lab) throw FormatError(path + ": no lab record");
    return s;
}
