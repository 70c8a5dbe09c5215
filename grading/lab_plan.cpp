#include "lab_plan.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <regex>

#include "driver_options.hpp"
#include "run_schedule.hpp"
#include "random_data.hpp"

namespace {

bool contains(const std::vector<std::string>& list, const std::string& word) {
    return std::find(list.begin(), list.end(), word) != list.end();
}

[[noreturn]] void reject(const Manifest& m, const std::string& what) { throw ManifestError(m.origin() + ": " + what); }

std::string required(const Manifest& m, const std::string& key) {
    if (!m.has(key) || m.get(key).empty()) reject(m, "missing key '" + key + "' (labs/MANIFEST.md lists the keys)");
    return m.get(key);
}

// A number that falls back from case.<name>.<key> to <key>, then to `fallback`.
double case_number(const Manifest& m, const std::string& case_name, const std::string& key, double fallback) {
    std::string specific = "case." + case_name + "." + key;
    return m.has(specific) ? m.number(specific, fallback) : m.number(key, fallback);
}

void check_regex(const Manifest& m, const std::string& key, const std::string& pattern) {
    try {
        std::regex(pattern, std::regex::extended | std::regex::icase);
    } catch (const std::regex_error& e) {
        reject(m, "key '" + key + "' is not a valid extended regular expression: " + e.what());
    }
}

}  // namespace

bool is_plain_file_name(const std::string& name) {
    if (name.empty() || name == "." || name == "..") return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
    });
}

const CasePlan* LabPlan::find_case(const std::string& name) const {
    for (const CasePlan& c : cases)
        if (c.name == name) return &c;
    return nullptr;
}

const PartPlan* LabPlan::find_part(const std::string& name) const {
    for (const PartPlan& p : parts)
        if (p.name == name) return &p;
    return nullptr;
}

std::vector<std::string> LabPlan::part_names() const {
    std::vector<std::string> names;
    for (const PartPlan& p : parts) names.push_back(p.name);
    return names;
}

bool LabPlan::has_construct_rules() const {
    for (const PartPlan& p : parts)
        if (!p.forbidden_ptx.empty()) return true;
    return false;
}

double LabPlan::correctness_points(const PartPlan&) const {
    double total = 0;
    for (const CasePlan& c : cases) total += c.points;
    return total;
}

double LabPlan::performance_points(const PartPlan& part) const {
    double total = 0;
    for (const CasePlan& c : cases) total += c.perf ? part.perf_points : 0;
    return total;
}

double LabPlan::max_points() const {
    double total = 0;
    for (const PartPlan& p : parts) total += correctness_points(p) + performance_points(p);
    return total;
}

