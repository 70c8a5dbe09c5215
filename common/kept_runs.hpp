// Which of a part's timed runs keep their outputs for the check: two (one when there is one
// timed run), each decided once that run has ended, from the operating system's random source
// (reservoir sampling). Run t of a part is kept with chance 2/t, replacing one of the two held
// at random, so every timed run ends among the kept with the same chance, 2/reps, and no more
// than two outputs are ever held. Nothing exists before a run that says whether it will be
// kept, and what a part may see afterwards (which earlier runs were kept) says nothing of the
// next: a part that skips the work in any run risks being caught there.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "os_random.hpp"
#include "result_files.hpp"

struct KeptRun {
    uint64_t index = 0;  // the run's index (run_schedule.hpp)
    uint64_t seed = 0;   // what its inputs were drawn from: the grader's reference replays it
    OutputArray output;
};

class KeptRuns {
public:
    // below(n): uniform in [0, n); the tests pass a generator of their own.
    explicit KeptRuns(size_t capacity = 2, std::function<uint64_t(uint64_t)> below = os_random_below)
        : capacity_(capacity), below_(std::move(below)) {}

    // After timed run `index` (inputs from `seed`) has ended, with the device idle: whether it
    // is kept is drawn now; `download` fetches its output and is called only when it is.
    void offer(uint64_t index, uint64_t seed, const std::function<OutputArray()>& download) {
        ++offered_;
        if (capacity_ == 0) return;
        if (kept_.size() < capacity_) {
            kept_.push_back({index, seed, download()});
            return;
        }
        uint64_t slot = below_(offered_);
        if (slot < capacity_) kept_[slot] = KeptRun{index, seed, download()};
    }

    // The runs kept, in the order they ran; the next part starts from none.
    std::vector<KeptRun> take() {
        std::vector<KeptRun> runs = std::move(kept_);
        std::sort(runs.begin(), runs.end(), [](const KeptRun& a, const KeptRun& b) { return a.index < b.index; });
        clear();
        return runs;
    }
    void clear() {
        kept_.clear();
        offered_ = 0;
    }

private:
    size_t capacity_;
    std::function<uint64_t(uint64_t)> below_;
    uint64_t offered_ = 0;
    std::vector<KeptRun> kept_;
};
