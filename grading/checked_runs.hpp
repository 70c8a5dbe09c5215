// Which reference outputs of checked timed runs a grading run still has to make. A student's
// driver keeps the outputs of two of each part's timed runs (grading/FORMATS.md); grade.sh runs
// the reference solution on the same inputs (--data-index) and keeps a sample of its output as
// <reference>/<case>/run<index>/out/<part>.sample, which scoring compares them with.
#pragma once
#include <cstdint>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "lab_plan.hpp"

// CASE, run INDEX, PART.
using CheckedRun = std::tuple<std::string, unsigned long long, std::string>;

// The most timed runs a part a case may have for its checked runs to be made before any student
// runs, in a class of `students`, when grade.sh makes them `side_by_side` runs at a time: twice
// the class times side_by_side. Each student's driver keeps two of a part's timed runs, chosen at
// random, and one made as a student asks runs alone between the timed runs, holding the GPU
// from them; made first, they run side_by_side at once and hold nothing up. So making every one
// first costs less wall clock as soon as a part has no more timed runs than two a student,
// side_by_side times over. With the class size alone (twice the class), a make test class of
// five lab 2 students (23 timed runs a part) made its references one student at a time, 14 s a
// student, the timed round waiting. A self-check passes side_by_side 1: its one student's
// reference answers are the CPU reference's, each a long computation at a performance case's
// size, so only those it asks for are made. A case with two or fewer a part has every one kept
// by every driver.
unsigned long long made_first_up_to(unsigned long long students, unsigned long long side_by_side);

// The checked timed runs whose sample is missing under REFERENCE (a folder per case, holding the
// reference's run of it: <case>/out/results.tsv), among
//   - with students > 0: every timed run of every part on the cases with at most
//     made_first_up_to(students, side_by_side) timed runs a part, made before any timed run
//     (beside round 1);
//   - else: those the student's run records in STUDENT_DIR/runs/<case>/ name (untrusted).
// Only a part the reference ran on the case is ever listed: where it sat the case out (lab 6's
// one-block sorts above 1024 pairs) there is no output to sample, and scoring asks for none, so
// neither the plan nor a record naming such a run can make grade.sh ask the reference for one.
// Runs outside the part's timed runs on the case are never listed.
std::set<CheckedRun> missing_checked_run_references(const LabPlan& plan, const std::string& reference,
                                                    const std::string& student_dir, unsigned long long students,
                                                    unsigned long long side_by_side = 1);

// Keeps the reference's output of each of `runs`, made into WORK by a run of
// make_checked_run_cases_file's lines (WORK/CASE.run<INDEX>/results.tsv and the output), as a
// sample under REFERENCE (checked_run_sample): at most `at_most` positions among those the run
// bounded, drawn from the secret seed. Each is checked first, in the same read, as a reference
// run with bounds. Returns what is wrong, a line for each run it could not keep.
std::vector<std::string> keep_checked_run_samples(const LabPlan& plan, const std::vector<CheckedRun>& runs,
                                                  const std::string& work, const std::string& reference,
                                                  uint64_t seed, size_t at_most = 65536);
