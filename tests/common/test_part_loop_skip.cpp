// The shared per-part loop on a lab that needs no GPU: a yardstick the case skips (PartRun::skip)
// is neither run, nor checked, nor timed, and has no reference computed; its row says why, and
// the part measured against it gets no "%"; a part measured against several yardsticks is
// compared with the fastest. A reference must name its error bound. And host_info's CPU name.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "catch.hpp"
#include "exit_codes.hpp"
#include "host_info.hpp"
#include "lab_main.hpp"

namespace {

struct Counts {
    int slow_runs = 0, references = 0, slow_references = 0;
    bool blank_bound = false;  // the reference forgets to say what error it allows
};
Counts counts;

class CountingCase : public LabCase {
public:
    void setup(const GpuInfo*, cudaStream_t) override {}
    std::string describe() const override { return "a test case"; }
    std::vector<std::pair<std::string, std::string>> settings() const override { return {{"n", "3"}}; }
    double work() const override { return 3; }

    PartRun part(const std::string&) override {
        PartRun run = host_run("out", [this] { out_.assign(3, 2.0); });
        run.yardstick = "slow";  // measured against the skipped one: no "%"
        return run;
    }
    PartRun yardstick(const std::string& name) override {
        if (name == "fast") return host_run("fast_out", [this] { fast_.assign(3, 2.0); });
        PartRun run = host_run("slow_out", [] { ++counts.slow_runs; });
        run.skip = "too slow for this case";
        return run;
    }
    void poison(const std::string& output, cudaStream_t) override {
        (output == "out" ? out_ : fast_).assign(3, std::numeric_limits<double>::quiet_NaN());
    }
    OutputArray download(const std::string& output) override {
        return OutputArray{DType::f64, output == "out" ? out_ : fast_, {}};
    }
    OutputShape output_shape(const std::string&) const override { return {DType::f64, 3}; }
    void load_inputs(const std::string&, uint64_t, cudaStream_t) override {}  // the same constant inputs every run
    Reference reference(const std::string& output, uint64_t, bool) override {
        ++counts.references;
        counts.slow_references += output == "slow_out";
        Reference r;
        r.value.assign(3, 2.0);
        r.bound.assign(3, 0.0);
        r.how = "every element";
        r.bound_name = counts.blank_bound ? "" : "0";
        return r;
    }

private:
    static PartRun host_run(const std::string& output, std::function<void()> work) {
        PartRun run;
        run.output = output;
        run.host_timed = true;
        run.run = [work](Launcher& launch) {
            work();
            launch.note_host_work();
        };
        return run;
    }
    std::vector<double> out_, fast_;
};

LabInfo counting_lab() {
    LabInfo lab;
    lab.name = "counting";
    lab.summary = "a lab for the tests";
    lab.parts = {"p"};
    lab.metrics = {{"units/s", "units", 1}};
    lab.yardsticks = {{"fast", "the fast one"}, {"slow", "the slow one"}};
    lab.needs_gpu = false;
    lab.make_case = [](const ArgParser&, const DriverOptions&) -> std::unique_ptr<LabCase> {
        return std::make_unique<CountingCase>();
    };
    return lab;
}

// What `run_lab` prints on stdout, and its exit code.
int run_captured(const LabInfo& lab, std::vector<std::string> args, std::string& printed) {
    args.insert(args.begin(), lab.name);
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    char path[] = "/tmp/part-loop-test.XXXXXX";
    int file = mkstemp(path);
    REQUIRE(file >= 0);
    std::fflush(stdout);
    int saved = dup(1);
    dup2(file, 1);
    int status = run_lab(lab, int(argv.size()), argv.data());
    std::fflush(stdout);
    dup2(saved, 1);
    close(saved);
    close(file);
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    printed = text.str();
    unlink(path);
    return status;
}

}  // namespace

TEST_CASE("a skipped yardstick is not run, checked or timed, and its row says why", "[part_loop]") {
    counts = Counts{};
    std::string printed;
    CHECK(run_captured(counting_lab(), {"--reps", "2", "--warmup", "1"}, printed) == exit_code::ok);
    INFO(printed);
    CHECK(counts.slow_runs == 0);
    CHECK(counts.slow_references == 0);
    // The part's output and the fast yardstick's, then the part's for its two kept timed runs.
    CHECK(counts.references == 4);
    CHECK_THAT(printed, LAB_CONTAINS("too slow for this case"));
    CHECK_THAT(printed, LAB_CONTAINS("CPU    " + cpu_model_name()));  // the host-timed rows' machine
    std::istringstream lines(printed);
    bool slow_row = false, part_passed = false;
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("slow ", 0) == 0) slow_row = line.find("skipped") != std::string::npos;
        if (line.rfind("p ", 0) == 0) part_passed = line.find("PASS") != std::string::npos;
    }
    CHECK(slow_row);
    CHECK(part_passed);
}

