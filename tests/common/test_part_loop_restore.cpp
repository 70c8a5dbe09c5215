// The per-part loop of the shared driver core, without a GPU: a host-timed lab whose part
// reduces its input in place (as lab 5's rungs do), run through run_lab on a clock the test
// controls. Every run gets inputs of its own, loaded outside the timed region, from a seed drawn
// as they are loaded (the checked run's is the case's); whether a timed run keeps its output is
// decided once it has ended, and the two kept are checked and written for the grader with their
// seeds, so a part that keeps its first result fails; a yardstick the case leaves without a way
// to run is left out; a part's note reaches its row.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "exit_codes.hpp"
#include "lab_main.hpp"
#include "result_files.hpp"

namespace {

double fake_now_ms = 0;  // the lab's clock: loading inputs adds 1000 ms, the part 2 ms, the yardstick 4 ms

struct Counts {
    int loads = 0, part_runs = 0, runs_on_fresh_input = 0;
    std::vector<uint64_t> seeds;   // the seed of the inputs each load put in place, in order
    std::vector<char> events;      // 'l' a load, 'r' a run of the part or the yardstick, 'd' a download
};
Counts counts;
bool keep_first_result = false;  // the part computes once and hands its first sum in ever after

// The four values drawn from `seed`: 1 2 3 4, shifted by a whole number from `seed` (below
// 2^20, so that every sum is exact).
double shift_of(uint64_t seed) { return double(seed % (1u << 20)); }
std::vector<double> inputs_of(uint64_t seed) {
    double shift = shift_of(seed);
    return {1 + shift, 2 + shift, 3 + shift, 4 + shift};
}

class InPlaceCase : public LabCase {
public:
    void setup(const GpuInfo*, cudaStream_t) override {}
    std::string describe() const override { return "four values summed in place"; }
    std::vector<std::pair<std::string, std::string>> settings() const override { return {{"n", "4"}}; }
    double work() const override { return 4; }

    PartRun part(const std::string&) override {
        PartRun run;
        run.host_timed = true;
        run.output = "sum";
        run.run = [this](Launcher& launch) {
            ++counts.part_runs;
            counts.events.push_back('r');
            if (x_ == inputs_of(loaded_)) ++counts.runs_on_fresh_input;
            if (keep_first_result && kept_) {
                sum_ = *kept_;
            } else {
                for (size_t stride = x_.size() / 2; stride > 0; stride /= 2)  // in place, as the reduction ladder's kernels
                    for (size_t i = 0; i < stride; ++i) x_[i] += x_[i + stride];
                sum_ = x_[0];
                kept_ = sum_;
            }
            fake_now_ms += 2;
            launch.note_host_work();
        };
        run.note = [](const PartResult& r) {
            std::ostringstream text;
            text << "sum " << r.output->values.at(0) << ", " << r.launches->size() << " launch, median " << r.median_ms;
            return text.str();
        };
        return run;
    }
    PartRun yardstick(const std::string& name) override {
        PartRun run;
        if (name == "left-out") {  // not in this case: its row says so, nothing runs
            run.skip = "not in this case";
            return run;
        }
        run.host_timed = true;
        run.output = "sum";
        run.run = [this](Launcher&) {
            counts.events.push_back('r');
            sum_ = x_[0] + x_[1] + x_[2] + x_[3];
            fake_now_ms += 4;
        };
        return run;
    }

