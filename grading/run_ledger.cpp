#include "run_ledger.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "args.hpp"
#include "result_files.hpp"
#include "table.hpp"

namespace {

// Whole seconds as the shell counted them (awk's %d): the fraction dropped.
long long whole(double seconds) { return static_cast<long long>(std::trunc(seconds)); }

// "small", "small and tiny", "small, tiny and medium".
std::string listed(const std::vector<std::string>& items) {
    std::string text;
    for (size_t i = 0; i < items.size(); ++i)
        text += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
    return text;
}

double number_field(const Record& r, const std::string& key, const std::string& path) {
    auto it = r.find(key);
    char* end = nullptr;
    double value = it == r.end() ? NAN : std::strtod(it->second.c_str(), &end);
    if (it == r.end() || it->second.empty() || *end != '\0' || !std::isfinite(value) || value < 0)
        throw FormatError(path + ": the ledger has no valid " + key);
    return value;
}

}  // namespace

double case_time_limit(const CasePlan& c, const WallRules& rules) {
    return rules.time_limit_cap > 0 && rules.time_limit_cap < c.time_limit ? rules.time_limit_cap : c.time_limit;
}

long long process_wall(double limit, const WallRules& rules) { return whole(2 * limit + rules.margin); }

long long batch_wall(const std::vector<double>& limits, const WallRules& rules) {
    long long wall = 0;
    for (double limit : limits) wall += whole(2 * limit);
    return whole(double(wall) + rules.margin);
}

long long batch_wall_of(const LabPlan& plan, const WallRules& rules, const std::vector<std::string>& case_names) {
    std::vector<double> limits;
    for (const std::string& name : case_names) limits.push_back(case_time_limit(*plan.find_case(name), rules));
    return batch_wall(limits, rules);
}

long long sanitizer_wall(double limit) { return whole(4 * limit + 30); }

long long default_budget(const LabPlan& plan, const WallRules& rules) {
    long long longest = 0;
    for (const CasePlan& c : plan.cases) longest = std::max(longest, process_wall(case_time_limit(c, rules), rules));
    return 3 * longest;
}

std::optional<long long> wall_within_budget(const RunLedger& ledger, long long wanted) {
    long long left = whole(double(ledger.budget) - ledger.spent);
    if (left < 1) return std::nullopt;
    return std::min(left, wanted);
}

void spend(RunLedger& ledger, double seconds) {
    if (std::isfinite(seconds) && seconds > 0) ledger.spent = std::round((ledger.spent + seconds) * 1000) / 1000;
}

bool spent_from_budget(const std::string& kind) { return kind != kSecondTiming; }

bool note_stop(RunLedger& ledger, const std::string& part, const std::string& case_name) {
    std::vector<std::string>& cases = ledger.stopped_on[part];
    if (std::find(cases.begin(), cases.end(), case_name) != cases.end()) return false;
    cases.push_back(case_name);
    return true;
}

bool retired(const RunLedger& ledger, const std::string& part) {
    auto it = ledger.stopped_on.find(part);
    return it != ledger.stopped_on.end() && it->second.size() >= size_t(kRetireAfter);
}

namespace {
std::pair<std::string, std::string> case_and_part(const std::string& pair) {
    size_t slash = pair.find('/');
    if (slash == std::string::npos) return {pair, ""};
    return {pair.substr(0, slash), pair.substr(slash + 1)};
}
}  // namespace

std::vector<std::string> not_retired(const RunLedger& ledger, const std::vector<std::string>& pairs,
                                     std::vector<std::string>& dropped) {
    std::vector<std::string> kept;
    for (const std::string& pair : pairs) (retired(ledger, case_and_part(pair).second) ? dropped : kept).push_back(pair);
    return kept;
}

std::vector<std::string> unrecorded_after_batch(RunLedger& ledger, const std::vector<std::string>& pairs,
                                                const std::map<std::string, RunEvidence>& runs,
                                                const std::vector<std::string>& part_names) {
    // Each case's stops in the order its cases ran, as the retirement's reason lists them.
    std::map<std::string, std::vector<std::string>> unrecorded;
    for (const std::string& pair : pairs) {
        const std::string case_name = case_and_part(pair).first;
        auto run = runs.find(case_name);
        if (run == runs.end() || unrecorded.count(case_name)) continue;
        for (const std::string& part : stopped_parts(run->second, part_names)) note_stop(ledger, part, case_name);
        unrecorded[case_name] = unrecorded_parts(run->second, part_names);
    }
    std::vector<std::string> left;
    for (const std::string& pair : pairs) {
        auto [case_name, part] = case_and_part(pair);
        auto it = unrecorded.find(case_name);
        // A case without a run folder recorded nothing.
        if (it == unrecorded.end() || std::find(it->second.begin(), it->second.end(), part) != it->second.end())
            left.push_back(pair);
    }
    return left;
}

std::string retired_reason(const RunLedger& ledger, const std::string& part) {
    auto it = ledger.stopped_on.find(part);
    std::vector<std::string> cases = it == ledger.stopped_on.end() ? std::vector<std::string>{} : it->second;
    return part + " was stopped by its time limit on cases " + listed(cases) +
           ", so it is not run on later cases (a part that never ends would cost each its time limit)";
}

std::string budget_reason(const RunLedger& ledger, const std::string& lab) {
    return "this submission used up its run-time budget for " + lab + " (" + std::to_string(ledger.budget) +
           " s of runs in all)";
}

std::string none_left_reason(const std::string& lab) {
    return "every part of " + lab + " was stopped by its time limit on " + std::to_string(kRetireAfter) +
           " cases, so none is left to run";
}

std::string ledger_text(const RunLedger& ledger) {
    std::string text = record_line({{"record", "ledger"}, {"budget", std::to_string(ledger.budget)}, {"spent", format_fixed(ledger.spent, 3)}});
    for (const auto& [part, cases] : ledger.stopped_on)
        text += record_line({{"record", "stopped"}, {"part", part}, {"cases", join_list(cases, " ")}});
    return text;
}

RunLedger read_ledger(const std::string& path) {
    RunLedger ledger;
    bool head = false;
    for (const Record& r : read_results(path)) {
        auto kind = r.find("record");
        if (kind != r.end() && kind->second == "ledger") {
            ledger.budget = static_cast<long long>(number_field(r, "budget", path));
            ledger.spent = number_field(r, "spent", path);
            head = true;
        } else if (kind != r.end() && kind->second == "stopped" && r.count("part") && r.count("cases")) {
            for (const std::string& c : split_words(r.at("cases"))) note_stop(ledger, r.at("part"), c);
        } else {
            throw FormatError(path + ": not a ledger record: " + record_line(r));
        }
    }
    if (!head) throw FormatError(path + ": no ledger record");
    return ledger;
}
