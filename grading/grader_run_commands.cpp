// The grader's commands of the runs (grader_commands.hpp): a student x lab's runs of a round,
// the reference's cases files and runs and the samples of the checked timed runs, the outputs
// checked as the runs end, when to time the reference, and the progress line.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <set>
#include <vector>

#include "cases_file.hpp"
#include "checked_runs.hpp"
#include "fail.hpp"
#include "grader_commands.hpp"
#include "output_check.hpp"
#include "output_verdicts.hpp"
#include "progress.hpp"
#include "reference_run.hpp"
#include "run_evidence.hpp"
#include "run_group.hpp"
#include "scoring.hpp"
#include "table.hpp"
#include "timing_schedule.hpp"

namespace {

// A checked timed run as grade.sh names it, CASE/SEED/PART (SEED: its inputs').
std::string checked_run_item(const CheckedRun& run) {
    const auto& [case_name, seed, part] = run;
    return case_name + "/" + std::to_string(seed) + "/" + part;
}

std::vector<CheckedRun> checked_run_items(const std::string& words) {
    std::vector<CheckedRun> runs;
    for (const std::string& item : split_words(words)) {
        const size_t first = item.find('/'), second = item.find('/', first + 1);
        const std::string seed = second == std::string::npos ? "" : item.substr(first + 1, second - first - 1);
        if (first == 0 || seed.empty() || seed.size() > 19 || seed.find_first_not_of("0123456789") != std::string::npos ||
            second + 1 == item.size())
            fail(exit_code::bad_usage, "a checked timed run is CASE/SEED/PART, not '" + item + "'");
        runs.emplace_back(item.substr(0, first), std::stoull(seed), item.substr(second + 1));
    }
    return runs;
}

}  // namespace

// The cases file of one process of the grading run (cases_file.hpp), and what it runs, a line
// each: its cases, or with --for checked-runs the runs whose sample was still missing (none:
// no file).
int cmd_cases_file(ArgParser& args, int argc, char** argv) {
    lab_options(args);
    wall_options(args);
    args.option("for", "USE", "graded", "graded (items CASE/PARTS), reference-outputs, reference-timing (items CASE) "
                                        "or checked-runs (items CASE/SEED/PART)");
    args.option("items", "LIST", "", "what to run, blank-separated");
    args.option("out", "FILE", "", "the cases file");
    args.option("reference", "DIR", "", "checked-runs: the reference outputs; a run whose sample is there is left out");
    args.option("seed", "S", "1", "checked-runs: the grading run's secret sample seed (without --plan)");
    args.option("wall-out", "FILE", "", "where to write the wall clock of one process running them, whole seconds "
                                        "(a student's batch's, run_ledger.hpp: the reference's runs have no budget)");
    args.parse(argc, argv);
    LabPlan plan = plan_from(args);
    const std::string use = args.text("for"), out = args.text("out");
    if (out.empty()) fail(exit_code::bad_usage, "--out is required");
    std::vector<std::string> printed;
    std::vector<std::string> cases_run;  // the manifest's, for the wall
    CasesFile file;
    if (use == "checked-runs") {
        std::vector<CheckedRun> missing;
        for (const CheckedRun& run : checked_run_items(args.text("items"))) {
            const auto& [case_name, seed, part] = run;
            if (exists(args.text("reference") + "/" + checked_run_sample(case_name, part, seed))) continue;
            missing.push_back(run);
            printed.push_back(checked_run_item(run));
            cases_run.push_back(case_name);
        }
        if (missing.empty()) return 0;
        file = make_checked_run_cases_file(plan, wall_rules_from(args), missing,
                                           sample_seed_of(args, "seed"));
    } else {
        const std::map<std::string, CasesUse> uses = {{"graded", CasesUse::graded},
                                                      {"reference-outputs", CasesUse::reference_outputs},
                                                      {"reference-timing", CasesUse::reference_timing}};
        if (!uses.count(use)) fail(exit_code::bad_usage, "--for " + use + ": not a use of a cases file");
        file = make_cases_file(plan, wall_rules_from(args), uses.at(use), split_words(args.text("items")));
        printed = file.cases;
        cases_run = file.cases;
    }
    if (file.lines.empty()) fail(exit_code::bad_usage, "--items names nothing to run");
    write_cases_file(out, file.lines);
    if (!args.text("wall-out").empty())
        write_file(args.text("wall-out"), std::to_string(batch_wall_of(plan, wall_rules_from(args), cases_run)) + "\n");
    for (const std::string& line : printed) std::printf("%s\n", line.c_str());
    return 0;
}

