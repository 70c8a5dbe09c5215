// --reference-outputs, the reference side of `make labN-check`, is built on the lab's starter.
// It must write the CPU reference's answer in each output's shape without touching anything of
// the student file's: here every such touch (the part, its inputs, its output buffers) throws,
// as a starter's missing device matrix crashed lab 2's and lab 7's self-checks.
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "catch.hpp"
#include "exit_codes.hpp"
#include "lab_main.hpp"
#include "result_files.hpp"

namespace {

// Whether the reference is a sample of positions 1 and 4 of the 6 elements (as a large case's
// checked-run reference is), or every element.
bool sampled = false;

class StarterCase : public LabCase {
public:
    void setup(const GpuInfo*, cudaStream_t) override {}
    std::string describe() const override { return "a starter whose buffers do not exist"; }
    std::vector<std::pair<std::string, std::string>> settings() const override { return {{"n", "6"}}; }
    double work() const override { return 6; }

    PartRun part(const std::string&) override {
        PartRun run;
        run.output = "y";
        run.host_timed = true;
        run.run = [](Launcher&) -> void { throw std::logic_error("the part ran"); };
        return run;
    }
    void poison(const std::string&, cudaStream_t) override { throw std::logic_error("the output was poisoned"); }
    void load_inputs(const std::string&, uint64_t, cudaStream_t) override { throw std::logic_error("inputs were loaded"); }
    OutputArray download(const std::string&) override { throw std::logic_error("the output was downloaded"); }
    OutputShape output_shape(const std::string&) const override { return {DType::i32, 6}; }
    Reference reference(const std::string&, uint64_t seed, bool) override {
        Reference r;
        if (sampled) r.positions = {1, 4};
        for (size_t i = 0; i < (sampled ? 2u : 6u); ++i) {
            r.value.push_back(double(10 * seed + i + 1));
            r.bound.push_back(0.0);
        }
        r.how = sampled ? "2 elements" : "every element";
        r.bound_name = "0 (exact)";
        return r;
    }
};

LabInfo starter_lab() {
    LabInfo lab;
    lab.name = "starter";
    lab.summary = "a lab for the tests";
    lab.parts = {"p"};
    lab.metrics = {{"units/s", "units", 1}};
    lab.needs_gpu = false;
    lab.make_case = [](const ArgParser&, const DriverOptions&) -> std::unique_ptr<LabCase> {
        return std::make_unique<StarterCase>();
    };
    return lab;
}

// Runs the lab with --reference-outputs into a fresh folder; returns the part's output file.
OutputArray reference_output_of_run(const std::string& data_seed, int& status) {
    char folder[] = "/tmp/reference-outputs-test.XXXXXX";
    REQUIRE(mkdtemp(folder) != nullptr);
    std::vector<std::string> args = {"starter", "--reference-outputs", "--out", folder, "--data-seed", data_seed};
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    status = run_lab(starter_lab(), int(argv.size()), argv.data());
    OutputArray output;
    const std::string file = std::string(folder) + "/p.out";
    if (std::filesystem::exists(file)) output = read_output_array(file);
    std::filesystem::remove_all(folder);
    return output;
}

}  // namespace

TEST_CASE("--reference-outputs writes the whole reference without running or reading the part", "[part_loop]") {
    sampled = false;
    int status = -1;
    OutputArray output = reference_output_of_run("3", status);
    CHECK(status == exit_code::ok);
    CHECK(output.dtype == DType::i32);
    CHECK(output.values == std::vector<double>{31, 32, 33, 34, 35, 36});  // seed 3's inputs, not --seed 1's
    CHECK(output.bound == std::vector<double>(6, 0.0));
}

TEST_CASE("--reference-outputs writes a sampled reference in the output's shape, the rest unbounded", "[part_loop]") {
    sampled = true;
    int status = -1;
    OutputArray output = reference_output_of_run("0", status);
    CHECK(status == exit_code::ok);
    REQUIRE(output.values.size() == 6);
    CHECK(output.values[1] == 1);
    CHECK(output.values[4] == 2);
    for (size_t i : {0, 2, 3, 5}) CHECK(std::isnan(output.bound[i]));
    CHECK(output.bound[1] == 0.0);
    CHECK(output.bound[4] == 0.0);
}