    void poison(const std::string&, cudaStream_t) override { sum_ = std::numeric_limits<double>::quiet_NaN(); }
    void load_inputs(const std::string&, uint64_t seed, cudaStream_t) override {
        x_ = inputs_of(seed);
        loaded_ = seed;
        ++counts.loads;
        counts.seeds.push_back(seed);
        counts.events.push_back('l');
        fake_now_ms += 1000;
    }
    OutputArray download(const std::string&) override {
        counts.events.push_back('d');
        return OutputArray{DType::f64, {sum_}, {}};
    }
    OutputShape output_shape(const std::string&) const override { return {DType::f64, 1}; }
    Reference reference(const std::string&, uint64_t seed, bool) override {
        Reference r;
        r.value = {10 + 4 * shift_of(seed)};
        r.bound = {0};
        r.how = "the sum";
        r.bound_name = "0 (exact)";
        return r;
    }

private:
    std::vector<double> x_;
    uint64_t loaded_ = 0;
    double sum_ = 0;
    std::optional<double> kept_;
};

LabInfo in_place_lab() {
    LabInfo lab;
    lab.name = "inplace-test";
    lab.summary = "a host lab whose part works in place";
    lab.parts = {"inplace"};
    lab.metrics = {{"values/s", "values", 1, Metric::Bound::none}};
    lab.yardsticks = {{"kept", "a kept yardstick"}, {"left-out", "a yardstick this case leaves out"}};
    lab.needs_gpu = false;
    lab.host_clock_ms = [] { return fake_now_ms; };
    lab.make_case = [](const ArgParser&, const DriverOptions&) -> std::unique_ptr<LabCase> {
        return std::make_unique<InPlaceCase>();
    };
    return lab;
}

// Runs the lab with `args`, its standard output into a string.
int run_captured(std::vector<std::string> args, std::string& printed) {
    args.insert(args.begin(), "inplace-test");
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    char path[] = "/tmp/part-loop-test-XXXXXX";
    int file = mkstemp(path);
    REQUIRE(file >= 0);
    std::fflush(stdout);
    int saved = dup(1);
    dup2(file, 1);
    int status = run_lab(in_place_lab(), int(argv.size()), argv.data());
    std::fflush(stdout);
    dup2(saved, 1);
    close(saved);
    close(file);
    std::ifstream in(path);
    printed.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    std::remove(path);
    return status;
}

}  // namespace

// The part's record in results.tsv.
Record part_record(const std::string& folder) {
    for (const Record& r : read_results(folder + "/results.tsv"))
        if (r.count("record") && r.at("record") == "part") return r;
    FAIL("no part record in " << folder);
    return {};
}

// The words of a record's field, as numbers.
std::vector<uint64_t> numbers_in(const Record& r, const std::string& key) {
    std::istringstream words(r.count(key) ? r.at(key) : "");
    return {std::istream_iterator<uint64_t>(words), std::istream_iterator<uint64_t>()};
}

TEST_CASE("every run gets inputs of its own, from a seed drawn as they are loaded, outside the timed region",
          "[part-loop]") {
    char folder[] = "/tmp/part-loop-out-XXXXXX";
    REQUIRE(mkdtemp(folder));
    counts = Counts{};
    keep_first_result = false;
    std::string printed;
    int status = run_captured({"--reps", "5", "--warmup", "2", "--seed", "77", "--out", folder}, printed);
    INFO(printed);
    CHECK(status == 0);
    // The kept yardstick first, then the part: each its checked run on the case's seed, then 2
    // warm-ups and 5 timed runs, each after loading inputs of its own, from a seed no other run
    // has (drawn from the operating system: no two of 14 alike, none the case's).
    CHECK(counts.part_runs == 8);
    CHECK(counts.runs_on_fresh_input == 8);
    REQUIRE(counts.loads == 16);
    CHECK(counts.seeds[0] == 77);
    CHECK(counts.seeds[8] == 77);
    std::vector<uint64_t> drawn(counts.seeds.begin() + 1, counts.seeds.begin() + 8);
    drawn.insert(drawn.end(), counts.seeds.begin() + 9, counts.seeds.end());
    std::sort(drawn.begin(), drawn.end());
    CHECK(std::adjacent_find(drawn.begin(), drawn.end()) == drawn.end());
    CHECK(std::count(drawn.begin(), drawn.end(), uint64_t(77)) == 0);
    for (uint64_t seed : drawn) CHECK(seed < (uint64_t(1) << 62));  // what --data-seed takes

    Record r = part_record(folder);
    CHECK(r.at("part") == "inplace");
    CHECK(r.at("status") == "ran");
    CHECK(std::stod(r.at("time_ms")) == Approx(2.0));  // the 1000 ms of each load are not in it
    CHECK(r.at("message").empty());                     // the note is for the screen only
    // Two distinct timed runs (indices 3 to 7, after the warm-ups 1 and 2) kept their outputs,
    // each the sum of that run's own inputs, and their seeds are those the runs loaded.
    std::vector<uint64_t> kept = numbers_in(r, "checked_runs"), seeds = numbers_in(r, "checked_seeds");
    REQUIRE(kept.size() == 2);
    REQUIRE(seeds.size() == 2);
    CHECK(kept[0] < kept[1]);
    for (size_t k = 0; k < 2; ++k) {
        CHECK(kept[k] >= 3);
        CHECK(kept[k] <= 7);
        CHECK(seeds[k] == counts.seeds.at(8 + kept[k]));  // the part's loads: its checked run, then runs 1 to 7
        OutputArray out = read_output_array(std::string(folder) + "/inplace.run" + std::to_string(kept[k]) + ".out");
        CHECK(out.values.at(0) == 10 + 4 * shift_of(seeds[k]));
    }
    CHECK(read_output_array(std::string(folder) + "/inplace.out").values.at(0) == 10 + 4 * shift_of(77));  // the checked run's

    CHECK(printed.find("sum " + std::to_string(int(10 + 4 * shift_of(77))) + ", 1 launch, median 2") != std::string::npos);
    CHECK(printed.find("\nkept ") != std::string::npos);
    CHECK(printed.find("\nleft-out") != std::string::npos);
    CHECK(printed.find("not in this case") != std::string::npos);
    std::system(("rm -rf '" + std::string(folder) + "'").c_str());
}