// grader run-group: one student x lab's runs in one round (run_group.hpp), for grading/lib/runs.sh.
// The sandbox command and its options for this runner come after "--". Exit 0 when done,
// kRunAgainAlone when the GPU may have been short while shared (nothing of the ledger written),
// kAskTheGpu when done but a run may have taken the GPU down.
int cmd_run_group(ArgParser& args, int argc, char** argv) {
    int own = 1;
    while (own < argc && std::string(argv[own]) != "--") ++own;
    lab_options(args);
    wall_options(args);
    args.option("dir", "DIR", "", "the student x lab's folder (runs/, sanitize/)");
    args.option("built", "DIR", "", "its built work folder: each process runs in a fresh copy, DIR.run");
    args.option("ledger", "FILE", "", "its run-time ledger, started when missing");
    args.option("budget", "S", "0", "the budget of a ledger started here (0: three of the lab's longest process walls)");
    args.option("uid", "UID", "", "the sandbox uid the copies are lent to (none: the grader's own user)");
    args.option("gpu", "ID", "0", "the GPU of every run (CUDA_VISIBLE_DEVICES)");
    args.option("cpus", "LIST", "", "the CPUs of a timed run (sandbox.sh --cpus)");
    args.flag("shared", "the GPU is shared with other runners: a run short of GPU memory asks for the group alone");
    args.option("driver-args", "WORDS", "", "the driver's options before --cases, blank-separated");
    args.option("output-limit", "BYTES", std::to_string(256ll << 20), "what a process may write");
    args.flag("sanitize", "first the lab's sanitizer tools on its sanitize case");
    args.option("sanitizer-script", "FILE", "", "mk/sanitize.sh (none: compute-sanitizer is not installed)");
    args.option("cases", "LIST", "", "the cases to run every part of, blank-separated");
    args.option("time-again", "LIST", "", "timed cases whose right parts slower than full points are timed once more");
    args.option("reference", "DIR", "", "--time-again: the reference outputs");
    args.option("timing", "DIR", "", "--time-again: the reference's timings on this GPU");
    args.flag("hidden", "the cases are hidden: their copies get the lab's hidden data");
    args.option("hidden-data", "DIR", "", "the lab's hidden data (grading/hidden/LAB)");
    args.parse(own, argv);
    if (own + 1 >= argc) fail(exit_code::bad_usage, "the sandbox command is required after --");

    RunGroupSetup setup;
    setup.plan = plan_from(args), setup.rules = wall_rules_from(args);
    setup.dir = args.text("dir"), setup.built = args.text("built"), setup.ledger_path = args.text("ledger");
    if (setup.dir.empty() || setup.built.empty() || setup.ledger_path.empty())
        fail(exit_code::bad_usage, "--dir, --built and --ledger are required");
    setup.budget = args.integer("budget", 0, 1ll << 40);
    if (!args.text("uid").empty()) setup.uid = int(args.integer("uid", 1, 1 << 30));
    setup.gpu = args.text("gpu"), setup.cpus = args.text("cpus"), setup.shared = args.is_set("shared");
    setup.hidden_data = args.text("hidden-data");
    setup.driver_args = split_words(args.text("driver-args"));
    setup.output_limit = args.integer("output-limit", 1, 1ll << 50);
    setup.sandbox.assign(argv + own + 1, argv + argc);

    RunGroupWork work;
    work.sanitize = args.is_set("sanitize");
    if (work.sanitize && !args.text("sanitizer-script").empty()) {
        work.sanitize_script = read_file(args.text("sanitizer-script"));
        if (work.sanitize_script.empty()) fail(exit_code::io_error, "cannot read " + args.text("sanitizer-script"));
    }
    work.cases = split_words(args.text("cases"));
    work.hidden = args.is_set("hidden");
    std::vector<std::string> log;
    if (!args.text("time-again").empty()) {
        // The second timing is the grader's choice; when it cannot tell which parts, none is run.
        try {
            ScoringInputs inputs{setup.dir, args.text("reference"), args.text("timing"), ""};
            for (const auto& [case_name, part] : parts_to_time_again(setup.plan, inputs, split_words(args.text("time-again"))))
                work.time_again.push_back(case_name + "/" + part);
        } catch (const std::exception& e) {
            log.push_back("what to time again of " + setup.dir + " is unknown: " + e.what());
        }
    }
    RunGroupEnd end = RunGroupEnd::done;
    int failed = 0;
    std::string problem;
    try {
        end = run_group(setup, work, log);
    } catch (const std::invalid_argument& e) {
        failed = exit_code::bad_usage, problem = e.what();
    } catch (const std::exception& e) {
        failed = exit_code::io_error, problem = "the runs of " + setup.dir + ": " + e.what();
    }
    for (const std::string& line : log) std::fprintf(stderr, "%s\n", line.c_str());  // what ran, failed or not
    if (failed) fail(failed, problem);
    return end == RunGroupEnd::gpu_short ? kRunAgainAlone : end == RunGroupEnd::gpu_suspect ? kAskTheGpu : 0;
}

