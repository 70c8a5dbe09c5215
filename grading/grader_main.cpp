// grading/bin: the C++ half of the grader (grading/README.md). grading/grade.sh runs the
// builds and the sandboxed cases; this tool decides and reports:
//   plan, ledger, submissions, check-submission, lab-files, scan-includes, scan-build,
//   scan-symbols, scan-forbidden, headers, check-reference, checked-runs, cases-file,
//   keep-checked-runs, file-evidence, check, check-outputs, score, time-again, report,
//   gradebook, similarity, class-report, leaderboard, gpus, cpu-sets, gpu-suspect, progress,
//   timing, rubric.
// Every command reads the lab's manifest through common/manifest.cpp.
#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

#include "args.hpp"
#include "atomic_file.hpp"
#include "cases_file.hpp"
#include "checked_runs.hpp"
#include "class_report.hpp"
#include "cpu_sets.hpp"
#include "fail.hpp"
#include "gpu.hpp"
#include "json_text.hpp"
#include "lab_plan.hpp"
#include "leaderboard.hpp"
#include "output_check.hpp"
#include "output_sample.hpp"
#include "output_verdicts.hpp"
#include "progress.hpp"
#include "reference_run.hpp"
#include "reports.hpp"
#include "round_plan.hpp"
#include "rubric_markdown.hpp"
#include "run_evidence.hpp"
#include "run_files.hpp"
#include "run_ledger.hpp"
#include "scoring.hpp"
#include "similarity.hpp"
#include "symbol_check.hpp"
#include "table.hpp"
#include "timing_schedule.hpp"
#include "source_scan.hpp"
#include "submission_layout.hpp"
#include "untrusted_text.hpp"

namespace {

using Command = int (*)(int, char**);

// The first max_bytes of the file ("" when it cannot be read), read in chunks: the bound is a
// limit for hostile files, not a size to allocate (zeroing 256 MB cost each scan 2 s).
std::string read_file(const std::string& path, size_t max_bytes = 4 << 20) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return "";
    std::string text;
    std::vector<char> chunk(1 << 16);
    while (text.size() < max_bytes) {
        in.read(chunk.data(), std::streamsize(std::min(chunk.size(), max_bytes - text.size())));
        if (in.gcount() <= 0) break;
        text.append(chunk.data(), size_t(in.gcount()));
    }
    return text;
}

void write_file(const std::string& path, const std::string& text) {
    try {
        write_file_atomically(path, text);
    } catch (const std::runtime_error& error) {
        fail(exit_code::io_error, error.what());
    }
}

bool exists(const std::string& path) {
    struct stat info {};
    return stat(path.c_str(), &info) == 0;
}

LabPlan load_plan(const std::string& manifest, const std::string& lab) {
    try {
        return make_lab_plan(Manifest::load(manifest), lab);
    } catch (const ManifestError& e) {
        fail(exit_code::bad_usage, e.what());
    }
}

// --manifest defaults to labs/<lab>/manifest under --manifests (default labs).
void lab_options(ArgParser& args) {
    args.option("lab", "LAB", "", "the lab (a folder of --manifests)");
    args.option("manifests", "DIR", "labs", "where the labs' folders are");
    args.option("grading-seed", "S", "0", "the grading run's seed, from which every graded case's seed is derived (0: none)");
}

unsigned long long grading_seed_of(const ArgParser& args) {
    return static_cast<unsigned long long>(args.integer("grading-seed", 0, 1ll << 62));
}

LabPlan plan_from(const ArgParser& args) {
    std::string lab = args.text("lab");
    if (lab.empty()) fail(exit_code::bad_usage, "--lab is required");
    LabPlan plan = load_plan(args.text("manifests") + "/" + lab + "/manifest", lab);
    plan.grading_seed = grading_seed_of(args);
    return plan;
}

// How this grading run sets the wall clocks (run_ledger.hpp): grade.sh's --time-limit and
// GRADE_WALL_MARGIN.
void wall_options(ArgParser& args) {
    args.option("time-limit", "S", "0", "a cap on every case's time limit (grade.sh --time-limit; 0: none)");
    args.option("margin", "S", "10", "seconds a process gets beyond its cases' limits (GRADE_WALL_MARGIN)");
}

WallRules wall_rules_from(const ArgParser& args) {
    return WallRules{args.number("time-limit", 0, 1e6), args.number("margin", 0, 1e6)};
}

std::string quoted_words(const std::vector<std::string>& words) {
    std::string out;
    for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
    return out;
}

// Lines of tab-separated fields for grade.sh: the plan, checked.
int cmd_plan(int argc, char** argv) {
    ArgParser args("grader plan", "Checks a lab's manifest and prints what grade.sh needs, one tab-separated line per item.");
    lab_options(args);
    wall_options(args);
    args.flag("no-sanitizer", "the grading machine has no compute-sanitizer (the rounds' work counts no tool)");
    args.parse(argc, argv);
    LabPlan plan = plan_from(args);
    const WallRules rules = wall_rules_from(args);
    std::printf("title\t%s\n", plan.title.c_str());
    std::printf("files\t%s\n", quoted_words(plan.student_files).c_str());
    std::printf("parts\t%s\n", quoted_words(plan.part_names()).c_str());
    for (const CasePlan& c : plan.cases)
        std::printf("case\t%s\t%g\t%s\t%s\n", c.name.c_str(), case_time_limit(c, rules), c.hidden ? "hidden" : "public",
                    quoted_words(plan.run_args(c)).c_str());
    std::string perf_cases;
    for (const CasePlan& c : plan.cases)
        if (c.perf) perf_cases += (perf_cases.empty() ? "" : " ") + c.name;
    std::printf("perf\t%s\n", perf_cases.c_str());
    std::printf("ptx\t%s\n", plan.has_construct_rules() ? "yes" : "no");
    if (!plan.sanitize_case.empty()) {
        const CasePlan* c = plan.find_case(plan.sanitize_case);
        std::printf("sanitize\t%s\t%g\t%s\t%s\n", c->name.c_str(), case_time_limit(*c, rules),
                    quoted_words(plan.sanitize_tools).c_str(), quoted_words(plan.run_args(*c)).c_str());
    }
    std::printf("max\t%g\n", plan.max_points());
    const RoundCases rounds = round_cases(plan);
    std::printf("round\tpublic-untimed\t%s\n", quoted_words(rounds.public_untimed).c_str());
    std::printf("round\tpublic-timed\t%s\n", quoted_words(rounds.public_timed).c_str());
    std::printf("round\thidden-untimed\t%s\n", quoted_words(rounds.hidden_untimed).c_str());
    std::printf("round\thidden-timed\t%s\n", quoted_words(rounds.hidden_timed).c_str());
    for (int round = 1; round <= kRounds; ++round) {
        RoundWork work = round_work(plan, round, !args.is_set("no-sanitizer"));
        std::printf("work\t%d\t%d\t%d\n", round, work.untimed, work.timed);
    }
    return 0;
}

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

