// Which runs of a part the driver makes, by index: the driver core times them
// (common/gpu_timer.hpp, common/part_loop.cpp) and the grader reads which of them a driver may
// hand in as a checked timed run (grading/lab_plan.cpp).
#pragma once
#include <cstdint>

// The runs of a part after its checked run: the warm-ups, then the timed repetitions. Each has
// an index of its own, and computes on the inputs of that index (LabCase::load_inputs). The
// checked run is index 0 for every part; after it, the part at `position` in the lab's list of
// parts (yardsticks after the parts) has its own range of indices, so no part's runs share
// inputs with another's and a part cannot hand in what an earlier part computed for it:
// position * (warmup + reps) + 1 onward, the warm-ups first.
struct RunSchedule {
    int warmup = 0, reps = 0;
    int position = 0;
    uint64_t first_index() const { return 1 + uint64_t(position) * uint64_t(warmup + reps); }
    uint64_t warmup_index(int i) const { return first_index() + uint64_t(i); }
    uint64_t timed_index(int r) const { return first_index() + uint64_t(warmup) + uint64_t(r); }
};
