// build/bin/grader: the C++ half of the grader (grading/README.md). grading/grade.sh runs the
// builds and the sandboxed cases; this tool decides and reports. Below is its one table of
// commands, in the order of a grading run, each with its help line and its function (in the file
// of its stage: grader_commands.hpp), and the one way every command starts and stops: its
// ArgParser is made here, and an argument or manifest error it throws becomes one line and exit 2
// (bad usage), a file it cannot read or write one line and exit 6 (io_error).
// Every command reads the lab's manifest through common/manifest.cpp.
#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "args.hpp"
#include "fail.hpp"
#include "grader_commands.hpp"
#include "manifest.hpp"

namespace {

struct Command {
    const char* name;
    const char* help;  // one line: its --help's first
    CommandFunction run;
};

const std::vector<Command>& commands() {
    static const std::vector<Command> table = {
        // Before the builds (grader_plan_commands.cpp).
        {"plan", "Checks a lab's manifest and prints what grade.sh needs, one tab-separated line per item.", cmd_plan},
        {"gpus", "Prints the number of usable CUDA devices, or why there is none (exit 3).", cmd_gpus},
        {"cpu-sets",
         "Prints 'timed GPU_INDEX FIRST-LAST' per GPU (no range: not pinned) and 'beside FIRST-LAST' when CPUs are kept for "
         "the work beside timed runs, and 'runners N', the students run at a time on each GPU in the untimed rounds.",
         cmd_cpu_sets},
        {"submissions", "Prints each student's id, entry, note and conflict, NUL-terminated.", cmd_submissions},
        {"check-submission", "Prints what makes a submission folder unusable and exits 1; exit 0 when nothing does.",
         cmd_check_submission},
        {"lab-files", "Prints the paths of the lab's files in a submission (NUL-terminated), or its problems (exit 1).",
         cmd_lab_files},
        {"rubric", "Prints a lab's rubric as the Markdown block of its handout's grading section.", cmd_rubric},
        // Around a student's build (grader_build_commands.cpp).
        {"scan-includes", "Prints each include of a student file that reaches outside the lab; exit 1 if any.", cmd_scan_includes},
        {"headers", "Prints the headers a preprocessed translation unit included, one a line.", cmd_headers},
        {"check-build",
         "Checks a student build: what it read, the lab's forbidden APIs (forbidden.tsv), the objects' symbols; prints the "
         "problems, exit 1 if any.",
         cmd_check_build},
        // The runs (grader_run_commands.cpp).
        {"cases-file", "Writes the cases file of one run and prints what it runs, one a line.", cmd_cases_file},
        {"run-group",
         "Runs one student x lab's cases, sanitizers or second timing of a round in the sandbox (after --), keeps its ledger "
         "and files the evidence.",
         cmd_run_group},
        {"check-reference", "Checks that reference runs are complete; prints what is wrong and exits 1 if not.", cmd_check_reference},
        {"checked-runs", "Prints CASE/SEED/PART for each checked timed run whose reference output is missing.", cmd_checked_runs},
        {"keep-checked-runs",
         "Checks the reference's outputs of checked timed runs and keeps a sample of each; prints what failed (exit 1).",
         cmd_keep_checked_runs},
        {"check-outputs",
         "Checks the outputs of a student's runs against the reference, keeps the verdicts, reduces the checked timed runs "
         "still waiting for their references to their samples and removes the other arrays.",
         cmd_check_outputs},
        {"check", "Compares one student output with the reference output; exit 0 when it passes.", cmd_check},
        {"timing", "Whether the reference is to be timed now: grader timing VERB (before-student, after-round).", cmd_timing},
        {"progress", "The runs' progress line: grader progress VERB (start, round, step).", cmd_progress},
        // Scoring a student (grader_score_commands.cpp).
        {"score", "Scores one student on one lab from the evidence in its folder; writes score.tsv there.", cmd_score},
        {"report", "Writes feedback.md and results.json for one student from the labs' score files.", cmd_report},
        // The class (grader_class_commands.cpp).
        {"class-summary",
         "Writes gradebook.csv and similarity.csv for every student graded in an output folder and prints the summary and the "
         "similar pairs.",
         cmd_class_summary},
        {"class-pages",
         "Writes class-report.md and its figures' gnuplot scripts, and with --entrants leaderboard.md and leaderboard.csv, "
         "from every student's score files.",
         cmd_class_pages}};
    return table;
}

// The names of the commands, sorted, each after a blank.
std::string command_names() {
    std::vector<std::string> names;
    for (const Command& c : commands()) names.push_back(c.name);
    std::sort(names.begin(), names.end());
    std::string text;
    for (const std::string& name : names) text += " " + name;
    return text;
}

// The command's run, its errors turned into one line and the exit status that says what failed.
int run_command(const Command& command, int argc, char** argv) {
    ArgParser args(std::string("grader ") + command.name, command.help);
    try {
        return command.run(args, argc, argv);
    } catch (const ManifestError& e) {
        fail(exit_code::bad_usage, e.what());
    } catch (const std::invalid_argument& e) {
        fail(exit_code::bad_usage, e.what());
    } catch (const std::runtime_error& e) {
        fail(exit_code::io_error, e.what());
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || std::string(argv[1]) == "--help") {
        std::printf("usage: grader COMMAND [options]   (COMMAND --help for its options)\ncommands:\n");
        for (const Command& c : commands()) std::printf("  %-18s %s\n", c.name, c.help);
        return argc < 2 ? exit_code::bad_usage : 0;
    }
    for (const Command& c : commands())
        if (argv[1] == std::string(c.name)) return run_command(c, argc - 1, argv + 1);
    fail(exit_code::bad_usage, std::string("unknown command '") + argv[1] + "'; commands:" + command_names());
}
