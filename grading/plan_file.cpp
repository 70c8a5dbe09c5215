#include "plan_file.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "atomic_file.hpp"
#include "result_files.hpp"
#include "table.hpp"

void write_plan_file(const std::string& path, const PlanFile& plan) {
    Record record = {{"lab", plan.lab},
                     {"manifests", plan.manifests},
                     {"grading_seed", std::to_string(plan.grading_seed)},
                     {"sample_seed", std::to_string(plan.sample_seed)},
                     {"time_limit", format_general(plan.time_limit, 17)},
                     {"margin", format_general(plan.margin, 17)}};
    write_file_atomically(path, record_line(record));
}

PlanFile read_plan_file(const std::string& path) {
    if (!std::ifstream(path)) throw FormatError("no plan " + path + " (grader plan --write makes it)");
    const std::vector<Record> records = read_results(path);
    if (records.size() != 1) throw FormatError(path + ": a plan is one line");
    const Record& r = records[0];
    auto field = [&](const std::string& key) {
        auto it = r.find(key);
        if (it == r.end() || it->second.empty()) throw FormatError(path + ": no " + key);
        return it->second;
    };
    auto whole = [&](const std::string& key) {
        const std::string text = field(key);
        char* end = nullptr;
        errno = 0;
        unsigned long long value = std::strtoull(text.c_str(), &end, 10);
        if (errno || *end || text[0] == '-') throw FormatError(path + ": " + key + " is not a whole number: " + text);
        return value;
    };
    auto seconds = [&](const std::string& key) {
        const std::string text = field(key);
        char* end = nullptr;
        double value = std::strtod(text.c_str(), &end);
        if (*end || !std::isfinite(value) || value < 0) throw FormatError(path + ": " + key + " is not a number of seconds: " + text);
        return value;
    };
    return PlanFile{field("lab"), field("manifests"), whole("grading_seed"), whole("sample_seed"), seconds("time_limit"),
                    seconds("margin")};
}
