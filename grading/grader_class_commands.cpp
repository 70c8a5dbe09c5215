// The grader's commands of the class as a whole (grader_commands.hpp), for the instructor, each
// one process over every student's score files: class-summary (the gradebook and the similarity
// report, and summary.txt's text) once the students are scored, and class-pages (the class
// report with its figures' scripts, and the leaderboard an instructor may post) once the run's
// time line is complete.
#include <errno.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>
#include <vector>

#include "class_report.hpp"
#include "fail.hpp"
#include "grader_commands.hpp"
#include "leaderboard.hpp"
#include "reports.hpp"
#include "similarity.hpp"
#include "table.hpp"
#include "untrusted_text.hpp"

namespace {

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

// gradebook.csv for every student graded in --out, and the summary table on stdout.
void write_gradebook(const ArgParser& args, const std::vector<std::string>& labs, const std::map<std::string, LabPlan>& plans) {
    std::vector<StudentReport> reports;
    std::string students = args.text("out") + "/students";
    for (const std::string& name : student_folders(students))
        reports.push_back(load_report(name, students + "/" + name, labs, plans));
    write_file(args.text("out") + "/gradebook.csv", gradebook_csv(reports, labs));
    std::fputs(summary_table(reports, labs).c_str(), stdout);
}

// Pairs of submissions of each lab that share much of what they wrote themselves
// (similarity.hpp), for the instructor: similarity.csv, and the pairs over the threshold on
// stdout, a section of summary.txt. Never in any student's feedback.
void write_similarity(const ArgParser& args, const std::vector<std::string>& labs, const std::map<std::string, LabPlan>& plans) {
    const double threshold = args.number("threshold", 0, 1), csv_floor = std::min(threshold, 0.25);
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
}

// The class report (class_report.hpp): OUT/class-report.md, and beside it, in OUT/class-report/,
// each figure's gnuplot script and data; grade.sh draws them. Prints the PNG names the report
// links to, one a line.
void write_class_report(const ArgParser& args, const std::vector<std::string>& labs, const std::map<std::string, LabPlan>& plans) {
    ClassReportInputs in;
    in.labs = labs;
    in.plans = plans;
    in.students = class_scores(args.text("out"), in.labs, in.plans);
    std::string similarity = args.text("out") + "/similarity.csv";
    if (exists(similarity)) in.similarity = parse_similarity_csv(read_file(similarity, 64 << 20));
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
}

// The leaderboard (leaderboard.hpp): OUT/leaderboard.md and OUT/leaderboard.csv, under the
// pseudonyms grade.sh made; students without one (they opted out) are left off.
void write_leaderboard(const ArgParser& args, const std::vector<std::string>& labs, const std::map<std::string, LabPlan>& plans) {
    std::map<std::string, std::vector<StudentLab>> scores = class_scores(args.text("out"), labs, plans);
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
}

// Where the class's files are and what they cover: every class command's first options.
void class_options(ArgParser& args) {
    args.option("out", "DIR", "", "the grading output folder (students/<name>/<lab>/score.tsv, files/, similarity.csv)");
    args.option("labs", "LIST", "", "the labs, space-separated, in order: the gradebook's columns");
    args.option("manifests", "DIR", "labs", "where the labs' folders are (the starter files)");
    args.option("threshold", "F", "0.5", "shared fraction from which two submissions are similar");
}

}  // namespace

// summary.txt's text on stdout: the gradebook's summary table, then the similar pairs.
int cmd_class_summary(ArgParser& args, int argc, char** argv) {
    class_options(args);
    args.parse(argc, argv);
    args.number("threshold", 0, 1);  // refused before anything is written
    const std::vector<std::string> labs = split_words(args.text("labs"));
    const std::map<std::string, LabPlan> plans = load_plans(args.text("manifests"), labs);
    write_gradebook(args, labs, plans);
    write_similarity(args, labs, plans);
    return 0;
}

// The class report, and with --entrants the leaderboard; prints the PNG names the report links to.
int cmd_class_pages(ArgParser& args, int argc, char** argv) {
    class_options(args);
    args.option("timings", "FILE", "", "the grading run's timings.tsv (none: not known, as in a Slurm collection)");
    args.option("when", "TEXT", "", "when the grading ran");
    args.option("gpu", "TEXT", "", "the GPU the cases ran on");
    args.option("no-figures", "WHY", "", "the figures cannot be drawn, for this reason: the report says so instead");
    args.option("entrants", "FILE", "",
                "the leaderboard's (grade.sh --leaderboard): one line per student who takes part, the name, a tab, the pseudonym");
    args.parse(argc, argv);
    args.number("threshold", 0, 1);  // refused before anything is written
    if (!args.text("entrants").empty() && !exists(args.text("entrants")))
        fail(exit_code::bad_usage, "--entrants: no file " + args.text("entrants"));
    const std::vector<std::string> labs = split_words(args.text("labs"));
    const std::map<std::string, LabPlan> plans = load_plans(args.text("manifests"), labs);
    write_class_report(args, labs, plans);
    if (!args.text("entrants").empty()) write_leaderboard(args, labs, plans);
    return 0;
}
