// What one student x lab may still spend on sandboxed runs, and what it is not run on any more:
// the rules behind grader run-group's runs (run_group.hpp; grading/README.md,
// "What happens", step 5). The ledger lives in one file per student x lab that the three rounds
// of a grading run pass on (`grader run-group`, run_group.hpp; its format: grading/FORMATS.md):
//   budget  the seconds its runs may take in all (--budget; by default three of the lab's
//           longest process walls, so a part that never ends costs only its own points);
//   spent   the seconds its runs took (sandbox.tsv's seconds), so a run gets at most what is
//           left as its wall clock and none starts once nothing is left;
//   stops   the cases on which the time limit stopped each part: a part stopped on
//           kRetireAfter cases is retired, not run on the later cases nor under the sanitizers.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lab_plan.hpp"
#include "run_evidence.hpp"

// Three, like the budget's three longest runs: a part that hangs on a couple of sizes only still
// earns the cases it passes, and one that never ends stops costing its time limit on each case.
constexpr int kRetireAfter = 3;

// How a grading run sets the walls: --time-limit (a cap on every case's limit; 0: none) and
// GRADE_WALL_MARGIN (seconds for starting up and a clean exit, once per process).
struct WallRules {
    double time_limit_cap = 0;
    double margin = 10;
};

// The time limit of a case in this grading run: the manifest's, or the cap when lower.
double case_time_limit(const CasePlan& c, const WallRules& rules);

// Wall clocks, whole seconds. The driver stops a stuck kernel after the case's limit; the rest
// is room for the work before it. A process running several cases gets each case's 2 x limit
// and the margin once; a sanitizer run, much slower, 4 x limit + 30 s.
long long process_wall(double limit, const WallRules& rules);
long long batch_wall(const std::vector<double>& limits, const WallRules& rules);
long long sanitizer_wall(double limit);
// batch_wall of one process running these cases of the plan (each named once or more).
long long batch_wall_of(const LabPlan& plan, const WallRules& rules, const std::vector<std::string>& case_names);

// Three of the lab's longest process walls.
long long default_budget(const LabPlan& plan, const WallRules& rules);

struct RunLedger {
    long long budget = 0;  // seconds
    double spent = 0;      // seconds, to the millisecond
    // part -> the cases on which the time limit stopped it, in the order met, each once
    std::map<std::string, std::vector<std::string>> stopped_on;
};

// The wall a run that wants `wanted` seconds may have: the lower of that and the whole seconds
// left; none when less than one second is left.
std::optional<long long> wall_within_budget(const RunLedger& ledger, long long wanted);
void spend(RunLedger& ledger, double seconds);
// Whether a run of KIND (batch, part, sanitizer, or kSecondTiming) draws on the budget. A second timing is the grader's choice, not the student's
// run: it has a batch's wall whatever is left, and what it takes is not spent, so it never leaves
// the student's later cases unrun.
bool spent_from_budget(const std::string& kind);
// Records that the time limit stopped `part` on `case_name`; false when that case was counted.
bool note_stop(RunLedger& ledger, const std::string& part, const std::string& case_name);
bool retired(const RunLedger& ledger, const std::string& part);

// What is left to run of `pairs` ("CASE/PART", in the order to run): those whose part is not
// retired; `dropped` gets the others.
std::vector<std::string> not_retired(const RunLedger& ledger, const std::vector<std::string>& pairs,
                                     std::vector<std::string>& dropped);
// After a batch ran `pairs`: records the parts each case's run (`runs`, by case) says the time
// limit stopped, case by case in the order of `pairs`, and returns the pairs that run left
// without a record, in order: the part it was running when it died, which runs again on its
// own, and those after it.
std::vector<std::string> unrecorded_after_batch(RunLedger& ledger, const std::vector<std::string>& pairs,
                                                const std::map<std::string, RunEvidence>& runs,
                                                const std::vector<std::string>& part_names);

// The not-run.txt sentences, as the feedback quotes them ("not run: ...").
//   "b was stopped by its time limit on cases small, tiny and medium, so it is not run on later
//    cases (a part that never ends would cost each its time limit)"
std::string retired_reason(const RunLedger& ledger, const std::string& part);
//   "this submission used up its run-time budget for lab1 (180 s of runs in all)"
std::string budget_reason(const RunLedger& ledger, const std::string& lab);
//   "every part of lab1 was stopped by its time limit on 3 cases, so none is left to run"
std::string none_left_reason(const std::string& lab);

// The ledger file: tab-separated key=value records (common/result_files.hpp), written by the
// grader only. read_ledger throws FormatError on a missing or malformed file.
std::string ledger_text(const RunLedger& ledger);
RunLedger read_ledger(const std::string& path);
