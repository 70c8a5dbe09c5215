// The CPUs a part timed on the host may use. A CPU part given --threads T runs on exactly T
// CPUs: every thread of the process (OpenMP's pool included, and the threads it creates later,
// which inherit it) is pinned to the first T of the CPUs the process was started with, so
// asking OpenMP for more threads than T buys nothing, and the grader's timings of a student
// and of the reference solution use the same cores.
#pragma once
#include <string>

class CpuPinning {
public:
    // Pins the whole process to the first `threads` CPUs it may use (all of them when it may
    // use fewer); release() undoes it. Returns what it did, in words, for the heading.
    std::string pin(int threads);
    void release();
    ~CpuPinning() { release(); }

private:
    bool pinned_ = false;
};

// How many CPUs the process was started with (its affinity: taskset, a Slurm allocation).
int usable_cpus();

// Seconds of CPU time (user and system) the process has used so far, every thread together.
double process_cpu_seconds();
