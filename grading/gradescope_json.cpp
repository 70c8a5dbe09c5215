// results.json in Gradescope's autograder schema: a total score and one test per item, each
// with name, score, max_score, status (passed or failed), output and visibility. Items of
// hidden cases are "hidden"; everything else is "visible".
#include <sstream>

#include "json_text.hpp"
#include "reports.hpp"

namespace {

std::string test_name(const LabScore& lab, const ScoreItem& i) {
    if (i.kind == "correctness") return lab.lab + " " + i.part + ": case " + i.case_name;
    if (i.kind == "performance") return lab.lab + " " + i.part + ": performance on case " + i.case_name;
    if (i.kind == "below-bound") return lab.lab + " " + i.part + ": a time below the physical bound on case " + i.case_name;
    if (i.kind == "sanitizer") return lab.lab + " " + i.tool + " on case " + i.case_name;
    if (i.kind == "forbidden") return lab.lab + " forbidden API" + (i.part == "*" ? "" : " in " + i.part);
    return lab.lab + " " + i.kind;
}

}  // namespace

std::string gradescope_json(const StudentReport& report) {
    std::ostringstream json;
    std::string overview;
    for (const LabScore& lab : report.labs)
        overview += lab.lab + ": " + json_number(lab.points) + " / " + json_number(lab.max) +
                    (lab.note.empty() ? "" : " (" + lab.note + ")") + "\n";
    json << "{\n  \"score\": " << json_number(report.total()) << ",\n  \"output\": " << json_string(overview)
         << ",\n  \"tests\": [";
    bool first = true;
    for (const LabScore& lab : report.labs) {
        for (const ScoreItem& i : lab.items) {
            std::string output = i.hidden ? hidden_outcome(i) : i.message;
            if (!i.hidden && !i.detail.empty()) output += "\n\n" + i.detail;
            json << (first ? "\n" : ",\n") << "    {\"name\": " << json_string(test_name(lab, i))
                 << ", \"score\": " << json_number(i.points) << ", \"max_score\": " << json_number(i.max)
                 << ", \"status\": \"" << (i.passed ? "passed" : "failed") << "\", \"output\": " << json_string(output)
                 << ", \"visibility\": \"" << (i.hidden ? "hidden" : "visible") << "\"}";
            first = false;
        }
        if (lab.state == "not-graded") {
            json << (first ? "\n" : ",\n") << "    {\"name\": " << json_string(lab.lab + " not graded")
                 << ", \"score\": 0, \"max_score\": " << json_number(lab.max) << ", \"status\": \"failed\", \"output\": "
                 << json_string(lab.note) << ", \"visibility\": \"visible\"}";
            first = false;
        }
    }
    json << "\n  ]\n}\n";
    return json.str();
}
