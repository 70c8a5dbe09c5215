// The options every lab's driver shares, declared and read in one place so that make, the
// sweeps and the grader can speak to any lab the same way (labs/MANIFEST.md, "What the grader
// expects of a driver"). A lab adds its own options (sizes, tile, ...) beside these.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "args.hpp"
#include "launch_trace.hpp"

enum class CheckMode { automatic, full, sample, none };

// The defaults the grader also needs: it reads a case's repetitions from its arguments to know
// which runs' outputs a driver may hand in as checked (grading/lab_plan.cpp).
namespace driver_defaults {
constexpr int reps = 20, warmup = 3;
constexpr double time_limit = 60;
}  // namespace driver_defaults

struct DriverOptions {
    std::vector<std::string> parts;  // --part, resolved against the lab's parts, in the order given
    int reps = driver_defaults::reps, warmup = driver_defaults::warmup;
    uint64_t seed = 1;
    // The seed of the checked run's inputs: the case's own --seed unless --data-seed names one
    // (a seed a timed run drew, which the grader's reference run replays for a student's kept
    // timed run). Every other run draws its own when its inputs are loaded (part_loop.hpp).
    uint64_t data_seed = 1;
    uint64_t sample_seed = 1;  // positions of a sampled check (--check sample); default: the --seed
    CheckMode check = CheckMode::automatic;
    double tolerance = 1;     // allowed error, in multiples of the reference's bound
    double time_limit = driver_defaults::time_limit;  // seconds a part's kernels may run before they are stopped
    int device = 0;
    // --launch-trace: whether every launch is counted through CUPTI (launch_trace.hpp).
    LaunchTraceMode launch_trace = LaunchTraceMode::automatic;
    std::string out_dir;      // --out: results.tsv and each part's output (the grader's channel)
    bool write_bounds = false, no_yardstick = false, csv = false, csv_header = false;
    // --reference-outputs: every part's output is the CPU reference's answer, with its bound;
    // no part runs (the self-check's stand-in for the reference solution, grading/self-check.sh).
    bool reference_outputs = false;
    std::string cases_file;   // --cases: several cases in one process
};

// Declares the shared options (defaults as in DriverOptions).
void declare_driver_options(ArgParser& args, const std::vector<std::string>& part_names);
// Reads and checks them; any mistake stops with exit_code::bad_usage and one clear line.
DriverOptions read_driver_options(const ArgParser& args, const std::vector<std::string>& part_names);
// "all" or a comma-separated list of known names, in the order given.
std::vector<std::string> select_parts(const std::string& text, const std::vector<std::string>& known);
