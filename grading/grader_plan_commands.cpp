// The grader's commands before the builds (grader_commands.hpp): the lab's plan, the rubric
// its handout shows, this machine's GPUs and CPUs, and the submissions folder.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "cpu_sets.hpp"
#include "fail.hpp"
#include "gpu.hpp"
#include "plan_file.hpp"
#include "grader_commands.hpp"
#include "manifest.hpp"
#include "round_plan.hpp"
#include "rubric_markdown.hpp"
#include "submission_layout.hpp"

namespace {

std::string quoted_words(const std::vector<std::string>& words) {
    std::string out;
    for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
    return out;
}

}  // namespace

// Lines of tab-separated fields for grade.sh: the plan, checked; with --write, also the lab's plan
// in this run that its later commands read (plan_file.hpp).
int cmd_plan(ArgParser& args, int argc, char** argv) {
    lab_options(args);
    wall_options(args);
    args.flag("no-sanitizer", "the grading machine has no compute-sanitizer (the rounds' work counts no tool)");
    args.option("write", "FILE", "", "also write the lab's plan in this run there (plan_file.hpp), for the later commands' --plan");
    args.option("sample-seed", "S", "0", "with --write: the grading run's secret sample seed");
    args.parse(argc, argv);
    if (!args.text("write").empty() && args.text("lab").empty())
        fail(exit_code::bad_usage, "--write: the plan is written from --lab, not from --plan");
    LabPlan plan = plan_from(args);
    const WallRules rules = wall_rules_from(args);
    if (!args.text("write").empty()) {
        write_plan_file(args.text("write"), PlanFile{plan.lab, args.text("manifests"), plan.grading_seed,
                                                     sample_seed_of(args, "sample-seed"), rules.time_limit_cap, rules.margin});
    }
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

int cmd_gpus(ArgParser& args, int argc, char** argv) {
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

// grader cpu-sets: the CPUs of each GPU's timed runs and of the work beside them (cpu_sets.hpp),
// for grade.sh's taskset.
int cmd_cpu_sets(ArgParser& args, int argc, char** argv) {
    args.option("cpus", "N", "1", "the CPUs this grading run may use (nproc)");
    args.option("gpus", "N", "1", "the GPUs it grades on");
    args.parse(argc, argv);
    CpuSets sets = cpu_sets(int(args.integer("cpus", 1, 1 << 16)), int(args.integer("gpus", 1, 1 << 10)));
    for (size_t g = 0; g < sets.timed.size(); ++g) std::printf("timed\t%zu\t%s\n", g, sets.timed[g].c_str());
    if (!sets.beside.empty()) std::printf("beside\t%s\n", sets.beside.c_str());
    std::printf("runners\t%d\n", sets.runners);
    return 0;
}

// grader submissions: each student's entry of the submissions folder (submission_layout.hpp),
// for grading/lib/submissions.sh: ID, ENTRY, NOTE and CONFLICT, each ended by a NUL (a name may
// hold any other byte).
int cmd_submissions(ArgParser& args, int argc, char** argv) {
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

// grader check-submission: what makes a submission folder unusable (submission_layout.hpp), for
// grading/lib/submissions.sh, before a student's folder is copied and after an archive is unpacked.
int cmd_check_submission(ArgParser& args, int argc, char** argv) {
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
int cmd_lab_files(ArgParser& args, int argc, char** argv) {
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

// The rubric block of a lab's handout (rubric_markdown.hpp), for make handouts-rubric.
int cmd_rubric(ArgParser& args, int argc, char** argv) {
    args.option("lab", "LAB", "", "the lab (a folder of --manifests)");
    args.option("manifests", "DIR", "labs", "where the labs' folders are");
    args.parse(argc, argv);
    const std::string lab = args.text("lab");
    if (lab.empty()) fail(exit_code::bad_usage, "--lab is required");
    std::fputs(rubric_markdown(make_lab_plan(Manifest::load(args.text("manifests") + "/" + lab + "/manifest"), lab)).c_str(), stdout);
    return 0;
}
