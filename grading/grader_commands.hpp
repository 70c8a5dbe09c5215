// The commands of build/bin/grader (grader_main.cpp holds their one table), by the stage of a
// grading run they serve, each stage in its own file:
//   grader_plan_commands.cpp   before the builds: the lab's plan, the machine, the submissions
//   grader_build_commands.cpp  around a student's build: its includes, what it read, its APIs
//   grader_run_commands.cpp    the runs: a student x lab's in a round, the reference's, output checks
//   grader_score_commands.cpp  one student's score and reports
//   grader_class_commands.cpp  the class's gradebook, similarity, class report and leaderboard
// One way in for all: grader_main.cpp makes each command's ArgParser ("grader NAME", its help
// line), the command adds its options and parses, and a manifest or argument error it throws
// (ManifestError, std::invalid_argument) ends it with its message and exit 2 (bad usage), an
// unreadable or unwritable file (std::runtime_error, FormatError) with exit 6 (io_error).
// Below: the helpers the stages share.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "args.hpp"
#include "lab_plan.hpp"
#include "plan_file.hpp"
#include "reports.hpp"
#include "run_ledger.hpp"

using CommandFunction = int (*)(ArgParser& args, int argc, char** argv);

int cmd_plan(ArgParser& args, int argc, char** argv);
int cmd_gpus(ArgParser& args, int argc, char** argv);
int cmd_cpu_sets(ArgParser& args, int argc, char** argv);
int cmd_submissions(ArgParser& args, int argc, char** argv);
int cmd_check_submission(ArgParser& args, int argc, char** argv);
int cmd_lab_files(ArgParser& args, int argc, char** argv);
int cmd_rubric(ArgParser& args, int argc, char** argv);

int cmd_scan_includes(ArgParser& args, int argc, char** argv);
int cmd_headers(ArgParser& args, int argc, char** argv);
int cmd_check_build(ArgParser& args, int argc, char** argv);

int cmd_cases_file(ArgParser& args, int argc, char** argv);
int cmd_run_group(ArgParser& args, int argc, char** argv);
int cmd_check_reference(ArgParser& args, int argc, char** argv);
int cmd_checked_runs(ArgParser& args, int argc, char** argv);
int cmd_keep_checked_runs(ArgParser& args, int argc, char** argv);
int cmd_check_outputs(ArgParser& args, int argc, char** argv);
int cmd_check(ArgParser& args, int argc, char** argv);
int cmd_timing(ArgParser& args, int argc, char** argv);
int cmd_progress(ArgParser& args, int argc, char** argv);

int cmd_score(ArgParser& args, int argc, char** argv);
int cmd_report(ArgParser& args, int argc, char** argv);

int cmd_class_summary(ArgParser& args, int argc, char** argv);
int cmd_class_pages(ArgParser& args, int argc, char** argv);

// The first max_bytes of the file ("" when it cannot be read), read in chunks: the bound is a
// limit for hostile files, not a size to allocate (zeroing 256 MB cost each scan 2 s).
std::string read_file(const std::string& path, size_t max_bytes = 4 << 20);
// Written whole or not at all (atomic_file.hpp); a failure ends the command (io_error).
void write_file(const std::string& path, const std::string& text);
bool exists(const std::string& path);

// --plan, or --lab, --manifests (default labs; the manifest is labs/<lab>/manifest under it)
// and --grading-seed; plan_from reads them. With --plan (plan_file.hpp) the plan's lab,
// manifests, seeds, cap and margin are taken, and a --lab naming another lab is bad usage.
void lab_options(ArgParser& args);
std::optional<PlanFile> plan_file_of(const ArgParser& args);
LabPlan plan_from(const ArgParser& args);
unsigned long long grading_seed_of(const ArgParser& args);  // the value of --grading-seed

// The secret sample seed: the plan's, else the option's.
unsigned long long sample_seed_of(const ArgParser& args, const std::string& option);
std::map<std::string, LabPlan> load_plans(const std::string& manifests, const std::vector<std::string>& labs);

// How this grading run sets the wall clocks (run_ledger.hpp): grade.sh's --time-limit and
// GRADE_WALL_MARGIN, the plan's when there is one.
void wall_options(ArgParser& args);
WallRules wall_rules_from(const ArgParser& args);

// The verb of `grader COMMAND VERB ...` (argv[1]) and its parser, whose help is the verb's line
// of `verbs`; an unknown verb fails, naming them.
ArgParser verb_parser(const std::string& command, int argc, char** argv, const std::map<std::string, std::string>& verbs,
                      std::string& verb);

// The student folders under `dir`, in name order; one student's report from the score.tsv of
// each of `labs` in its folder `dir` (a lab without one: not graded) and its notes.txt.
std::vector<std::string> student_folders(const std::string& dir);
StudentReport load_report(const std::string& student, const std::string& dir, const std::vector<std::string>& labs,
                          const std::map<std::string, LabPlan>& plans);