TEST_CASE("a skipped yardstick's CSV row has no time", "[part_loop]") {
    counts = Counts{};
    std::string printed;
    CHECK(run_captured(counting_lab(), {"--reps", "1", "--warmup", "0", "--csv", "--csv-header"}, printed) == exit_code::ok);
    INFO(printed);
    std::istringstream lines(printed);
    std::string header, row;
    std::getline(lines, header);
    CHECK(header.rfind("n,part,block,threads,launches,check,median_ms", 0) == 0);
    bool found = false;
    while (std::getline(lines, row))
        if (row.rfind("3,slow,", 0) == 0) {
            found = true;
            CHECK(row.find(",skipped,,") != std::string::npos);  // check "skipped", no median
        }
    CHECK(found);
    bool part_row = false;
    for (std::istringstream again(printed); std::getline(again, row);)
        if (row.rfind("3,p,", 0) == 0) {
            part_row = true;
            CHECK(row.back() == ',');  // the last column, pct_yardstick, is empty
        }
    CHECK(part_row);
}

namespace {

// A lab whose host clock is the work its runs did: each run of `fast` takes 1 ms, of `slow` 4 ms,
// of a part 2 ms. Part `both` is measured against the faster of the two yardsticks, `one` against
// `slow` alone.
double fake_now_ms = 0;

class ClockedCase : public LabCase {
public:
    void setup(const GpuInfo*, cudaStream_t) override {}
    std::string describe() const override { return "a clocked case"; }
    std::vector<std::pair<std::string, std::string>> settings() const override { return {{"n", "3"}}; }
    double work() const override { return 3; }
    PartRun part(const std::string& name) override {
        PartRun run = timed_run(2);
        run.yardstick = name == "both" ? "slow fast" : "slow";
        return run;
    }
    PartRun yardstick(const std::string& name) override { return timed_run(name == "fast" ? 1 : 4); }
    void poison(const std::string&, cudaStream_t) override {}
    void load_inputs(const std::string&, uint64_t, cudaStream_t) override {}
    OutputArray download(const std::string&) override { return OutputArray{DType::f64, {2.0}, {}}; }
    OutputShape output_shape(const std::string&) const override { return {DType::f64, 1}; }
    Reference reference(const std::string&, uint64_t, bool) override {
        Reference r;
        r.value = {2.0};
        r.bound = {0.0};
        r.how = "every element";
        r.bound_name = "0";
        return r;
    }

private:
    static PartRun timed_run(double ms) {
        PartRun run;
        run.host_timed = true;
        run.run = [ms](Launcher& launch) {
            fake_now_ms += ms;
            launch.note_host_work();
        };
        return run;
    }
};

LabInfo clocked_lab() {
    LabInfo lab;
    lab.name = "clocked";
    lab.summary = "a lab for the tests";
    lab.parts = {"both", "one"};
    lab.metrics = {{"units/s", "units", 1}};
    lab.yardsticks = {{"slow", "the slow one"}, {"fast", "the fast one"}};
    lab.needs_gpu = false;
    lab.host_clock_ms = [] { return fake_now_ms; };
    lab.make_case = [](const ArgParser&, const DriverOptions&) -> std::unique_ptr<LabCase> {
        return std::make_unique<ClockedCase>();
    };
    return lab;
}

}  // namespace

TEST_CASE("a part measured against several yardsticks is compared with the fastest of them", "[part_loop]") {
    std::string printed;
    CHECK(run_captured(clocked_lab(), {"--reps", "3", "--warmup", "1", "--csv"}, printed) == exit_code::ok);
    INFO(printed);
    bool both = false, one = false;
    std::istringstream lines(printed);
    for (std::string row; std::getline(lines, row);) {
        if (row.rfind("3,both,", 0) == 0) both = row.size() > 5 && row.substr(row.size() - 5) == ",50.0";  // 1 ms / 2 ms
        if (row.rfind("3,one,", 0) == 0) one = row.size() > 6 && row.substr(row.size() - 6) == ",200.0";  // 4 ms / 2 ms
    }
    CHECK(both);
    CHECK(one);
}

TEST_CASE("a reference that names no error bound is the driver's mistake, and stops the run", "[part_loop]") {
    counts = Counts{};
    counts.blank_bound = true;
    std::vector<std::string> args = {"counting", "--reps", "1", "--warmup", "0"};
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    CHECK_THROWS_AS(run_lab(counting_lab(), int(argv.size()), argv.data()), std::logic_error);
}

TEST_CASE("the CPU's model comes from /proc/cpuinfo as x86 and ARM kernels write it", "[host_info]") {
    CHECK(cpu_model_from_cpuinfo("processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) Platinum 8480+\n"
                                 "processor\t: 1\nmodel name\t: Intel(R) Xeon(R) Platinum 8480+\n") ==
          "Intel(R) Xeon(R) Platinum 8480+");
    CHECK(cpu_model_from_cpuinfo("processor : 0\nBogoMIPS : 2000.00\nCPU part : 0xd4f\n\nModel : NVIDIA Grace\n") ==
          "NVIDIA Grace");
    CHECK(cpu_model_from_cpuinfo("processor : 0\n").empty());
    CHECK_THAT(cpu_model_name(), LAB_CONTAINS("logical CPUs"));
    CHECK(physical_memory_bytes() > (size_t(64) << 20));
}
