// The cases files of a grading run (common/lab_main.cpp reads one: a case's name, then its
// driver arguments, a line each), all made here. A student's batch, a part run alone and a
// sanitizer run get the same line for the same case and parts, so nothing in its arguments
// tells a program which of them it is; the reference solution's runs add what the grader asks
// of them.
#pragma once
#include <string>
#include <vector>

#include "checked_runs.hpp"
#include "lab_plan.hpp"
#include "run_ledger.hpp"

enum class CasesUse {
    graded,             // a student's process: items CASE/PARTS (PARTS comma-separated)
    reference_outputs,  // the reference's outputs and bounds, nothing timed: items CASE
    reference_timing,   // the reference's times: items CASE
};

// The lines, and the cases they run in order (a case named by several items is one line, its
// parts gathered). Throws std::invalid_argument naming an unknown case or part.
struct CasesFile {
    std::vector<std::string> lines, cases;
};
CasesFile make_cases_file(const LabPlan& plan, const WallRules& rules, CasesUse use, const std::vector<std::string>& items);

// The reference's runs of checked timed runs: a case named checked_run_name(run), on that timed
// run's inputs (--data-seed), its part alone, checked at the positions the secret seed draws (the
// sample keep_checked_run_samples keeps). Each case of `cases` is one of `runs`' cases.
CasesFile make_checked_run_cases_file(const LabPlan& plan, const WallRules& rules, const std::vector<CheckedRun>& runs,
                                      unsigned long long sample_seed);

// Writes `lines` to PATH as a new file, whatever PATH was (a link or a folder a student's build
// left in its box is removed, never followed). Throws std::runtime_error.
void write_cases_file(const std::string& path, const std::vector<std::string>& lines);
