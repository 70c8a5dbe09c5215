// The runs' progress line (grading/lib/progress.sh prints it): the round, the student x labs
// through it out of how many, how many failed so far, and the time left, estimated from the
// work done so far. Its state passes from runner to runner in a file (progress.sh holds the
// lock): `grader progress start|round|step`.
#pragma once
#include <cstdint>
#include <set>
#include <string>

struct ProgressState {
    int64_t started_us = 0;  // when the runs began (microseconds since the epoch)
    long long work_all = 0, work_done = 0;  // grading/round_plan.hpp's units, every round together
    int round = 0, rounds = 0;
    std::string round_name;
    long long total = 0, done = 0;  // student x labs of this round, and through it
    std::set<std::string> failed;   // "ID<TAB>LAB", once each, over every round
};
ProgressState read_progress(const std::string& path);  // throws FormatError
void write_progress(const std::string& path, const ProgressState& state);

// Whether a student x lab's evidence (DIR) is one a teaching assistant would look at first: a
// run of it crashed or was stopped, or a sanitizer found a fault, or, once it is scored, a
// correctness or sanitizer item failed, it could not be graded or its score cannot be read.
// (Before the score, a wrong output is not known.)
bool looks_failed(const std::string& lab_dir);

// "about 40 s", "about 3 min", "not known yet" (nothing done) or "none" (the last step of the
// last round): the time so far, per unit of work done, times the work left.
std::string time_left(const ProgressState& state, int64_t now_us);

// "runs: round 1/3 (public cases) 57/189, 3 with failures, time left: about 9 min"
std::string progress_line(const ProgressState& state, int64_t now_us);