// Whether reference runs are complete (reference_run.hpp, reference_run_problem): one run (--run), or
// the run of each of --cases under --root, a line "CASE: what is wrong" for each that is not.
int cmd_check_reference(ArgParser& args, int argc, char** argv) {
    lab_options(args);
    args.option("run", "DIR", "", "the reference run folder");
    args.option("root", "DIR", "", "instead of --run: the folder of the runs of --cases, one a case");
    args.option("cases", "LIST", "", "with --root: the cases, blank-separated");
    args.flag("with-bounds", "the run must have written outputs with error bounds");
    args.option("part", "PART", "", "only this part must have run (a reference of checked timed runs)");
    args.parse(argc, argv);
    const LabPlan plan = plan_from(args);
    if (!args.text("root").empty() && split_words(args.text("cases")).empty())
        fail(exit_code::bad_usage, "--root needs --cases: the cases whose runs to check");
    std::vector<std::string> problems;
    if (args.text("root").empty()) {
        std::string problem = reference_run_problem(args.text("run"), plan, args.is_set("with-bounds"), args.text("part"));
        if (!problem.empty()) problems.push_back(problem);
    } else {
        for (const std::string& name : split_words(args.text("cases"))) {
            std::string problem = reference_run_problem(args.text("root") + "/" + name, plan, args.is_set("with-bounds"), args.text("part"));
            if (!problem.empty()) problems.push_back(name + ": " + problem);
        }
    }
    for (const std::string& problem : problems) std::printf("%s\n", problem.c_str());
    return problems.empty() ? 0 : 1;
}

// The timed runs whose reference outputs a student's evidence needs before it can be scored, or
// with --probe the reference's own runs on fresh inputs (checked_runs.hpp says which). grade.sh
// makes them with the reference solution (--data-seed, --part) and then scores.
int cmd_checked_runs(ArgParser& args, int argc, char** argv) {
    lab_options(args);
    args.option("dir", "DIR", "", "the student's folder for this lab");
    args.option("reference", "DIR", "", "the reference outputs, a folder per case");
    args.option("probe", "S", "",
                "instead of a student's: one run of every part on every case on inputs of a seed drawn from S (the "
                "grading run's secret sample seed), made before any timed run");
    args.parse(argc, argv);
    LabPlan plan = plan_from(args);
    if (args.text("probe").empty() == args.text("dir").empty())
        fail(exit_code::bad_usage, "give a student's --dir or --probe S, one of the two");
    std::set<CheckedRun> needed =
        args.text("probe").empty()
            ? missing_checked_run_references(plan, args.text("reference"), args.text("dir"))
            : reference_probe_runs(plan, args.text("reference"), static_cast<uint64_t>(args.integer("probe", 0, 1ll << 62)));
    for (const CheckedRun& run : needed) std::printf("%s\n", checked_run_item(run).c_str());
    return 0;
}

