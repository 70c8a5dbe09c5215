#include "cpu_affinity.hpp"

#include <dirent.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/types.h>

#include <cstdlib>

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

// Applies `set` to every thread of the process: a pool that OpenMP started before is pinned too.
void apply_to_every_thread(const cpu_set_t& set) {
    DIR* tasks = opendir("/proc/self/task");
    if (!tasks) {
        sched_setaffinity(0, sizeof set, &set);
        return;
    }
    while (dirent* entry = readdir(tasks)) {
        pid_t tid = pid_t(std::atoi(entry->d_name));
        if (tid > 0) sched_setaffinity(tid, sizeof set, &set);
    }
    closedir(tasks);
}

}  // namespace

std::string CpuPinning::pin(int threads) {
    const cpu_set_t& allowed = allowed_cpus();
    cpu_set_t chosen;
    CPU_ZERO(&chosen);
    int count = 0, available = CPU_COUNT(&allowed);
    std::string list;
    for (int cpu = 0; cpu < CPU_SETSIZE && count < threads; ++cpu)
        if (CPU_ISSET(cpu, &allowed)) {
            CPU_SET(cpu, &chosen);
            list += (list.empty() ? "" : ",") + std::to_string(cpu);
            ++count;
        }
    if (count == 0) return "";
    apply_to_every_thread(chosen);
    pinned_ = true;
    std::string text = std::to_string(count) + " CPU" + (count > 1 ? "s" : "") + " (" + list + ")";
    if (threads > available)
        text += ": " + std::to_string(threads) + " threads were asked for, but only " + std::to_string(available) +
                " CPUs are available";
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
