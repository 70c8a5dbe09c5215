// The three rounds in which a grading run goes over the class (grading/lib/runs.sh; the README's
// "What happens", step 5), for one lab: which of its cases each round runs, and how much a
// student x lab runs in each, which the progress line's estimate of the time left weighs.
//   round 1  the public cases without performance points, a few students at a time per GPU
//   round 2  the public performance cases, one student at a time per GPU (timed)
//   round 3  the sanitizers, then the hidden cases without, then with performance points
#pragma once
#include <string>
#include <vector>

#include "lab_plan.hpp"

constexpr int kRounds = 3;

struct RoundCases {
    std::vector<std::string> public_untimed, public_timed, hidden_untimed, hidden_timed;
};
RoundCases round_cases(const LabPlan& plan);

// The sandboxed processes one student x lab runs in a round: untimed ones, and timed ones, which
// have the GPU to themselves (one process runs all of a round's cases of a kind; each sanitizer
// tool is a process of its own, when the grading machine has compute-sanitizer).
struct RoundWork {
    int untimed = 0, timed = 0;
};
RoundWork round_work(const LabPlan& plan, int round, bool with_sanitizers);