// After the reference's run of a cases file of checked runs: each run's output checked and kept
// as a sample (checked_runs.hpp); what could not be kept is printed, exit 1.
int cmd_keep_checked_runs(ArgParser& args, int argc, char** argv) {
    lab_options(args);
    args.option("runs", "LIST", "", "the runs, CASE/SEED/PART, blank-separated (grader cases-file --for checked-runs)");
    args.option("work", "DIR", "", "where the reference's run wrote them (its --out)");
    args.option("reference", "DIR", "", "the reference outputs, a folder per case: where the samples go");
    args.option("keep", "N", "65536", "positions to keep at most");
    args.option("seed", "S", "1", "the grading run's secret sample seed (without --plan)");
    args.parse(argc, argv);
    std::vector<std::string> problems = keep_checked_run_samples(
        plan_from(args), checked_run_items(args.text("runs")), args.text("work"), args.text("reference"),
        static_cast<uint64_t>(sample_seed_of(args, "seed")), size_t(args.integer("keep", 1, 1ll << 30)));
    for (const std::string& problem : problems) std::printf("%s\n", problem.c_str());
    return problems.empty() ? 0 : 1;
}

// The outputs of a student's runs checked as the runs end, and their arrays removed, those of
// the checked timed runs still waiting for their references reduced to their samples
// (output_verdicts.hpp): what scoring compares, kept as verdicts beside each run.
int cmd_check_outputs(ArgParser& args, int argc, char** argv) {
    lab_options(args);
    args.option("dir", "DIR", "", "the student's folder for this lab");
    args.option("cases", "LIST", "", "the cases whose runs to check, blank-separated (default: every case)");
    args.option("reference", "DIR", "", "the reference outputs, a folder per case");
    args.flag("keep", "keep the arrays checked (GRADE_KEEP_WORK=1); a checked timed run is reduced all the same");
    args.parse(argc, argv);
    LabPlan plan = plan_from(args);
    std::vector<std::string> names = split_words(args.text("cases"));
    if (names.empty())
        for (const CasePlan& c : plan.cases) names.push_back(c.name);
    OutputsChecked all;
    try {
        for (const std::string& name : names) {
            const CasePlan* c = plan.find_case(name);
            if (!c) fail(exit_code::bad_usage, "no case " + name + " in " + plan.lab);
            std::error_code error;
            for (const auto& run : std::filesystem::directory_iterator(args.text("dir") + "/runs/" + name, error)) {
                if (!run.is_directory()) continue;
                OutputsChecked one = check_run_outputs(plan, *c, run.path().string(), args.text("reference"), args.is_set("keep"));
                all.verdicts += one.verdicts;
                all.reduced += one.reduced;
                all.unreduced += one.unreduced;
            }
        }
    } catch (const std::exception& e) {
        fail(exit_code::io_error, "cannot check the outputs in " + args.text("dir") + ": " + e.what());
    }
    // grading/lib/runs.sh reads the last number: kept runs to reduce once their positions are drawn.
    std::printf("%zu outputs checked, %zu checked timed runs reduced to their samples, %zu waiting for their positions\n",
                all.verdicts, all.reduced, all.unreduced);
    return 0;
}

