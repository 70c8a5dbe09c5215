// Scores one student on one lab from the evidence the grading run left in the lab's folder
// (layout in grading/FORMATS.md): the submission problems, the build, the forbidden-API
// scan, the runs of every case (one process for all parts, then each unrecorded part on its
// own), and the sanitizer runs. Correctness is decided here, by the checker, against the
// reference outputs; nothing the student's program printed can award points.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "lab_plan.hpp"
#include "lab_score.hpp"
#include "result_files.hpp"

struct ScoringInputs {
    std::string lab_dir;        // the student's evidence for this lab
    std::string reference_dir;  // <case>/results.tsv and outputs of the reference solution (with bounds)
    std::string timing_dir;     // <case>/results.tsv of the reference timed on the student's GPU
    // Not empty: there is no reference time (a self-check on a GPU model the course has no
    // time of): each correct part's performance item takes no points and says this instead.
    std::string untimed;
};

// Throws std::runtime_error when the grader's own inputs (reference outputs, timings) are
// missing or wrong: that is the grading run's fault, never a reason to take points.
LabScore score_lab(const LabPlan& plan, const ScoringInputs& inputs);

// A part timed on the host is scored at its wall time or at its CPU time (every thread's) over
// the CPUs it was given, whichever is longer: threads held to those CPUs (the driver pins them;
// the sandbox's affinity guard lets no thread widen its CPU set) never use more than their wall
// time on each, so the floor binds only where threads ran on other CPUs. The reference is scored
// the same way. `host_cpus` is the reference run's record of them ("4 CPUs (0,1,2,3)"): the CPUs
// given, 0 for a part not timed on the host.
int host_cpus_given(const std::string& host_cpus);
double host_scored_ms(double wall_ms, double cpu_ms, int cpus);

// A second timing. A timed run can meet a passing disturbance on a shared machine: in a make
// test on an H100, lab 7's streaming part took 1.47x the reference's time in a planted bug that
// never touched it, while every copy of the reference measured 1.00x. So grade.sh times once
// more, alone on the GPU, the parts of a student's timed cases whose output was right and whose
// first timing put them past their full_ratio of the reference's time (so far):
// parts_to_time_again lists them (case, part), and grade.sh runs them into
// runs/CASE/<kSecondTiming> (run_evidence.hpp). Scoring keeps the better time of a correct part,
// the second only when its own outputs and checked timed runs are right too.
std::vector<std::pair<std::string, std::string>> parts_to_time_again(const LabPlan& plan, const ScoringInputs& inputs,
                                                                     const std::vector<std::string>& cases);