// The verb of `grader COMMAND VERB ...` (argv[1]) and its parser, whose help is the verb's line
// of `verbs`; an unknown verb fails, naming them.
ArgParser verb_parser(const std::string& command, int argc, char** argv, const std::map<std::string, std::string>& verbs,
                      std::string& verb) {
    verb = argc > 1 ? argv[1] : "";
    if (!verbs.count(verb)) {
        std::string names;
        for (const auto& [name, help] : verbs) names += " " + name;
        fail(exit_code::bad_usage, "grader " + command + ": unknown verb '" + verb + "'; verbs:" + names);
    }
    return ArgParser("grader " + command + " " + verb, verbs.at(verb));
}

// grader ledger VERB: the run-time ledger of one student x lab (run_ledger.hpp), for
// grading/lib/runs.sh. Exit 1 answers "no" (no wall is left, no part is left); what the log
// should say goes to stderr, one line.
int cmd_ledger(int argc, char** argv) {
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
    ArgParser args = verb_parser("ledger", argc, argv, verbs, verb);
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
    try {
        if (!path.empty()) ledger = read_ledger(path);
    } catch (const FormatError& e) {
        fail(exit_code::io_error, e.what());
    }
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

std::map<std::string, std::string> read_sources(const LabPlan& plan, const std::string& dir) {
    std::map<std::string, std::string> sources;
    for (const std::string& file : plan.student_files)
        if (exists(dir + "/" + file)) sources[file] = read_file(dir + "/" + file);
    return sources;
}

int cmd_scan_includes(int argc, char** argv) {
    ArgParser args("grader scan-includes", "Prints each include of a student file that reaches outside the lab; exit 1 if any.");
    lab_options(args);
    args.option("sources", "DIR", "", "the folder holding the student files");
    args.parse(argc, argv);
    LabPlan plan = plan_from(args);
    int found = 0;
    for (const auto& [file, text] : read_sources(plan, args.text("sources")))
        for (const std::string& problem : find_outside_includes(file, text)) {
            std::printf("%s\n", problem.c_str());
            ++found;
        }
    return found ? 1 : 0;
}

// After the build: what the compiler read for each student file (its -MMD list) must lie in the
// box's lab, its common/ or an --allow folder (the CUDA toolkit), and the preprocessed file
// must hold no assembler .incbin. Prints one line per problem; exit 1 if any.
int cmd_scan_build(int argc, char** argv) {
    ArgParser args("grader scan-build", "Checks what a student build read; prints each problem, exit 1 if any.");
    lab_options(args);
    args.option("box", "DIR", "", "the student's built work folder");
    args.option("allow", "DIRS", "", "further folders the build may read, blank-separated (the CUDA toolkit)");
    args.parse(argc, argv);
    LabPlan plan = plan_from(args);
    std::string box = args.text("box");
    std::vector<std::string> allowed = {box + "/labs/" + plan.lab, box + "/common"};
    for (const std::string& dir : split_words(args.text("allow"))) allowed.push_back(dir);
    std::vector<std::string> problems;
    for (const std::string& file : plan.student_files) {
        std::string deps = box + "/build/obj/labs/" + plan.lab + "/" + file + ".d";
        std::string pre = box + "/build/pre/labs/" + plan.lab + "/" + file + ".ii";
        if (!exists(deps) || !exists(pre)) {
            problems.push_back(file + ": the build left no record of what it read");
            continue;
        }
        for (const std::string& p : outside_dependencies(file, read_file(deps), box, allowed)) problems.push_back(p);
        if (has_incbin(read_file(pre, 256 << 20)))
            problems.push_back(file + ": an assembler .incbin reads a file at build time, which is not allowed");
    }
    for (const std::string& p : problems) std::printf("%s\n", p.c_str());
    return problems.empty() ? 0 : 1;
}

// The symbols of a student file's object, `nm -P` output that grade.sh wrote as DIR/<file>.nmp.
std::vector<ObjectSymbol> student_symbols(const std::string& dir, const std::string& file) {
    std::string path = dir + "/" + file + ".nmp";
    if (!exists(path)) fail(exit_code::io_error, "missing symbol list " + path);
    return parse_nm(read_file(path, 64 << 20));
}

// After the build: what the student objects use and define (symbol_check.hpp). Prints one
// line per problem, naming the symbol; exit 1 if any.
int cmd_scan_symbols(int argc, char** argv) {
    ArgParser args("grader scan-symbols", "Checks the symbols of a student's object files; prints each problem, exit 1 if any.");
    lab_options(args);
    args.option("symbols", "DIR", "", "a folder holding <file>.nmp, the `nm -P` output of each student object");
    args.option("trusted", "FILE", "", "`nm -P` of the trusted objects");
    args.option("starter", "FILE", "", "`nm -P` of the objects of the pristine starter files");
    args.parse(argc, argv);
    LabPlan plan = plan_from(args);
    auto symbols_of = [&](const char* option) {
        std::string path = args.text(option);
        if (!exists(path)) fail(exit_code::io_error, "missing " + path);
        return parse_nm(read_file(path, 256 << 20));
    };
    TrustedSymbols against{symbols_of("trusted"), symbols_of("starter")};
    std::vector<std::string> problems;
    for (const std::string& file : plan.student_files)
        for (const std::string& p : check_student_symbols(file, student_symbols(args.text("symbols"), file), against, plan.allowed_symbols))
            problems.push_back(p);
    for (const std::string& p : problems) std::printf("%s\n", p.c_str());
    return problems.empty() ? 0 : 1;
}

int cmd_scan_forbidden(int argc, char** argv) {
    ArgParser args("grader scan-forbidden", "Looks for the lab's forbidden APIs in the student files and their symbols; exits 1 when one zeroes every part.");
    lab_options(args);
    args.option("sources", "DIR", "", "the folder holding the student files");
    args.option("symbols", "DIR", "", "a folder holding <file>.nmp, the `nm -P` output of each file's object");
    args.option("out", "FILE", "", "the forbidden.tsv to write");
    args.option("compiled", "DIR", "",
                "the build folder: pre/labs/LAB/<file>.ii (preprocessed) and ptx/labs/LAB/<file>.ptx of each student file");
    args.option("starter-headers", "FILE", "", "the headers the pristine starter files include, one a line");
    args.parse(argc, argv);
    LabPlan plan = plan_from(args);
    std::map<std::string, std::vector<std::string>> symbols;
    if (!args.text("symbols").empty())
        for (const std::string& file : plan.student_files)
            for (const ObjectSymbol& s : student_symbols(args.text("symbols"), file)) symbols[file].push_back(demangle(s.name));
    std::map<std::string, CompiledFile> compiled;
    if (!args.text("compiled").empty())
        for (const std::string& file : plan.student_files) {
            std::string pre = args.text("compiled") + "/pre/labs/" + plan.lab + "/" + file + ".ii";
            std::string ptx = args.text("compiled") + "/ptx/labs/" + plan.lab + "/" + file + ".ptx";
            if (!exists(pre)) fail(exit_code::io_error, "missing preprocessed file " + pre);
            // A rule matched in nothing would pass every submission: the PTX must be there.
            bool cuda_file = file.size() > 3 && file.compare(file.size() - 3, 3, ".cu") == 0;
            if (plan.has_construct_rules() && cuda_file && !exists(ptx))
                fail(exit_code::io_error, "missing PTX " + ptx + " (the lab has construct rules)");
            compiled[file] = CompiledFile{included_headers(read_file(pre, 256 << 20)), read_file(ptx, 256 << 20)};
        }
    std::set<std::string> starter_headers;
    std::istringstream starter(read_file(args.text("starter-headers"), 16 << 20));
    for (std::string line; std::getline(starter, line);)
        if (!line.empty()) starter_headers.insert(line);
    std::vector<ForbiddenMatch> found =
        find_forbidden(plan, read_sources(plan, args.text("sources")), symbols, compiled, starter_headers);
    if (args.text("out").empty()) fail(exit_code::bad_usage, "--out is required");
    write_forbidden(args.text("out"), found);
    for (const ForbiddenMatch& m : found) std::printf("%s: %s\n", m.where.c_str(), m.text.c_str());
    // 1 when a match zeroes every part: the lab scores zero whatever else is found.
    for (const ForbiddenMatch& m : found)
        if (m.part == "*") return 1;
    return 0;
}

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

// The timed runs whose reference outputs a student's evidence needs before it can be scored, or
// with --probe the reference's own runs on fresh inputs (checked_runs.hpp says which). grade.sh
// makes them with the reference solution (--data-seed, --part) and then scores.
int cmd_checked_runs(int argc, char** argv) {
    ArgParser args("grader checked-runs", "Prints CASE/SEED/PART for each checked timed run whose reference output is missing.");
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

// The outputs of a student's runs checked as the runs end, and their arrays removed, those of
// the checked timed runs still waiting for their references reduced to their samples
// (output_verdicts.hpp): what scoring compares, kept as verdicts beside each run.
int cmd_check_outputs(int argc, char** argv) {
    ArgParser args("grader check-outputs",
                   "Checks the outputs of a student's runs against the reference, keeps the verdicts, reduces the checked "
                   "timed runs still waiting for their references to their samples and removes the other arrays.");
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

// The cases file of one process of the grading run (cases_file.hpp), and what it runs, a line
// each: its cases, or with --for checked-runs the runs whose sample was still missing (none:
// no file).
int cmd_cases_file(int argc, char** argv) {
    ArgParser args("grader cases-file", "Writes the cases file of one run and prints what it runs, one a line.");
    lab_options(args);
    wall_options(args);
    args.option("for", "USE", "graded", "graded (items CASE/PARTS), reference-outputs, reference-timing (items CASE) "
                                        "or checked-runs (items CASE/SEED/PART)");
    args.option("items", "LIST", "", "what to run, blank-separated");
    args.option("out", "FILE", "", "the cases file");
    args.option("reference", "DIR", "", "checked-runs: the reference outputs; a run whose sample is there is left out");
    args.option("seed", "S", "1", "checked-runs: the grading run's secret sample seed");
    args.parse(argc, argv);
    LabPlan plan = plan_from(args);
    const std::string use = args.text("for"), out = args.text("out");
    if (out.empty()) fail(exit_code::bad_usage, "--out is required");
    std::vector<std::string> printed;
    CasesFile file;
    try {
        if (use == "checked-runs") {
            std::vector<CheckedRun> missing;
            for (const CheckedRun& run : checked_run_items(args.text("items"))) {
                const auto& [case_name, seed, part] = run;
                if (exists(args.text("reference") + "/" + checked_run_sample(case_name, part, seed))) continue;
                missing.push_back(run);
                printed.push_back(checked_run_item(run));
            }
            if (missing.empty()) return 0;
            file = make_checked_run_cases_file(plan, wall_rules_from(args), missing,
                                               static_cast<unsigned long long>(args.integer("seed", 0, 1ll << 62)));
        } else {
            const std::map<std::string, CasesUse> uses = {{"graded", CasesUse::graded},
                                                          {"reference-outputs", CasesUse::reference_outputs},
                                                          {"reference-timing", CasesUse::reference_timing}};
            if (!uses.count(use)) fail(exit_code::bad_usage, "--for " + use + ": not a use of a cases file");
            file = make_cases_file(plan, wall_rules_from(args), uses.at(use), split_words(args.text("items")));
            printed = file.cases;
        }
        if (file.lines.empty()) fail(exit_code::bad_usage, "--items names nothing to run");
        write_cases_file(out, file.lines);
    } catch (const std::invalid_argument& e) {
        fail(exit_code::bad_usage, e.what());
    } catch (const std::runtime_error& e) {
        fail(exit_code::io_error, e.what());
    }
    for (const std::string& line : printed) std::printf("%s\n", line.c_str());
    return 0;
}

// After the reference's run of a cases file of checked runs: each run's output checked and kept
// as a sample (checked_runs.hpp); what could not be kept is printed, exit 1.
int cmd_keep_checked_runs(int argc, char** argv) {
    ArgParser args("grader keep-checked-runs",
                   "Checks the reference's outputs of checked timed runs and keeps a sample of each; prints what failed (exit 1).");
    lab_options(args);
    args.option("runs", "LIST", "", "the runs, CASE/SEED/PART, blank-separated (grader cases-file --for checked-runs)");
    args.option("work", "DIR", "", "where the reference's run wrote them (its --out)");
    args.option("reference", "DIR", "", "the reference outputs, a folder per case: where the samples go");
    args.option("keep", "N", "65536", "positions to keep at most");
    args.option("seed", "S", "1", "the grading run's secret sample seed");
    args.parse(argc, argv);
    std::vector<std::string> problems = keep_checked_run_samples(
        plan_from(args), checked_run_items(args.text("runs")), args.text("work"), args.text("reference"),
        static_cast<uint64_t>(args.integer("seed", 0, 1ll << 62)), size_t(args.integer("keep", 1, 1ll << 30)));
    for (const std::string& problem : problems) std::printf("%s\n", problem.c_str());
    return problems.empty() ? 0 : 1;
}

// The headers a preprocessed file included, one a line (grade.sh: what the starter includes).
int cmd_headers(int argc, char** argv) {
    ArgParser args("grader headers", "Prints the headers a preprocessed translation unit included, one a line.");
    args.option("preprocessed", "FILES", "", "preprocessed files (.ii), blank-separated");
    args.parse(argc, argv);
    for (const std::string& file : split_words(args.text("preprocessed"))) {
        if (!exists(file)) fail(exit_code::io_error, "missing preprocessed file " + file);
        for (const std::string& header : included_headers(read_file(file, 256 << 20))) std::printf("%s\n", header.c_str());
    }
    return 0;
}

// Whether reference runs are complete (reference_run.hpp, reference_run_problem): one run (--run), or
// the run of each of --cases under --root, a line "CASE: what is wrong" for each that is not.
int cmd_check_reference(int argc, char** argv) {
    ArgParser args("grader check-reference", "Checks that reference runs are complete; prints what is wrong and exits 1 if not.");
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

int cmd_check(int argc, char** argv) {
    ArgParser args("grader check", "Compares one student output with the reference output; exit 0 when it passes.");
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

int cmd_score(int argc, char** argv) {
    ArgParser args("grader score", "Scores one student on one lab from the evidence in its folder; writes score.tsv there.");
    lab_options(args);
    args.option("dir", "DIR", "", "the student's folder for this lab");
    args.option("reference", "DIR", "", "the reference outputs, a folder per case");
    args.option("timing", "DIR", "", "the reference timings on the student's GPU, a folder per case");
    args.option("untimed", "WHY", "",
                "no reference timing (a self-check on a GPU model without committed times): the performance items "
                "take no points and say WHY");
    args.parse(argc, argv);
    LabPlan plan = plan_from(args);
    ScoringInputs inputs{args.text("dir"), args.text("reference"), args.text("timing"), args.text("untimed")};
    try {
        LabScore score = score_lab(plan, inputs);
        write_lab_score(inputs.lab_dir + "/score.tsv", score);
        std::printf("%s %s/%s %s\n", plan.lab.c_str(), json_number(score.points).c_str(), json_number(score.max).c_str(),
                    score.note.c_str());
    } catch (const std::exception& e) {
        fail(exit_code::io_error, "cannot score " + inputs.lab_dir + ": " + e.what());
    }
    return 0;
}

// grader progress start|round|step: the runs' progress line and its state (progress.hpp), for
// grading/lib/progress.sh, which holds the state file's lock.
int cmd_progress(int argc, char** argv) {
    std::string verb;
    ArgParser args = verb_parser("progress", argc, argv,
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

// grader timing before-student|after-round: whether the reference is to be timed now on a GPU
// (timing_schedule.hpp), exit 0 yes, 1 no; the count of students in --count is kept up to date.
int cmd_timing(int argc, char** argv) {
    std::string verb;
    ArgParser args = verb_parser("timing", argc, argv,
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

// grader submissions: each student's entry of the submissions folder (submission_layout.hpp),
// for grading/lib/submissions.sh: ID, ENTRY, NOTE and CONFLICT, each ended by a NUL (a name may
// hold any other byte).
int cmd_submissions(int argc, char** argv) {
    ArgParser args("grader submissions", "Prints each student's id, entry, note and conflict, NUL-terminated.");
    args.option("dir", "DIR", "", "the submissions folder");
    args.parse(argc, argv);
    try {
        for (const StudentEntry& s : choose_entries(read_submission_entries(args.text("dir"))))
            for (const std::string& field : {s.id, s.entry, s.note, s.conflict}) std::fwrite(field.c_str(), 1, field.size() + 1, stdout);
    } catch (const std::exception& e) {
        fail(exit_code::io_error, e.what());
    }
    return 0;
}

// grader file-evidence: what one sandboxed process of a student left, filed for each of its cases
// (run_files.hpp), for grading/lib/runs.sh's run_batch.
int cmd_file_evidence(int argc, char** argv) {
    ArgParser args("grader file-evidence", "Files a sandboxed run's record and outputs into each of its cases' evidence folders.");
    args.option("box", "DIR", "", "the process's box (its outputs under run-out/<case>)");
    args.option("run", "DIR", "", "the grader's record of the process: sandbox.tsv, stdout.txt, stderr.txt");
    args.option("evidence", "DIR", "", "the student x lab's runs/ folder");
    args.option("folder", "NAME", "", "the run's folder in each case's (batch-N, a part, second-timing)");
    args.option("cases", "LIST", "", "the process's cases, blank-separated");
    args.parse(argc, argv);
    try {
        file_run_evidence(args.text("box"), args.text("run"), args.text("evidence"), args.text("folder"),
                          split_words(args.text("cases")));
    } catch (const std::invalid_argument& e) {
        fail(exit_code::bad_usage, e.what());
    } catch (const std::runtime_error& e) {
        fail(exit_code::io_error, e.what());
    }
    return 0;
}

// grader check-submission: what makes a submission folder unusable (submission_layout.hpp), for
// grading/lib/submissions.sh, before a student's folder is copied and after an archive is unpacked.
int cmd_check_submission(int argc, char** argv) {
    ArgParser args("grader check-submission", "Prints what makes a submission folder unusable and exits 1; exit 0 when nothing does.");
    args.option("dir", "DIR", "", "the folder");
    args.option("what", "NAME", "folder", "what the message calls it");
    args.option("max-files", "N", "2000", "files at most");
    args.option("max-bytes", "N", "52428800", "bytes at most, all files together");
    args.parse(argc, argv);
    if (!exists(args.text("dir"))) fail(exit_code::io_error, "no folder " + args.text("dir"));
    const SubmissionLimits limits{uintmax_t(args.integer("max-files", 1, 1ll << 40)), uintmax_t(args.integer("max-bytes", 1, 1ll << 50))};
    const std::string problem = submission_folder_problem(args.text("dir"), limits, args.text("what"));
    if (problem.empty()) return 0;
    std::printf("%s\n", problem.c_str());
    return 1;
}

// grader lab-files: where the lab's files are in an unpacked submission (submission_layout.hpp),
// for grading/lib/workfolders.sh: each file's path, NUL-terminated, in the manifest's order; or,
// exit 1, the problems, one a line.
int cmd_lab_files(int argc, char** argv) {
    ArgParser args("grader lab-files", "Prints the paths of the lab's files in a submission (NUL-terminated), or its problems (exit 1).");
    lab_options(args);
    args.option("root", "DIR", "", "the unpacked submission (or the one folder it holds: submission_root)");
    args.option("shared", "LIST", "", "file names another lab graded in the same run has too, blank-separated");
    args.parse(argc, argv);
    LabPlan plan = plan_from(args);
    std::vector<std::string> shared = split_words(args.text("shared"));
    LabFiles found = find_lab_files(args.text("root"), plan.lab, plan.student_files, {shared.begin(), shared.end()},
                                    kMaxStudentFileBytes);
    for (const std::string& problem : found.problems) std::printf("%s\n", problem.c_str());
    for (const std::string& path : found.paths) std::fwrite(path.c_str(), 1, path.size() + 1, stdout);
    return found.problems.empty() ? 0 : 1;
}

// grader time-again: the parts of a student's timed cases to time a second time (scoring.hpp,
// parts_to_time_again), "CASE<TAB>PART" a line, for grading/lib/runs.sh's time_again.
int cmd_time_again(int argc, char** argv) {
    ArgParser args("grader time-again",
                   "Prints 'CASE<TAB>PART' for each part of --cases whose timed run was right but slower than its full_ratio of the reference's time.");
    lab_options(args);
    args.option("dir", "DIR", "", "the student's folder for this lab");
    args.option("reference", "DIR", "", "the reference outputs, a folder per case");
    args.option("timing", "DIR", "", "the reference timings on the student's GPU, a folder per case");
    args.option("cases", "LIST", "", "the timed cases, blank-separated");
    args.parse(argc, argv);
    LabPlan plan = plan_from(args);
    try {
        ScoringInputs inputs{args.text("dir"), args.text("reference"), args.text("timing"), ""};
        for (const auto& [case_name, part] : parts_to_time_again(plan, inputs, split_words(args.text("cases"))))
            std::printf("%s\t%s\n", case_name.c_str(), part.c_str());
    } catch (const std::exception& e) {
        fail(exit_code::io_error, "cannot tell what to time again in " + args.text("dir") + ": " + e.what());
    }
    return 0;
}

std::map<std::string, LabPlan> load_plans(const std::string& manifests, const std::vector<std::string>& labs) {
    std::map<std::string, LabPlan> plans;
    for (const std::string& lab : labs) plans.emplace(lab, load_plan(manifests + "/" + lab + "/manifest", lab));
    return plans;
}

StudentReport load_report(const std::string& student, const std::string& dir, const std::vector<std::string>& labs,
                          const std::map<std::string, LabPlan>& plans) {
    StudentReport report;
    report.student = student;
    // notes.txt (written by grade.sh): about the submission as a whole, one a line.
    std::istringstream notes(read_file(dir + "/notes.txt", 64 << 10));
    for (std::string line; std::getline(notes, line);)
        if (!line.empty()) report.notes.push_back(clean_line(line, 300));
    for (const std::string& lab : labs) {
        std::string path = dir + "/" + lab + "/score.tsv";
        try {
            report.labs.push_back(exists(path) ? read_lab_score(path) : not_graded(plans.at(lab)));
        } catch (const FormatError& e) {
            fail(exit_code::io_error, e.what());
        }
    }
    return report;
}

int cmd_report(int argc, char** argv) {
    ArgParser args("grader report", "Writes feedback.md and results.json for one student from the labs' score files.");
    args.option("student", "NAME", "", "the student");
    args.option("dir", "DIR", "", "the student's folder (a score.tsv per lab)");
    args.option("labs", "LIST", "", "the labs graded, space-separated, in order");
    args.option("manifests", "DIR", "labs", "where the labs' folders are");
    args.option("when", "TEXT", "", "when the grading ran");
    args.option("gpu", "TEXT", "", "the GPU the cases ran on");
    args.option("isolation", "TEXT", "", "the sandbox used");
    args.option("grading-seed", "S", "0", "the grading run's seed (the feedback's commands rerun the graded data)");
    args.option("pseudonym", "NAME", "", "the student's pseudonym on the class leaderboard (grade.sh --leaderboard)");
    args.flag("off-leaderboard", "the student asked to be left off the leaderboard (NO-LEADERBOARD)");
    args.parse(argc, argv);
    std::vector<std::string> labs = split_words(args.text("labs"));
    std::map<std::string, LabPlan> plans = load_plans(args.text("manifests"), labs);
    for (auto& [lab, plan] : plans) plan.grading_seed = grading_seed_of(args);
    StudentReport report = load_report(args.text("student"), args.text("dir"), labs, plans);
    report.pseudonym = args.text("pseudonym");
    report.off_leaderboard = args.is_set("off-leaderboard");
    RunDescription run{args.text("when"), args.text("gpu"), args.text("isolation")};
    write_file(args.text("dir") + "/feedback.md", feedback_markdown(report, plans, run));
    write_file(args.text("dir") + "/results.json", gradescope_json(report));
    return 0;
}

std::vector<std::string> student_folders(const std::string& dir) {
    std::vector<std::string> names;
    if (DIR* d = opendir(dir.c_str())) {
        while (dirent* e = readdir(d)) {
            std::string name = e->d_name;
            struct stat info {};
            if (name[0] != '.' && stat((dir + "/" + name).c_str(), &info) == 0 && S_ISDIR(info.st_mode)) names.push_back(name);
        }
        closedir(d);
    }
    std::sort(names.begin(), names.end());
    return names;
}

int cmd_gradebook(int argc, char** argv) {
    ArgParser args("grader gradebook", "Writes gradebook.csv for every student graded in an output folder and prints the summary.");
    args.option("out", "DIR", "", "the grading output folder (students/<name>/...)");
    args.option("labs", "LIST", "", "the labs, space-separated: the gradebook's columns");
    args.option("manifests", "DIR", "labs", "where the labs' folders are");
    args.parse(argc, argv);
    std::vector<std::string> labs = split_words(args.text("labs"));
    std::map<std::string, LabPlan> plans = load_plans(args.text("manifests"), labs);
    std::vector<StudentReport> reports;
    std::string students = args.text("out") + "/students";
    for (const std::string& name : student_folders(students))
        reports.push_back(load_report(name, students + "/" + name, labs, plans));
    write_file(args.text("out") + "/gradebook.csv", gradebook_csv(reports, labs));
    std::fputs(summary_table(reports, labs).c_str(), stdout);
    return 0;
}

// Pairs of submissions of each lab that share much of what they wrote themselves
// (similarity.hpp), for the instructor: similarity.csv, and the pairs over the threshold on
// stdout, a section of summary.txt. Never in any student's feedback.
int cmd_similarity(int argc, char** argv) {
    ArgParser args("grader similarity", "Compares every pair of submissions of each lab; writes similarity.csv, prints the similar pairs.");
    args.option("out", "DIR", "", "the grading output folder (students/<name>/<lab>/files/)");
    args.option("labs", "LIST", "", "the labs, space-separated");
    args.option("manifests", "DIR", "labs", "where the labs' folders are (the starter files)");
    args.option("threshold", "F", "0.5", "shared fraction from which a pair is listed in the summary");
    args.parse(argc, argv);
    const double threshold = args.number("threshold", 0, 1), csv_floor = std::min(threshold, 0.25);
    std::vector<std::string> labs = split_words(args.text("labs"));
    std::map<std::string, LabPlan> plans = load_plans(args.text("manifests"), labs);
    std::string students = args.text("out") + "/students";
    std::string csv = "lab,student_a,student_b,shared,common_fingerprints\n", summary;
    for (const std::string& lab : labs) {
        const LabPlan& plan = plans.at(lab);
        std::string starter_text;
        for (const std::string& file : plan.student_files) starter_text += read_file(args.text("manifests") + "/" + lab + "/" + file);
        std::set<uint64_t> starter = fingerprints(similarity_tokens(starter_text));
        std::vector<Submission> submissions;
        for (const std::string& name : student_folders(students)) {
            std::string text, folder = students + "/" + name + "/" + lab + "/files/";
            bool any = false;
            for (const std::string& file : plan.student_files)
                if (exists(folder + file)) text += read_file(folder + file), any = true;
            if (any) submissions.push_back(make_submission(name, text, starter));
        }
        for (const SimilarPair& p : similar_pairs(submissions, csv_floor, 10)) {
            char shared[16];
            std::snprintf(shared, sizeof shared, "%.3f", p.shared);
            csv += csv_row({lab, spreadsheet_text(p.a), spreadsheet_text(p.b), shared, std::to_string(p.common)}) + "\n";
            if (p.shared >= threshold)
                summary += "  " + lab + "  " + p.a + " and " + p.b + ": " + shared + " of their own fingerprints shared (" +
                           std::to_string(p.common) + ")\n";
        }
    }
    write_file(args.text("out") + "/similarity.csv", csv);
    std::printf("\nSimilar submissions (instructor only; all pairs from %.2f in similarity.csv): %s\n%s", csv_floor,
                summary.empty() ? "none over the threshold" : "over the threshold", summary.c_str());
    return 0;
}

// Every student's score on each lab (a student without one: not graded), students in name order.
std::map<std::string, std::vector<StudentLab>> class_scores(const std::string& out, const std::vector<std::string>& labs,
                                                            const std::map<std::string, LabPlan>& plans) {
    std::map<std::string, std::vector<StudentLab>> scores;
    std::string students = out + "/students";
    for (const std::string& name : student_folders(students)) {
        StudentReport report = load_report(name, students + "/" + name, labs, plans);
        for (const LabScore& lab : report.labs) scores[lab.lab].push_back({name, lab});
    }
    return scores;
}

// timings.tsv (grade.sh's phase_end): one "phase<TAB>seconds" a line.
std::vector<std::pair<std::string, std::string>> read_timings(const std::string& path) {
    std::vector<std::pair<std::string, std::string>> timings;
    std::istringstream lines(read_file(path, 1 << 20));
    for (std::string line; std::getline(lines, line);) {
        size_t tab = line.find('\t');
        if (tab != std::string::npos) timings.push_back({line.substr(0, tab), line.substr(tab + 1)});
    }
    return timings;
}

// The class report (class_report.hpp): OUT/class-report.md, and beside it, in OUT/class-report/,
// each figure's gnuplot script and data; grade.sh draws them. Prints the PNG names the report
// links to, one a line.
int cmd_class_report(int argc, char** argv) {
    ArgParser args("grader class-report", "Writes class-report.md and its figures' gnuplot scripts from every student's score files.");
    args.option("out", "DIR", "", "the grading output folder (students/<name>/<lab>/score.tsv, similarity.csv)");
    args.option("labs", "LIST", "", "the labs, space-separated, in order");
    args.option("manifests", "DIR", "labs", "where the labs' folders are");
    args.option("threshold", "F", "0.5", "shared fraction from which two submissions are similar");
    args.option("timings", "FILE", "", "the grading run's timings.tsv (none: not known, as in a Slurm collection)");
    args.option("when", "TEXT", "", "when the grading ran");
    args.option("gpu", "TEXT", "", "the GPU the cases ran on");
    args.option("no-figures", "WHY", "", "the figures cannot be drawn, for this reason: the report says so instead");
    args.parse(argc, argv);
    ClassReportInputs in;
    in.labs = split_words(args.text("labs"));
    in.plans = load_plans(args.text("manifests"), in.labs);
    in.students = class_scores(args.text("out"), in.labs, in.plans);
    std::string similarity = args.text("out") + "/similarity.csv";
    try {
        if (exists(similarity)) in.similarity = parse_similarity_csv(read_file(similarity, 64 << 20));
    } catch (const FormatError& e) {
        fail(exit_code::io_error, e.what());
    }
    in.similarity_threshold = args.number("threshold", 0, 1);
    if (!args.text("timings").empty()) in.timings = read_timings(args.text("timings"));
    in.when = args.text("when");
    in.gpu = args.text("gpu");
    in.figures_missing = args.text("no-figures");
    std::string folder = args.text("out") + "/" + in.figures_folder;
    if (mkdir(folder.c_str(), 0700) != 0 && errno != EEXIST) fail(exit_code::io_error, "cannot make " + folder);
    for (const auto& [name, text] : class_report_figures(in)) write_file(folder + "/" + name, text);
    write_file(args.text("out") + "/class-report.md", class_report_markdown(in));
    for (const std::string& png : class_report_figure_names(in)) std::printf("%s\n", png.c_str());
    return 0;
}

// The leaderboard (leaderboard.hpp): OUT/leaderboard.md and OUT/leaderboard.csv, under the
// pseudonyms grade.sh made; students without one (they opted out) are left off.
int cmd_leaderboard(int argc, char** argv) {
    ArgParser args("grader leaderboard", "Writes leaderboard.md and leaderboard.csv: every correct submission's performance times, ranked.");
    args.option("out", "DIR", "", "the grading output folder (students/<name>/<lab>/score.tsv)");
    args.option("labs", "LIST", "", "the labs, space-separated, in order");
    args.option("manifests", "DIR", "labs", "where the labs' folders are");
    args.option("entrants", "FILE", "", "one line per student who takes part: the name, a tab, the pseudonym");
    args.option("when", "TEXT", "", "when the grading ran");
    args.option("gpu", "TEXT", "", "the GPU the cases ran on");
    args.parse(argc, argv);
    std::vector<std::string> labs = split_words(args.text("labs"));
    std::map<std::string, LabPlan> plans = load_plans(args.text("manifests"), labs);
    std::map<std::string, std::vector<StudentLab>> scores = class_scores(args.text("out"), labs, plans);
    if (!exists(args.text("entrants"))) fail(exit_code::bad_usage, "--entrants: no file " + args.text("entrants"));
    std::map<std::string, std::string> pseudonyms;
    std::istringstream lines(read_file(args.text("entrants"), 16 << 20));
    for (std::string line; std::getline(lines, line);) {
        size_t tab = line.find('\t');
        if (tab == std::string::npos || tab == 0 || tab + 1 == line.size())
            fail(exit_code::bad_usage, "--entrants: a line is not NAME<TAB>PSEUDONYM: " + clean_line(line, 100));
        pseudonyms[line.substr(0, tab)] = line.substr(tab + 1);
    }
    LeaderboardPage page;
    page.when = args.text("when");
    page.gpu = args.text("gpu");
    for (const std::string& lab : labs) page.titles[lab] = plans.at(lab).title;
    std::set<std::string> students;
    for (const auto& [lab, list] : scores)
        for (const StudentLab& s : list) students.insert(s.student);
    for (const std::string& s : students) page.opted_out += pseudonyms.count(s) ? 0 : 1;
    std::vector<Leaderboard> boards = leaderboards(labs, plans, scores, pseudonyms);
    write_file(args.text("out") + "/leaderboard.md", leaderboard_markdown(boards, page));
    write_file(args.text("out") + "/leaderboard.csv", leaderboard_csv(boards));
    return 0;
}

// grader gpu-suspect: whether a student x lab's runs (DIR/runs/CASE/RUN, DIR/sanitize/TOOL) hold an
// end that may have taken the GPU down (run_evidence.hpp): exit 0 when one does, 1 when none.
int cmd_gpu_suspect(int argc, char** argv) {
    ArgParser args("grader gpu-suspect", "Exit 0 when a run of the student x lab in --dir may have taken the GPU down, 1 when none.");
    args.option("dir", "DIR", "", "the student x lab's folder");
    args.parse(argc, argv);
    namespace fs = std::filesystem;
    std::vector<std::string> runs;
    std::error_code error;
    for (const auto& c : fs::directory_iterator(args.text("dir") + "/runs", error))
        for (const auto& run : fs::directory_iterator(c.path(), error)) runs.push_back(run.path().string());
    for (const auto& tool : fs::directory_iterator(args.text("dir") + "/sanitize", error)) runs.push_back(tool.path().string());
    for (const std::string& run : runs)
        if (may_have_taken_the_gpu_down(read_sandbox_outcome(run + "/sandbox.tsv"))) return 0;
    return 1;
}

// grader cpu-sets: the CPUs of each GPU's timed runs and of the work beside them (cpu_sets.hpp),
// for grade.sh's taskset.
int cmd_cpu_sets(int argc, char** argv) {
    ArgParser args("grader cpu-sets", "Prints 'timed GPU_INDEX FIRST-LAST' per GPU (no range: not pinned) and "
                                      "'beside FIRST-LAST' when CPUs are kept for the work beside timed runs, and 'runners N', "
                                      "the students run at a time on each GPU in the untimed rounds.");
    args.option("cpus", "N", "1", "the CPUs this grading run may use (nproc)");
    args.option("gpus", "N", "1", "the GPUs it grades on");
    args.parse(argc, argv);
    CpuSets sets = cpu_sets(int(args.integer("cpus", 1, 1 << 16)), int(args.integer("gpus", 1, 1 << 10)));
    for (size_t g = 0; g < sets.timed.size(); ++g) std::printf("timed\t%zu\t%s\n", g, sets.timed[g].c_str());
    if (!sets.beside.empty()) std::printf("beside\t%s\n", sets.beside.c_str());
    std::printf("runners\t%d\n", sets.runners);
    return 0;
}

int cmd_gpus(int argc, char** argv) {
    ArgParser args("grader gpus", "Prints the number of usable CUDA devices, or why there is none (exit 3).");
    args.parse(argc, argv);
    std::string reason = why_no_gpu(0);
    if (!reason.empty()) {
        std::printf("%s\n", reason.c_str());
        return exit_code::no_gpu;
    }
    int count = 0;
    cudaGetDeviceCount(&count);
    GpuInfo gpu = require_gpu(0);
    std::printf("%d\t%s\n", count, gpu.name().c_str());
    return 0;
}

const std::map<std::string, Command>& commands() {
    static const std::map<std::string, Command> table = {
        {"plan", cmd_plan},
        {"ledger", cmd_ledger},
        {"submissions", cmd_submissions},
        {"check-submission", cmd_check_submission},
        {"lab-files", cmd_lab_files},
        {"scan-includes", cmd_scan_includes},
        {"scan-build", cmd_scan_build},
        {"scan-symbols", cmd_scan_symbols},
        {"scan-forbidden", cmd_scan_forbidden},
        {"headers", cmd_headers},
        {"check-reference", cmd_check_reference},
        {"checked-runs", cmd_checked_runs},
        {"cases-file", cmd_cases_file},
        {"keep-checked-runs", cmd_keep_checked_runs},
        {"file-evidence", cmd_file_evidence},
        {"check", cmd_check},
        {"check-outputs", cmd_check_outputs},
        {"score", cmd_score},
        {"time-again", cmd_time_again},
        {"report", cmd_report},
        {"gradebook", cmd_gradebook},
        {"similarity", cmd_similarity},
        {"class-report", cmd_class_report},
        {"leaderboard", cmd_leaderboard},
        {"gpus", cmd_gpus},
        {"cpu-sets", cmd_cpu_sets},
        {"gpu-suspect", cmd_gpu_suspect},
        {"progress", cmd_progress},
        {"timing", cmd_timing},
        {"rubric", cmd_rubric}};
    return table;
}

}  // namespace

int main(int argc, char** argv) {
    std::string names;
    for (const auto& [name, command] : commands()) names += " " + name;
    if (argc < 2 || std::string(argv[1]) == "--help") {
        std::printf("usage: grader COMMAND [options]   (COMMAND --help for its options)\ncommands:%s\n", names.c_str());
        return argc < 2 ? exit_code::bad_usage : 0;
    }
    auto it = commands().find(argv[1]);
    if (it == commands().end()) fail(exit_code::bad_usage, std::string("unknown command '") + argv[1] + "'; commands:" + names);
    return it->second(argc - 1, argv + 1);
}
