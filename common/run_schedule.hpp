// Which runs of a part the driver makes, by index: the driver core times them
// (common/gpu_timer.hpp, common/part_loop.cpp) and the grader reads which of them a driver may
// hand in as a checked timed run (grading/lab_plan.cpp).
#pragma once
#include <cstdint>

// The runs of a part after its checked run: the warm-ups, then the timed repetitions. Each has
// an index of its own, and computes on the inputs of that index (LabCase::load_inputs): 1 to
// warmup for the warm-ups, warmup + 1 to warmup + reps for the timed ones.
struct RunSchedule {
    int warmup = 0, reps = 0;
    uint64_t warmup_index(int i) const { return 1 + uint64_t(i); }
    uint64_t timed_index(int r) const { return 1 + uint64_t(warmup) + uint64_t(r); }
};
