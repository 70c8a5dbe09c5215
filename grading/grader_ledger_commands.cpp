// grader ledger (grader_commands.hpp): the run-time ledger of one student x lab
// (run_ledger.hpp), for grading/lib/runs.sh.
#include <errno.h>
#include <sys/stat.h>

#include <cstdio>
#include <optional>
#include <vector>

#include "fail.hpp"
#include "grader_commands.hpp"
#include "run_evidence.hpp"
#include "run_ledger.hpp"
#include "table.hpp"

namespace {

// A folder and the folders above it, as mkdir -p.
void make_folders(const std::string& path) {
    for (size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
        std::string prefix = path.substr(0, slash);
        if (mkdir(prefix.c_str(), 0755) != 0 && errno != EEXIST) fail(exit_code::io_error, "cannot make " + prefix);
        if (slash == std::string::npos) return;
    }
}

// FOLDER/not-run.txt for each of the blank-separated folders under DIR: why it has no run.
void write_not_run(const std::string& dir, const std::vector<std::string>& folders, const std::string& reason) {
    if (dir.empty()) fail(exit_code::bad_usage, "--dir is required");
    for (const std::string& folder : folders) {
        if (folder.empty()) fail(exit_code::bad_usage, "a not-run folder is required");
        make_folders(dir + "/" + folder);
        write_file(dir + "/" + folder + "/not-run.txt", reason + "\n");
    }
}

// For the log: the folders as "<student>/<lab>/runs/CASE/PART", DIR being the student x lab's.
std::string log_names(const std::string& dir, const std::vector<std::string>& folders) {
    size_t lab = dir.find_last_of('/');
    size_t student = lab == std::string::npos || lab == 0 ? std::string::npos : dir.find_last_of('/', lab - 1);
    std::string prefix = student == std::string::npos ? dir : dir.substr(student + 1), names;
    for (const std::string& folder : folders) names += (names.empty() ? "" : " ") + prefix + "/" + folder;
    return names;
}

}  // namespace

