// Work split over the CPUs a process may use, for the CPU references: at a performance case's
// size the O(n^3) ones (a 5000 x 1000 x 5000 multiply, a 4096 x 4096 convolution with a 17 x 17
// filter) took tens of seconds on one core, in every reference run the grader makes and in
// every full check a student asks for.
#pragma once
#include <cstddef>
#include <functional>

// Runs body(begin, end) on contiguous ranges that together cover [0, count), each range in a
// thread of its own: as many threads as the process has CPUs, fewer where a range would hold
// fewer than min_per_range items (a thread costs tens of microseconds to start, so a small
// problem runs on the calling thread alone); returns when all are done. A body that computes
// each item on its own gives the same answer whatever the number of threads. It must not throw.
void parallel_ranges(size_t count, size_t min_per_range, const std::function<void(size_t begin, size_t end)>& body);

// The min_per_range for items of `work_per_item` operations each: a range of at least 100,000,
// tens of microseconds of work, as long as starting its thread takes.
inline size_t items_per_range(double work_per_item) {
    return work_per_item >= 1e5 ? 1 : size_t(1e5 / (work_per_item > 1 ? work_per_item : 1));
}
