// Lab 3's partial buffer, on a GPU: the driver gives the diameter ceil(n * n / (block * block))
// ints of partial maxima (diameter_partial_capacity, lab3.hpp). A diameter written as the
// handout describes it (one element a thread, block x block threads a block, one partial a
// block) must fit, at every --block the driver accepts: a kernel of that shape
// (handout_diameter.cu) runs at each one into a buffer of exactly that size followed by a guard
// it must not touch.
#include <algorithm>
#include <vector>

#include "catch.hpp"
#include "floyd.h"
#include "gpu_fixture.hpp"
#include "handout_diameter.hpp"
#include "lab3.hpp"
#include "launch_limits.hpp"
#include "reference.hpp"

TEST_CASE("the partial buffer holds a diameter written as the handout says, at every --block the driver accepts",
          "[gpu][lab3]") {
    const int max_threads = gpu().info.prop.maxThreadsPerBlock;
    for (long long block = 1; block <= 4096; ++block) {
        if (!lab3_block_accepted(block)) continue;
        const size_t threads = size_t(block) * size_t(block);
        if (threads > size_t(max_threads)) {
            // The launcher refuses such a block for every part: nothing writes the buffer.
            INFO("--block " << block);
            CHECK_THROWS_AS(run_handout_diameter_pass({}, threads, 0, 0, gpu().info.prop, gpu().stream), LaunchRefused);
            continue;
        }
        for (int n : {1, 2, 3, 37, 70, 131}) {
            INFO("n " << n << ", --block " << block);
            const size_t count = size_t(n) * n, capacity = diameter_partial_capacity(n, int(block));
            std::vector<int> dist(count);
            for (size_t i = 0; i < count; ++i) dist[i] = i % 7 == 3 ? FW_INF : int(i % 1000);
            const size_t guard = 1024, blocks = (count + threads - 1) / threads;
            std::vector<int> got = run_handout_diameter_pass(dist, threads, capacity, guard, gpu().info.prop, gpu().stream);
            int untouched = 0x5A5A5A5A, wrote_past = 0, best = 0;
            for (size_t i = capacity; i < got.size(); ++i) wrote_past += got[i] != untouched;
            for (size_t i = 0; i < blocks; ++i) best = std::max(best, got[i]);
            CHECK(blocks <= capacity);
            CHECK(wrote_past == 0);
            CHECK(best == diameter_cpu(dist.data(), count));
        }
    }
}
