#include "cases_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <stdexcept>

#include "table.hpp"  // format_general

namespace {

std::string words_of(const std::vector<std::string>& words) {
    std::string text;
    for (const std::string& w : words) text += " " + w;
    return text;
}

const CasePlan& case_named(const LabPlan& plan, const std::string& name) {
    const CasePlan* c = plan.find_case(name);
    if (!c) throw std::invalid_argument("no case '" + name + "' in " + plan.lab);
    return *c;
}

// NAME, the case's run arguments and its time limit in this run, then `extra`.
std::string case_line(const LabPlan& plan, const CasePlan& c, const WallRules& rules, const std::string& name,
                      const std::string& extra) {
    return name + words_of(plan.run_args(c)) + " --time-limit " + format_general(case_time_limit(c, rules)) + extra;
}

}  // namespace

CasesFile make_cases_file(const LabPlan& plan, const WallRules& rules, CasesUse use, const std::vector<std::string>& items) {
    CasesFile file;
    std::map<std::string, std::string> parts_of;
    for (const std::string& item : items) {
        const size_t slash = item.find('/');
        const std::string name = item.substr(0, slash);
        case_named(plan, name);
        if (!parts_of.count(name)) file.cases.push_back(name);
        std::string& parts = parts_of[name];
        if (use != CasesUse::graded) continue;
        if (slash == std::string::npos) throw std::invalid_argument("a graded item is CASE/PARTS, not '" + item + "'");
        for (size_t at = slash + 1; at <= item.size();) {
            size_t comma = std::min(item.find(',', at), item.size());
            const std::string part = item.substr(at, comma - at);
            if (!plan.find_part(part)) throw std::invalid_argument("no part '" + part + "' in " + plan.lab);
            parts += (parts.empty() ? "" : ",") + part;
            at = comma + 1;
        }
    }
    for (const std::string& name : file.cases) {
        std::string extra = use == CasesUse::graded              ? " --part " + parts_of[name]
                            : use == CasesUse::reference_outputs ? " --reps 0 --warmup 0"
                                                                 : "";
        file.lines.push_back(case_line(plan, case_named(plan, name), rules, name, extra));
    }
    return file;
}

CasesFile make_checked_run_cases_file(const LabPlan& plan, const WallRules& rules, const std::vector<CheckedRun>& runs,
                                      unsigned long long sample_seed) {
    CasesFile file;
    for (const CheckedRun& run : runs) {
        const auto& [name, seed, part] = run;
        if (!plan.find_part(part)) throw std::invalid_argument("no part '" + part + "' in " + plan.lab);
        file.lines.push_back(case_line(plan, case_named(plan, name), rules, checked_run_name(run),
                                       " --data-seed " + std::to_string(seed) + " --reps 0 --check sample --sample-seed " +
                                           std::to_string(sample_seed) + " --part " + part));
        file.cases.push_back(name);
    }
    return file;
}

void write_cases_file(const std::string& path, const std::vector<std::string>& lines) {
    std::string text;
    for (const std::string& line : lines) text += line + "\n";
    std::error_code error;
    std::filesystem::remove_all(path, error);  // a link itself, a folder with all in it
    if (error) throw std::runtime_error("cannot replace " + path);
    int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) throw std::runtime_error("cannot write " + path);
    bool written = write(fd, text.data(), text.size()) == ssize_t(text.size());
    if (close(fd) != 0 || !written) throw std::runtime_error("cannot write " + path);
}
