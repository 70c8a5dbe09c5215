// The per-part loop of the shared driver core, without a GPU: a host-timed lab whose part
// reduces its input in place (as lab 5's rungs do), run through run_lab on a clock the test
// controls. Restoring the input before every run keeps every run right and is never timed; a
// yardstick the case leaves without a way to run is left out; a part's note reaches its row.
#include <fcntl.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "lab_main.hpp"
#include "result_files.hpp"

namespace {

double fake_now_ms = 0;  // the lab's clock: restoring adds 1000 ms, the part 2 ms, the yardstick 4 ms

struct Counts {
    int restores = 0, part_runs = 0, runs_on_fresh_input = 0;
};
Counts counts;

class InPlaceCase : public LabCase {
public:
    void setup(const GpuInfo*, cudaStream_t) override { x_ = pristine_; }
    std::string describe() const override { return "four values summed in place"; }
    std::vector<std::pair<std::string, std::string>> settings() const override { return {{"n", "4"}}; }
    double work() const override { return 4; }

    PartRun part(const std::string&) override {
        PartRun run;
        run.host_timed = true;
        run.output = "sum";
        run.run = [this](Launcher& launch) {
            ++counts.part_runs;
            if (x_ == pristine_) ++counts.runs_on_fresh_input;
            for (size_t stride = x_.size() / 2; stride > 0; stride /= 2)  // in place, as the reduction ladder's kernels
                for (size_t i = 0; i < stride; ++i) x_[i] += x_[i + stride];
            sum_ = x_[0];
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
            sum_ = pristine_[0] + pristine_[1] + pristine_[2] + pristine_[3];
            fake_now_ms += 4;
        };
        return run;
    }

    void poison(const std::string&, cudaStream_t) override { sum_ = std::numeric_limits<double>::quiet_NaN(); }
    void restore_inputs(cudaStream_t) override {
        x_ = pristine_;
        ++counts.restores;
        fake_now_ms += 1000;
    }
    OutputArray download(const std::string&) override { return OutputArray{DType::f64, {sum_}, {}}; }
    Reference reference(const std::string&, bool) override {
        Reference r;
        r.value = {10};
        r.bound = {0};
        r.how = "the sum";
        r.bound_name = "0 (exact)";
        return r;
    }

private:
    const std::vector<double> pristine_ = {1, 2, 3, 4};
    std::vector<double> x_;
    double sum_ = 0;
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

TEST_CASE("inputs are restored before every run, outside the timed region", "[part-loop]") {
    char folder[] = "/tmp/part-loop-out-XXXXXX";
    REQUIRE(mkdtemp(folder));
    counts = Counts{};
    std::string printed;
    int status = run_captured({"--reps", "5", "--warmup", "2", "--out", folder}, printed);
    INFO(printed);
    CHECK(status == 0);
    // The part: its checked run, 2 warm-ups and 5 timed runs, each after a restore; the kept
    // yardstick as many again.
    CHECK(counts.part_runs == 8);
    CHECK(counts.runs_on_fresh_input == 8);
    CHECK(counts.restores == 16);

    std::vector<Record> records = read_results(std::string(folder) + "/results.tsv");
    bool found = false;
    for (const Record& r : records)
        if (r.count("record") && r.at("record") == "part") {
            found = true;
            CHECK(r.at("part") == "inplace");
            CHECK(r.at("status") == "ran");
            CHECK(std::stod(r.at("time_ms")) == Approx(2.0));  // the 1000 ms of each restore are not in it
            CHECK(r.at("message").empty());                     // the note is for the screen only
        }
    CHECK(found);
    CHECK(printed.find("sum 10, 1 launch, median 2") != std::string::npos);
    CHECK(printed.find("\nkept ") != std::string::npos);
    CHECK(printed.find("\nleft-out") != std::string::npos);
    CHECK(printed.find("not in this case") != std::string::npos);
    std::system(("rm -rf '" + std::string(folder) + "'").c_str());
}

TEST_CASE("without a restore an in-place part would see its own leftovers", "[part-loop]") {
    // The control for the test above: the same part run twice on one input gives another sum.
    InPlaceCase c;
    c.setup(nullptr, nullptr);
    cudaDeviceProp none{};
    Launcher launch(none, nullptr);
    PartRun run = c.part("inplace");
    run.run(launch);
    double first = c.download("sum").values.at(0);
    run.run(launch);
    double second = c.download("sum").values.at(0);
    CHECK(first == 10);
    CHECK(second != 10);
}
