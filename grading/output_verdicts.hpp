// A run's outputs, checked as soon as the run ends (grader check-outputs, grading/lib/runs.sh),
// so that the arrays need not wait on disk for the scores: a lab 2 performance case leaves about
// 2 GB of them per student (7 parts, each its checked run and two checked timed runs), and a
// class's filled a 64 GB disk during the timed round on an H200.
//
// What the check found is kept in the run's folder, as verdicts.tsv beside sandbox.tsv (the
// grader's side: the student's program writes only into out/), one line per output and
// reference, which scoring reads before it looks for the file:
//   FILE <TAB> REFERENCE <TAB> PASS (0|1) <TAB> CHECKED <TAB> BAD <TAB> REASON
// FILE is a file name in the run's out/, REFERENCE a path under the reference folder (a case's
// output, or a checked timed run's sample: run_evidence.hpp, checked_run_sample).
#pragma once
#include <string>

#include "lab_plan.hpp"
#include "output_check.hpp"
#include "run_evidence.hpp"

// OUTPUT of the run against REFERENCE (under reference_dir; a sample when it ends in ".sample"):
// the verdict the run's verdicts.tsv keeps, else the check of the files. The reference is
// trusted (an error reading it throws); the output is not.
OutputVerdict output_verdict(const RunEvidence& run, const std::string& output, const std::string& reference_dir,
                             const std::string& reference, double tolerance);

// Checks what scoring will compare in one run of case c: each part's output where the case's
// reference ran the part, and its checked timed runs (those among the part's timed runs) whose
// reference sample exists; adds the verdicts to the run's verdicts.tsv. The checked timed runs
// still waiting for their samples (made after the timed round, or when the student is scored)
// are reduced to the positions those samples will be taken at, where they are drawn
// (checked_positions.hpp; GRADE_KEEP_WORK too: the reduction is what the grader keeps of such a
// run). Then, unless keep_outputs, removes from out/ everything but results.tsv and the outputs
// still waiting. Throws, removing nothing, when the case's reference run or one of its outputs
// cannot be read, or a reduction cannot be written.
struct OutputsChecked {
    size_t verdicts = 0;   // added to verdicts.tsv
    size_t reduced = 0;    // checked timed runs reduced to their samples
    size_t unreduced = 0;  // left whole: their positions were not drawn yet (grade.sh reduces them later)
};
OutputsChecked check_run_outputs(const LabPlan& plan, const CasePlan& c, const std::string& run_dir,
                                 const std::string& reference_dir, bool keep_outputs);
