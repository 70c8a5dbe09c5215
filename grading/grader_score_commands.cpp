// The grader's commands that score a student (grader_commands.hpp): one lab's score from its
// evidence, and the student's feedback and results.json.
#include <cstdio>
#include <vector>

#include "fail.hpp"
#include "grader_commands.hpp"
#include "json_text.hpp"
#include "reports.hpp"
#include "scoring.hpp"

int cmd_score(ArgParser& args, int argc, char** argv) {
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

int cmd_report(ArgParser& args, int argc, char** argv) {
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
