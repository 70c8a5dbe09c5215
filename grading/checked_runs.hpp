// Which reference outputs of checked timed runs a grading run still has to make. A student's
// driver keeps the outputs of two of each part's timed runs, decided as each run ends, and names
// them with the seeds of their inputs, which it drew from the operating system as each run began
// (grading/FORMATS.md): no two students' runs share inputs, so each kept run has a reference of
// its own. grade.sh runs the reference solution on the same inputs (--data-seed) and keeps a
// sample of its output as <reference>/<case>/seed<S>/out/<part>.sample, at the positions the
// student's kept output was reduced to as its process ended (checked_positions.hpp), which
// scoring compares it with.
#pragma once
#include <cstdint>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "lab_plan.hpp"
#include "run_evidence.hpp"

// CASE, the run's input SEED, PART.
using CheckedRun = std::tuple<std::string, unsigned long long, std::string>;

// The name of the reference's run of a checked timed run, in its cases file and its work folder:
// "big.seed5039120772431.tiled".
std::string checked_run_name(const CheckedRun& run);

// One timed run a part's record says the driver kept: its index and its input seed.
struct KeptRunNamed {
    unsigned long long index = 0, seed = 0;
};

// The kept timed runs a part's record names, when they are what a driver keeps: two distinct
// timed runs of the part on the case (one when it has one timed run, none when none), each with
// the seed of its inputs, no two seeds alike. Otherwise (`valid` false), none: scoring says the
// record does not show the work was done in every run, and no reference is made for it, so a
// forged record cannot make grade.sh run the reference on inputs of its choosing.
struct KeptRunsNamed {
    bool valid = false;
    std::vector<KeptRunNamed> runs;
    size_t expected = 0;  // how many a driver keeps of this part's timed runs on the case
};
KeptRunsNamed kept_runs_named(const LabPlan& plan, const CasePlan& c, const std::string& part, const PartRecord& record);

// The checked timed runs whose sample is missing under REFERENCE (a folder per case, holding the
// reference's run of it: <case>/out/results.tsv) that the student's run records in
// STUDENT_DIR/runs/<case>/ name (untrusted: kept_runs_named). Only a part the reference ran on
// the case is ever listed: where it sat the case out (lab 6's one-block sorts above 1024 pairs)
// there is no output to sample, and scoring asks for none.
std::set<CheckedRun> missing_checked_run_references(const LabPlan& plan, const std::string& reference,
                                                    const std::string& student_dir);

// The reference's check on fresh inputs, before any student's timed run: one run of every part
// the reference ran on every case, on inputs of a seed derived from `secret` (the grading run's
// sample seed, which no student's process sees), those whose sample is missing. A reference
// solution right on the cases' own inputs and wrong on others' (lab 3's files and the graphs a
// timed run draws) then stops the grading before the night's timed runs, not after them.
std::set<CheckedRun> reference_probe_runs(const LabPlan& plan, const std::string& reference, uint64_t secret);

// Keeps the reference's output of each of `runs`, made into WORK by a run of
// make_checked_run_cases_file's lines (WORK/<checked_run_name>/results.tsv and the output), as a
// sample under REFERENCE (checked_run_sample), at the part's checked positions on the case
// (checked_positions.hpp): the first sample of the part draws them, at most `at_most` among those
// the run bounded, from the secret seed, and every later one takes them. Each is checked first,
// in the same read, as a reference run with bounds. Returns what is wrong, a line for each run it
// could not keep.
std::vector<std::string> keep_checked_run_samples(const LabPlan& plan, const std::vector<CheckedRun>& runs,
                                                  const std::string& work, const std::string& reference,
                                                  uint64_t seed, size_t at_most = 65536);
