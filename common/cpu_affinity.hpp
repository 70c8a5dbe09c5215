// The CPUs a part timed on the host may use. A CPU part given --threads T runs on exactly T
// CPUs: every thread of the process (OpenMP's pool included, and the threads it creates later,
// which inherit it) is pinned to the first T of the CPUs the process was started with, so
// asking OpenMP for more threads than T buys nothing, and the grader's timings of a student
// and of the reference solution use the same cores.
//
// Under grading, every process runs under an affinity guard (grading/affinity_guard.cpp): a
// thread's CPU set may narrow, never widen, so no thread leaves the part's CPUs once pinned. The
// pinning here is a narrowing, and goes through; undoing it (release) is refused there, so the
// process stays on those CPUs, and a later part asking for more CPUs gets those it still has.
#pragma once
#include <string>

class CpuPinning {
public:
    // Pins the whole process to the first `threads` CPUs it may use (all of them when it may
    // use fewer); release() undoes it where it may. Returns what it did, in words, for the heading.
    std::string pin(int threads);
    // False after pin() when a thread of the process still runs on a CPU outside those chosen,
    // and may not be moved onto them (under the guard: a thread the program pinned elsewhere).
    bool confined() const { return confined_; }
    void release();
    ~CpuPinning() { release(); }

private:
    bool pinned_ = false;
    bool confined_ = true;
};

// How many CPUs the process was started with (its affinity: taskset, a Slurm allocation).
int usable_cpus();

// Seconds of CPU time (user and system) the process has used so far, every thread together.
double process_cpu_seconds();
