// Which timed runs keep their outputs for the check (common/kept_runs.hpp): two, each decided
// once its run has ended, every run equally likely to end among them; only the kept are
// fetched; and the runs' input seeds, drawn from the OS (common/os_random.hpp).
#include <algorithm>
#include <set>
#include <vector>

#include "catch.hpp"
#include "kept_runs.hpp"
#include "os_random.hpp"

namespace {

OutputArray output_of(uint64_t index) { return OutputArray{DType::f64, {double(index)}, {}}; }

// The kept runs' indices after offering runs first .. first + count - 1.
std::vector<uint64_t> keep_among(KeptRuns& kept, uint64_t first, uint64_t count, int* fetched = nullptr) {
    for (uint64_t i = first; i < first + count; ++i)
        kept.offer(i, 1000 + i, [&] {
            if (fetched) ++*fetched;
            return output_of(i);
        });
    std::vector<uint64_t> indices;
    for (const KeptRun& run : kept.take()) {
        CHECK(run.seed == 1000 + run.index);  // each kept run with its own seed and output
        CHECK(run.output.values.at(0) == double(run.index));
        indices.push_back(run.index);
    }
    return indices;
}

}  // namespace

TEST_CASE("one timed run is kept; of several, two distinct ones, in order", "[kept-runs]") {
    KeptRuns kept;
    CHECK(keep_among(kept, 5, 1) == std::vector<uint64_t>{5});
    CHECK(keep_among(kept, 5, 0).empty());
    for (int trial = 0; trial < 50; ++trial) {
        std::vector<uint64_t> two = keep_among(kept, 9, 20);
        REQUIRE(two.size() == 2);
        CHECK(two[0] < two[1]);
        CHECK(two[0] >= 9);
        CHECK(two[1] < 29);
    }
}

TEST_CASE("every timed run ends among the kept with the same chance, two in reps", "[kept-runs]") {
    // 3000 sets of 5 runs: each run is kept 1200 times on average (chance 2/5), with a standard
    // deviation of 27; six of them either way never happen by chance.
    KeptRuns kept;
    std::vector<int> times_kept(5, 0);
    for (int trial = 0; trial < 3000; ++trial)
        for (uint64_t index : keep_among(kept, 0, 5)) ++times_kept[index];
    for (int count : times_kept) {
        CHECK(count > 1200 - 6 * 27);
        CHECK(count < 1200 + 6 * 27);
    }
}

TEST_CASE("a run's output is fetched only when it is kept, and no more than two are held", "[kept-runs]") {
    // A generator that never picks a slot past the first two: after the first two, each run
    // replaces the first one kept, so the last run offered and the second are left.
    KeptRuns kept(2, [](uint64_t) { return uint64_t(0); });
    int fetched = 0;
    CHECK(keep_among(kept, 0, 6, &fetched) == std::vector<uint64_t>{1, 5});
    CHECK(fetched == 6);
    // ... and one that never picks one: only the first two are fetched, and kept.
    KeptRuns never(2, [](uint64_t n) { return n - 1; });
    fetched = 0;
    CHECK(keep_among(never, 0, 6, &fetched) == std::vector<uint64_t>{0, 1});
    CHECK(fetched == 2);
}

TEST_CASE("a run's seed is drawn from the operating system, in the range --data-seed takes", "[kept-runs]") {
    std::set<uint64_t> seen;
    for (int i = 0; i < 1000; ++i) {
        uint64_t seed = fresh_input_seed();
        CHECK(seed < (uint64_t(1) << 62));
        seen.insert(seed);
    }
    CHECK(seen.size() == 1000);
    for (uint64_t n : {uint64_t(1), uint64_t(2), uint64_t(7), uint64_t(1) << 40}) CHECK(os_random_below(n) < n);
    CHECK(os_random_below(1) == 0);
}