// grader ledger VERB: the run-time ledger of one student x lab (run_ledger.hpp), for
// grading/lib/runs.sh. Exit 1 answers "no" (no wall is left, no part is left); what the log
// should say goes to stderr, one line.
int cmd_ledger(ArgParser& args, int argc, char** argv) {
    static const std::map<std::string, std::string> verbs = {
        {"start", "Writes a new ledger: the budget (--budget, else three of the lab's longest process walls), nothing spent."},
        {"wall", "Prints the wall clock a run of --for batch|part|sanitizer|second-timing on --cases may have; exit 1 when "
                 "the budget is spent. Without --ledger, the wall alone (the reference solution's runs, which no budget limits)."},
        {"spend", "Adds the seconds of a run (its sandbox.tsv) of --for KIND to what was spent (not a second timing's), says "
                  "how it ended (--what: ...) and prints gpu-short when its end says the GPU may have been short while shared."},
        {"stops", "Records the parts a run folder says the time limit stopped on --case (and --part, run alone, when its wall clock did)."},
        {"pending", "Prints the CASE/PART pairs of --pairs still to run; each retired one gets DIR/runs/CASE/PART/not-run.txt."},
        {"after-batch",
         "Records the stops of batch --batch of --pairs (DIR/runs/CASE/batch-N) and prints, as pending does, the pairs it left without a record."},
        {"parts", "Prints the parts not retired, comma-separated; when none is left, writes --folder's not-run.txt and exits 1."},
        {"not-run", "Writes each of --folders' not-run.txt: the budget is spent."}};
    std::string verb;
    args = verb_parser("ledger", argc, argv, verbs, verb);
    lab_options(args);
    wall_options(args);
    args.option("ledger", "FILE", "", "the student x lab's ledger file");
    if (verb == "start") args.option("budget", "S", "0", "the budget in seconds (0: three of the lab's longest process walls)");
    if (verb == "wall" || verb == "spend")
        args.option("for", "KIND", verb == "wall" ? "" : "batch",
                    "batch (one process, several cases), part (one part alone), sanitizer or second-timing (a batch the "
                    "budget neither limits nor pays for)");
    if (verb == "wall") args.option("cases", "LIST", "", "the cases the process runs, blank-separated");
    if (verb == "spend") {
        args.option("sandbox", "FILE", "", "the run's sandbox.tsv");
        args.option("what", "TEXT", "", "the run, in words, for the line that says how it ended");
        args.option("log", "FILE", "", "a sanitizer run's log, where a CUDA call failing for memory shows");
        args.flag("shared", "the GPU was shared with other runners during the run");
    }
    if (verb == "stops") {
        args.option("case", "CASE", "", "the case the run folder is of");
        args.option("run", "DIR", "", "the run folder (sandbox.tsv, out/results.tsv)");
        args.option("part", "PART", "", "the part the run ran alone, if it did");
    }
    const bool in_dir = verb == "pending" || verb == "after-batch" || verb == "parts" || verb == "not-run";
    if (in_dir) args.option("dir", "DIR", "", "the student x lab's folder, under which the folders below are");
    if (verb == "pending" || verb == "after-batch")
        args.option("pairs", "LIST", "", "CASE/PART pairs, blank-separated, in the order to run");
    if (verb == "after-batch") args.option("batch", "N", "1", "the batch's number");
    if (verb == "parts") args.option("folder", "FOLDER", "", "the folder to tell that no part is left");
    if (verb == "not-run") args.option("folders", "LIST", "", "folders, blank-separated");
    args.parse(argc - 1, argv + 1);
    const LabPlan plan = plan_from(args);
    const WallRules rules = wall_rules_from(args);
    const std::string path = args.text("ledger");
    if (path.empty() && verb != "wall") fail(exit_code::bad_usage, "--ledger is required");
    auto case_of = [&](const std::string& name) {
        const CasePlan* c = plan.find_case(name);
        if (!c) fail(exit_code::bad_usage, "no case '" + name + "' in " + plan.lab);
        return c;
    };

    RunLedger ledger;
    if (verb == "start") {
        ledger.budget = args.integer("budget", 0, 1ll << 40);
        if (ledger.budget == 0) ledger.budget = default_budget(plan, rules);
        write_file(path, ledger_text(ledger));
        return 0;
    }
    if (!path.empty()) ledger = read_ledger(path);
    const std::string dir = in_dir ? args.text("dir") : "";
    if (verb == "wall") {
        std::vector<double> limits;
        for (const std::string& name : split_words(args.text("cases"))) limits.push_back(case_time_limit(*case_of(name), rules));
        const std::string kind = args.text("for");
        const bool batch = kind == "batch" || kind == kSecondTiming;
        if (limits.empty() || (!batch && limits.size() != 1))
            fail(exit_code::bad_usage, "--cases: a batch runs one case or more, a part or a sanitizer one");
        long long wanted = batch               ? batch_wall(limits, rules)
                           : kind == "part"      ? process_wall(limits[0], rules)
                           : kind == "sanitizer" ? sanitizer_wall(limits[0])
                                                 : (fail(exit_code::bad_usage, "--for must be batch, part, sanitizer or second-timing"), 0);
        std::optional<long long> wall = path.empty() || !spent_from_budget(kind) ? std::optional<long long>(wanted)
                                                                                 : wall_within_budget(ledger, wanted);
        if (!wall) return 1;
        std::printf("%lld\n", *wall);
        return 0;
    }
    if (verb == "spend") {
        const SandboxOutcome outcome = read_sandbox_outcome(args.text("sandbox"));
        if (spent_from_budget(args.text("for"))) spend(ledger, outcome.seconds);
        if (!args.text("what").empty())
            std::fprintf(stderr, "%s: %s\n", args.text("what").c_str(),
                         outcome.present ? (outcome.outcome + " " + std::to_string(outcome.exit_code)).c_str() : "no record");
        if (gpu_may_have_been_short(outcome, args.is_set("shared"), args.text("log"))) std::printf("gpu-short\n");
    } else if (verb == "stops") {
        const std::string case_name = case_of(args.text("case"))->name, alone = args.text("part");
        if (!alone.empty() && !plan.find_part(alone)) fail(exit_code::bad_usage, "no part '" + alone + "' in " + plan.lab);
        RunEvidence run = read_run(args.text("run"), plan.part_names());
        std::vector<std::string> stopped = stopped_parts(run, plan.part_names());
        // A part run alone that met its wall clock was stopped too, whatever it recorded.
        if (!alone.empty() && run.sandbox.outcome == "timeout") stopped.push_back(alone);
        for (const std::string& part : stopped) note_stop(ledger, part, case_name);
    } else if (verb == "pending" || verb == "after-batch") {
        std::vector<std::string> pairs = split_words(args.text("pairs")), dropped, folders;
        for (const std::string& pair : pairs) {
            size_t slash = pair.find('/');
            if (slash == std::string::npos || !plan.find_part(pair.substr(slash + 1)))
                fail(exit_code::bad_usage, "--pairs: '" + pair + "' is not CASE/PART");
            case_of(pair.substr(0, slash));
        }
        if (verb == "after-batch") {
            std::map<std::string, RunEvidence> runs;
            const std::string batch = batch_folder(int(args.integer("batch", 1, 1 << 20)));
            for (const std::string& pair : pairs) {
                const std::string case_name = pair.substr(0, pair.find('/'));
                if (!runs.count(case_name)) runs[case_name] = read_run(dir + "/runs/" + case_name + "/" + batch, plan.part_names());
            }
            pairs = unrecorded_after_batch(ledger, pairs, runs, plan.part_names());
            write_file(path, ledger_text(ledger));
        }
        for (const std::string& pair : not_retired(ledger, pairs, dropped)) std::printf("%s\n", pair.c_str());
        for (const std::string& pair : dropped) {
            write_not_run(dir, {"runs/" + pair}, retired_reason(ledger, pair.substr(pair.find('/') + 1)));
            folders.push_back("runs/" + pair);
        }
        if (!folders.empty()) std::fprintf(stderr, "retired: not run: %s\n", log_names(dir, folders).c_str());
        return 0;
    } else if (verb == "parts") {
        std::vector<std::string> left;
        for (const std::string& part : plan.part_names())
            if (!retired(ledger, part)) left.push_back(part);
        if (left.empty()) {
            write_not_run(dir, {args.text("folder")}, none_left_reason(plan.lab));
            return 1;
        }
        std::printf("%s\n", join_list(left, ",").c_str());
        return 0;
    } else if (verb == "not-run") {
        std::vector<std::string> folders = split_words(args.text("folders"));
        write_not_run(dir, folders, budget_reason(ledger, plan.lab));
        std::fprintf(stderr, "budget: %lld s used up; not run: %s\n", ledger.budget, log_names(dir, folders).c_str());
        return 0;
    }
    write_file(path, ledger_text(ledger));
    return 0;
}