int cmd_check(ArgParser& args, int argc, char** argv) {
    args.option("student", "FILE", "", "the student's output file");
    args.option("reference", "FILE", "", "the reference output file, with error bounds");
    args.option("tolerance", "F", "1", "multiple of the reference's error bound allowed");
    args.parse(argc, argv);
    try {
        OutputVerdict v = check_output_files(args.text("student"), args.text("reference"), args.number("tolerance", 0, 1e9));
        std::printf("%s\n", v.pass ? "pass" : ("fail: " + v.reason).c_str());
        return v.pass ? 0 : 1;
    } catch (const FormatError& e) {
        fail(exit_code::io_error, std::string("the reference output cannot be read: ") + e.what());
    }
}

// grader timing before-student|after-round: whether the reference is to be timed now on a GPU
// (timing_schedule.hpp), exit 0 yes, 1 no; the count of students in --count is kept up to date.
int cmd_timing(ArgParser& args, int argc, char** argv) {
    std::string verb;
    args = verb_parser("timing", argc, argv,
                                 {{"before-student", "Exit 0 when the reference is to be timed before this student; counts the student."},
                                  {"after-round", "Exit 0 when a last timing is due after the round; the count starts again."}},
                                 verb);
    args.option("count", "FILE", "", "the count of students timed since the last timing on this GPU");
    if (verb == "before-student") {
        args.option("timings", "DIR", "", "the GPU's timings (t1, t2, ..., each named so once whole)");
        args.option("every", "N", "8", "students between timings");
    }
    args.parse(argc - 1, argv + 1);
    bool due = false;
    try {
        long long since = read_timing_count(args.text("count"));
        if (verb == "before-student") {
            const bool none_made = made_reference_timings(args.text("timings")).empty();
            due = timing_due_before_student(since, none_made, args.integer("every", 1, 1ll << 30));
        } else {
            due = timing_due_after_round(since);
        }
        write_timing_count(args.text("count"), since);
    } catch (const std::exception& e) {
        fail(exit_code::io_error, "grader timing " + verb + ": " + e.what());
    }
    return due ? 0 : 1;
}

// grader progress start|round|step: the runs' progress line and its state (progress.hpp), for
// grading/lib/progress.sh, which holds the state file's lock.
int cmd_progress(ArgParser& args, int argc, char** argv) {
    std::string verb;
    args = verb_parser("progress", argc, argv,
                                 {{"start", "Starts the progress state: the runs begin now."},
                                  {"round", "Starts a round in the progress state."},
                                  {"step", "Counts a student x lab through the round and prints the progress line."}},
                                 verb);
    args.option("state", "FILE", "", "the progress state file");
    if (verb == "start") {
        args.option("work", "W", "0", "the work of every round together");
        args.option("rounds", "N", "1", "the number of rounds");
    } else if (verb == "round") {
        args.option("round", "K", "1", "the round");
        args.option("name", "TEXT", "", "what the round runs");
        args.option("total", "N", "0", "its student x labs");
    } else {
        args.option("dir", "DIR", "", "the student x lab's folder (did it fail?)");
        args.option("who", "TEXT", "", "the student x lab, as ID<TAB>LAB");
        args.option("work", "W", "0", "its work in this round");
    }
    args.parse(argc - 1, argv + 1);
    const std::string path = args.text("state");
    const int64_t now = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    try {
        ProgressState state;
        if (verb == "start") {
            state.started_us = now;
            state.work_all = args.integer("work", 0, 1ll << 50);
            state.rounds = int(args.integer("rounds", 1, 100));
        } else {
            state = read_progress(path);
        }
        if (verb == "round") {
            state.round = int(args.integer("round", 1, 100));
            state.round_name = args.text("name");
            state.total = args.integer("total", 0, 1ll << 40);
            state.done = 0;
        } else if (verb == "step") {
            ++state.done;
            state.work_done += args.integer("work", 0, 1ll << 50);
            if (looks_failed(args.text("dir"))) state.failed.insert(args.text("who"));
            std::printf("%s\n", progress_line(state, now).c_str());
        }
        write_progress(path, state);
    } catch (const std::exception& e) {
        fail(exit_code::io_error, "grader progress " + verb + ": " + e.what());
    }
    return 0;
}
