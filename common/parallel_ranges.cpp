#include "parallel_ranges.hpp"

#include <algorithm>
#include <thread>
#include <vector>

#include "cpu_affinity.hpp"

void parallel_ranges(size_t count, size_t min_per_range, const std::function<void(size_t, size_t)>& body) {
    const size_t threads = std::min(count / std::max<size_t>(min_per_range, 1), size_t(std::max(1, usable_cpus())));
    if (threads <= 1) {
        if (count > 0) body(0, count);
        return;
    }
    std::vector<std::thread> workers;
    workers.reserve(threads - 1);
    // Range t is [count * t / threads, count * (t + 1) / threads): sizes differ by one at most.
    auto begin_of = [&](size_t t) { return count * t / threads; };
    for (size_t t = 1; t < threads; ++t) workers.emplace_back(body, begin_of(t), begin_of(t + 1));
    body(0, begin_of(1));
    for (std::thread& worker : workers) worker.join();
}
