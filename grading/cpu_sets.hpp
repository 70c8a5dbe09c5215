// Which CPUs a grading run's processes may use (grading/lib/runs.sh): each GPU's timed runs get
// a slice of their own, so two GPUs' timed runs never share a core and the reference's timing
// uses the same cores as the students'; on a machine with enough CPUs a quarter of them is kept
// for the work that goes on beside a timed run (checking a student's outputs, scoring), so that
// work never slows a timed run down, and the next student's timed run need not wait for it.
#pragma once
#include <string>
#include <vector>

// Below this many CPUs a GPU, none is kept aside: the checks wait for the GPU's timed runs
// instead (a timed lab 7 run alone uses 4 threads).
constexpr int kCpusPerGpuToKeepSome = 8;

struct CpuSets {
    std::vector<std::string> timed;  // per GPU, in order: "FIRST-LAST"; empty when none is left
    std::string beside;              // the CPUs kept for the work beside timed runs; "" when none
    // Students run at a time on each GPU in the untimed rounds, unless grade.sh --runners says:
    // a quarter of the CPUs a GPU, 1 to 4 (eight runners on an H200 made each sanitizer run
    // twice as long, not the round shorter).
    int runners = 1;
};

// The sets for a machine with `cpus` CPUs (numbered 0 .. cpus-1) and `gpus` GPUs.
CpuSets cpu_sets(int cpus, int gpus);