LabPlan make_lab_plan(const Manifest& m, const std::string& lab) {
    LabPlan plan;
    plan.lab = lab;
    plan.title = m.get_or("title", lab);
    plan.student_files = split_words(required(m, "student_files"));
    for (const std::string& f : plan.student_files)
        if (!is_plain_file_name(f)) reject(m, "student file '" + f + "' must be a plain file name (letters, digits, . _ -)");
    for (const std::string& name : split_words(required(m, "parts"))) {
        if (!std::all_of(name.begin(), name.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }))
            reject(m, "part '" + name + "' must be a name of letters, digits and _");
        if (plan.find_part(name)) reject(m, "part '" + name + "' is listed twice in 'parts'");
        PartPlan part;
        part.name = name;
        part.files = m.list("part." + name + ".files");
        if (part.files.empty()) part.files = plan.student_files;
        for (const std::string& f : part.files)
            if (!contains(plan.student_files, f))
                reject(m, "part." + name + ".files names '" + f + "', which is not in student_files");
        part.forbidden = m.get_or("part." + name + ".forbidden", "");
        if (!part.forbidden.empty()) check_regex(m, "part." + name + ".forbidden", part.forbidden);
        part.forbidden_ptx = m.get_or("part." + name + ".forbidden_ptx", "");
        if (!part.forbidden_ptx.empty()) check_regex(m, "part." + name + ".forbidden_ptx", part.forbidden_ptx);
        part.forbidden_reason = m.get_or("part." + name + ".forbidden.reason", "this is not allowed in part " + name);
        part.hint = m.get_or("part." + name + ".perf.hint", "");
        plan.parts.push_back(part);
    }
    if (m.has("part_option"))
        reject(m, "part_option is gone: every driver selects parts with --part (labs/MANIFEST.md)");

    plan.forbidden = m.get_or("forbidden", "");
    if (!plan.forbidden.empty()) check_regex(m, "forbidden", plan.forbidden);
    plan.forbidden_reason = m.get_or("forbidden.reason", "this API is not allowed in this lab");

    plan.allowed_symbols = m.list("allowed_symbols");
    for (const std::string& pattern : plan.allowed_symbols) {
        try {
            std::regex check(pattern);
        } catch (const std::regex_error& e) {
            reject(m, "allowed_symbols: '" + pattern + "' is not a valid regular expression: " + e.what());
        }
    }
    plan.grading_args = m.list("grading.args");
    std::vector<std::string> perf_cases = m.list("perf.cases");
    for (const std::string& name : split_words(required(m, "cases"))) {
        if (plan.find_case(name)) reject(m, "case '" + name + "' is listed twice in 'cases'");
        CasePlan c;
        c.name = name;
        c.args = split_words(required(m, "case." + name + ".args"));
        std::string visibility = required(m, "case." + name + ".visibility");
        if (visibility != "public" && visibility != "hidden")
            reject(m, "case." + name + ".visibility must be public or hidden, not '" + visibility + "'");
        c.hidden = visibility == "hidden";
        required(m, "case." + name + ".points");
        c.points = m.number("case." + name + ".points", 0);
        c.time_limit = case_number(m, name, "time_limit", driver_defaults::time_limit);
        c.tolerance = case_number(m, name, "tolerance", 1);
        c.perf = contains(perf_cases, name);
        c.fixed_seed = m.get_or("case." + name + ".fixed_seed", "no") == "yes";
        if (c.fixed_seed && c.perf)
            reject(m, "case." + name + ".fixed_seed: a performance case is graded on data drawn when grading starts");
        if (c.points < 0) reject(m, "case." + name + ".points must not be negative");
        if (!(c.time_limit > 0)) reject(m, "the time limit of case '" + name + "' must be positive");
        if (!(c.tolerance >= 0)) reject(m, "the tolerance of case '" + name + "' must not be negative");
        plan.cases.push_back(c);
    }
    for (const std::string& name : perf_cases)
        if (!plan.find_case(name)) reject(m, "perf.cases names '" + name + "', which is not in 'cases'");

    for (const std::string& name : m.list("speed_parts")) {
        PartPlan* part = nullptr;
        for (PartPlan& p : plan.parts) part = p.name == name ? &p : part;
        if (!part) reject(m, "speed_parts names '" + name + "', which is not in 'parts'");
        part->speed = true;
    }
    if (!perf_cases.empty()) {
        double lab_points = m.number("perf.points", 0);
        if (lab_points < 0) reject(m, "perf.points must not be negative");
        for (PartPlan& part : plan.parts) {
            std::string own = "part." + part.name + ".perf.";
            part.perf_points = m.number(own + "points", lab_points);
            if (part.perf_points < 0) reject(m, own + "points must not be negative");
            part.curve.full_ratio = m.number(own + "full_ratio", m.number("perf.full_ratio", 1));
            part.curve.zero_ratio = m.number(own + "zero_ratio", m.number("perf.zero_ratio", 1));
            if (!(part.curve.full_ratio >= 1 && part.curve.zero_ratio > part.curve.full_ratio))
                reject(m, "the performance curve of part " + part.name + " needs 1 <= full_ratio < zero_ratio (" + own +
                              "* or perf.*)");
        }
    }
    // A part whose lesson is speed is graded mostly on speed (issue: grades that measure the work).
    for (const PartPlan& part : plan.parts)
        if (part.speed && plan.performance_points(part) < plan.correctness_points(part))
            reject(m, "part " + part.name + " is a speed part (speed_parts), so at least half of its points must be " +
                          "performance points: it has " + std::to_string(plan.performance_points(part)) + " against " +
                          std::to_string(plan.correctness_points(part)) + " for correctness (part." + part.name +
                          ".perf.points)");

    plan.sanitize_case = m.get_or("sanitize.case", "");
    if (!plan.sanitize_case.empty()) {
        if (!plan.find_case(plan.sanitize_case))
            reject(m, "sanitize.case names '" + plan.sanitize_case + "', which is not in 'cases'");
        plan.sanitize_tools = m.list("sanitize.tools");
        plan.sanitize_points = m.number("sanitize.points", 0);
        if (plan.sanitize_points < 0) reject(m, "sanitize.points must not be negative");
        for (const std::string& tool : plan.sanitize_tools)
            if (!is_plain_file_name(tool)) reject(m, "sanitize.tools: '" + tool + "' is not a tool name");
    }
    return plan;
}

std::vector<std::string> LabPlan::student_args(const CasePlan& c) const {
    std::vector<std::string> words = c.args;
    if (grading_seed == 0 || c.fixed_seed) return words;
    // The case's own seed (the last --seed its arguments give, else the driver's default, 1),
    // mixed with the grading seed; below 2^62, the driver's limit.
    unsigned long long own = 1;
    for (size_t i = 0; i + 1 < c.args.size(); ++i)
        if (c.args[i] == "--seed") own = std::strtoull(c.args[i + 1].c_str(), nullptr, 10);
    unsigned long long graded = splitmix_at(grading_seed, own) >> 2;
    words.insert(words.end(), {"--seed", std::to_string(graded)});
    return words;
}

std::vector<std::string> LabPlan::run_args(const CasePlan& c) const {
    // The lab's grading arguments first: where a case names the same option (lab 7's case
    // threads1 runs on one thread where every other run uses four), the driver keeps the last.
    std::vector<std::string> words = grading_args;
    std::vector<std::string> own = student_args(c);
    words.insert(words.end(), own.begin(), own.end());
    // A case that earns no performance points needs no timing: one run, no warm-up.
    if (!c.perf) words.insert(words.end(), {"--reps", "1", "--warmup", "0"});
    return words;
}

LabPlan::TimedRuns LabPlan::timed_runs(const CasePlan& c, const std::string& part) const {
    long long reps = driver_defaults::reps, warmup = driver_defaults::warmup;
    std::vector<std::string> words = run_args(c);
    for (size_t i = 0; i < words.size(); ++i) {
        for (auto [name, value] : {std::pair<const char*, long long*>{"--reps", &reps}, {"--warmup", &warmup}}) {
            std::string option = name;
            if (words[i] == option && i + 1 < words.size()) *value = std::atoll(words[i + 1].c_str());
            if (words[i].rfind(option + "=", 0) == 0) *value = std::atoll(words[i].c_str() + option.size() + 1);
        }
    }
    std::vector<std::string> names = part_names();
    int position = int(std::find(names.begin(), names.end(), part) - names.begin());
    RunSchedule schedule{int(warmup), int(reps), position};
    return {schedule.timed_index(0), (unsigned long long)(reps > 0 ? reps : 0)};
}
