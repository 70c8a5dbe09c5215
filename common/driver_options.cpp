#include "driver_options.hpp"

#include <algorithm>

#include "fail.hpp"
#include "table.hpp"

void declare_driver_options(ArgParser& args, const std::vector<std::string>& part_names) {
    args.option("part", "LIST", "all", "parts to run, comma-separated: " + join_list(part_names, ",") + ", or all");
    args.option("reps", "R", std::to_string(driver_defaults::reps), "timed repetitions (the median is reported); 0: check only");
    args.option("warmup", "W", std::to_string(driver_defaults::warmup), "untimed runs before timing");
    args.option("seed", "S", "1",
                "seed of the checked run's random inputs (every other run draws a seed of its own from the operating "
                "system)");
    args.option("data-seed", "S", "",
                "the checked run computes on the inputs of seed S instead (a FAIL of a timed run names its seed; the "
                "grader's reference for a checked timed run)");
    args.option("sample-seed", "S", "", "seed of the positions a sampled check compares (default: --seed)");
    args.option("check", "HOW", "auto",
                "full (every element), sample (a sample where the lab can), auto (full when cheap), "
                "or none (the grader checks outside)");
    args.option("tolerance", "F", "1", "allowed error, in multiples of the reference's error bound");
    args.option("time-limit", "SECONDS", format_fixed(driver_defaults::time_limit, 0), "stop a part's kernels still running after this long");
    args.option("device", "D", "0", "CUDA device to use");
    args.option("launch-trace", "HOW", "auto",
                "see every launch through CUPTI (common/launch_trace.hpp): auto (where libcupti loads), required "
                "(the grader's: stop when it cannot), or off");
    args.option("out", "DIR", "", "also write results.tsv and each part's output into DIR (used by the grader)");
    args.option("cases", "FILE", "",
                "run several cases in one process: one a line, a name then its options; with --out, "
                "case NAME writes into DIR/NAME");
    args.flag("write-bounds", "with --out: store the error bound beside each output (the grader's reference run)");
    args.flag("reference-outputs",
              "with --out: write the CPU reference's answer, with its error bound, as every part's output, and run "
              "no part (make labN-check's reference run, where there is no reference solution)");
    args.flag("no-yardstick", "skip the yardstick (the library or baseline the parts are compared with)");
    args.flag("csv", "print CSV rows instead of the table");
    args.flag("csv-header", "with --csv: print the column names first");
}

std::vector<std::string> select_parts(const std::string& text, const std::vector<std::string>& known) {
    std::string names = join_list(known, ", ");
    if (text == "all") return known;
    std::vector<std::string> chosen;
    for (const std::string& wanted : split_list(text)) {
        if (std::find(known.begin(), known.end(), wanted) == known.end())
            fail(exit_code::bad_usage, "--part: no part named '" + wanted + "' (parts: " + names + ", or all)");
        chosen.push_back(wanted);
    }
    if (chosen.empty()) fail(exit_code::bad_usage, "--part: no part given (parts: " + names + ", or all)");
    return chosen;
}

DriverOptions read_driver_options(const ArgParser& args, const std::vector<std::string>& part_names) {
    DriverOptions o;
    o.parts = select_parts(args.text("part"), part_names);
    o.reps = int(args.integer("reps", 0, 100000));
    o.warmup = int(args.integer("warmup", 0, 100000));
    o.seed = static_cast<uint64_t>(args.integer("seed", 0, 1ll << 62));
    o.data_seed = args.text("data-seed").empty() ? o.seed : static_cast<uint64_t>(args.integer("data-seed", 0, 1ll << 62));
    o.sample_seed = args.text("sample-seed").empty() ? o.seed : static_cast<uint64_t>(args.integer("sample-seed", 0, 1ll << 62));
    std::string check = args.text("check");
    if (check == "auto") o.check = CheckMode::automatic;
    else if (check == "full") o.check = CheckMode::full;
    else if (check == "sample") o.check = CheckMode::sample;
    else if (check == "none") o.check = CheckMode::none;
    else fail(exit_code::bad_usage, "--check must be auto, full, sample or none, got '" + check + "'");
    o.tolerance = args.number("tolerance", 0, 1e9);
    o.time_limit = args.number("time-limit", 0.1, 86400);
    o.device = int(args.integer("device", 0, 1024));
    if (!parse_launch_trace_mode(args.text("launch-trace"), o.launch_trace))
        fail(exit_code::bad_usage, "--launch-trace must be auto, required or off, got '" + args.text("launch-trace") + "'");
    o.out_dir = args.text("out");
    o.cases_file = args.text("cases");
    o.write_bounds = args.is_set("write-bounds");
    o.reference_outputs = args.is_set("reference-outputs");
    o.no_yardstick = args.is_set("no-yardstick") || o.reference_outputs;
    o.csv = args.is_set("csv");
    o.csv_header = args.is_set("csv-header");
    if (o.reference_outputs && o.out_dir.empty()) fail(exit_code::bad_usage, "--reference-outputs needs --out DIR");
    // The reference's answer goes out with its bounds, and nothing is timed: no part runs.
    if (o.reference_outputs) o.write_bounds = true, o.reps = 0, o.warmup = 0;
    if (o.write_bounds && o.out_dir.empty()) fail(exit_code::bad_usage, "--write-bounds needs --out DIR");
    // The bounds come from the reference: every element's, or, when a sample is asked for (the
    // grader's reference of a checked timed run), the sampled elements' only.
    if (o.write_bounds && o.check != CheckMode::sample) o.check = CheckMode::full;
    return o;
}