TEST_CASE("whether a timed run is kept is decided once it has ended: its output is fetched before the next run's inputs",
          "[part-loop]") {
    char folder[] = "/tmp/part-loop-out-XXXXXX";
    REQUIRE(mkdtemp(folder));
    counts = Counts{};
    std::string printed;
    CHECK(run_captured({"--reps", "20", "--warmup", "0", "--part", "inplace", "--no-yardstick", "--out", folder}, printed) ==
          0);
    INFO(printed);
    // The checked run (load, run, its output fetched), then 20 timed runs, each a load and a run,
    // and after a run the output of those that are kept, the first two always (nothing is held
    // yet), each later one with chance 2/t: never a fetch between a run's load and the run.
    const std::string events(counts.events.begin(), counts.events.end());
    INFO(events);
    REQUIRE(events.substr(0, 3) == "lrd");
    CHECK(events.substr(3, 6) == "lrdlrd");
    size_t fetched = 0;
    for (size_t i = 3; i < events.size(); ++i) {
        if (events[i] == 'd') {
            ++fetched;
            CHECK(events[i - 1] == 'r');
        }
    }
    CHECK(std::count(events.begin(), events.end(), 'r') == 21);
    CHECK(fetched >= 2);
    CHECK(fetched <= 20);
    CHECK(numbers_in(part_record(folder), "checked_runs").size() == 2);
    std::system(("rm -rf '" + std::string(folder) + "'").c_str());
}

TEST_CASE("a part that hands in its first result again fails the check of a kept timed run", "[part-loop]") {
    counts = Counts{};
    keep_first_result = true;
    std::string printed;
    int status = run_captured({"--reps", "5", "--warmup", "2", "--part", "inplace"}, printed);
    keep_first_result = false;
    INFO(printed);
    CHECK(status == exit_code::wrong_result);
    CHECK(printed.find("the checked run was right, but timed run ") != std::string::npos);
    CHECK(printed.find("(inputs of its own, --data-seed ") != std::string::npos);
    CHECK(printed.find(") is wrong") != std::string::npos);
}

TEST_CASE("--data-seed S makes the checked run compute on seed S's inputs, and --reps 0 times nothing", "[part-loop]") {
    char folder[] = "/tmp/part-loop-out-XXXXXX";
    REQUIRE(mkdtemp(folder));
    counts = Counts{};
    std::string printed;
    CHECK(run_captured({"--reps", "0", "--data-seed", "4611686018427387903", "--part", "inplace", "--write-bounds",
                        "--out", folder},
                       printed) == 0);
    INFO(printed);
    CHECK(counts.part_runs == 1);  // its checked run, nothing timed
    const uint64_t seed = 4611686018427387903ull;  // 2^62 - 1: the largest a drawn seed can be
    CHECK(counts.seeds == std::vector<uint64_t>{seed, seed});  // the yardstick's, then the part's
    Record r = part_record(folder);
    CHECK(r.count("time_ms") == 0);
    CHECK(r.count("checked_runs") == 0);
    CHECK(r.count("checked_seeds") == 0);
    OutputArray out = read_output_array(std::string(folder) + "/inplace.out");
    CHECK(out.values.at(0) == 10 + 4 * shift_of(seed));
    CHECK(out.bound.size() == 1);
    std::system(("rm -rf '" + std::string(folder) + "'").c_str());
}

TEST_CASE("without fresh inputs an in-place part would see its own leftovers", "[part-loop]") {
    // The control for the tests above: the same part run twice on one input gives another sum.
    InPlaceCase c;
    c.setup(nullptr, nullptr);
    c.load_inputs("inplace", 1, nullptr);
    cudaDeviceProp none{};
    Launcher launch(none, nullptr);
    PartRun run = c.part("inplace");
    run.run(launch);
    double first = c.download("sum").values.at(0);
    run.run(launch);
    double second = c.download("sum").values.at(0);
    CHECK(first == 10 + 4 * shift_of(1));
    CHECK(second != first);
}
