// A reference run read back: the trusted side of a case (the reference solution's record for
// each part), and whether a reference run is complete. Read by the scorer (scoring.hpp), by the
// checked timed runs' samples (checked_runs.hpp) and by `grader check-reference`.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "lab_plan.hpp"
#include "result_files.hpp"
#include "run_evidence.hpp"

// The trusted side of a case: the reference run's record for each part.
struct ReferenceRun {
    std::map<std::string, PartRecord> parts;
    double floor_ms = 0;  // the case's physical bound on this GPU, 0 when the lab names none
};

// The reference run in `dir`, every part of `parts` ran or skipped; throws, naming `what`, when not.
ReferenceRun read_reference(const std::string& dir, const std::vector<std::string>& parts, const std::string& what);

// Empty when `dir` holds a complete reference run of `plan` (every part, or only `part` when one
// is named, ran and, when `with_bounds`, wrote an output with error bounds); otherwise what is
// wrong, in one sentence. With `output`, the named part's output, read for the check, is kept
// there (keep_checked_run_samples samples it without reading it again).
std::string reference_run_problem(const std::string& dir, const LabPlan& plan, bool with_bounds, const std::string& part = "",
                                  OutputArray* output = nullptr);
