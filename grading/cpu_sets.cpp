#include "cpu_sets.hpp"

#include <algorithm>

namespace {
std::string range(int first, int count) { return std::to_string(first) + "-" + std::to_string(first + count - 1); }
}  // namespace

CpuSets cpu_sets(int cpus, int gpus) {
    CpuSets sets;
    if (gpus < 1 || cpus < 1) return sets;
    const int kept = cpus / gpus >= kCpusPerGpuToKeepSome ? cpus / 4 : 0;  // at least 2
    int slice = (cpus - kept) / gpus;
    for (int g = 0; g < gpus; ++g) sets.timed.push_back(slice >= 1 ? range(g * slice, slice) : "");
    if (kept > 0) sets.beside = range(cpus - kept, kept);
    sets.runners = std::min(4, std::max(1, cpus / 4 / gpus));
    return sets;
}
