// class-report.md: what the instructor reads of the class as a whole (class_report.hpp).
// Names, messages and compiler lines come from students: every one goes through
// markdown_inline, so none can open a table cell, a link or a code block of its own.
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <sstream>

#include "class_report.hpp"
#include "args.hpp"
#include "json_text.hpp"
#include "reports.hpp"
#include "stats.hpp"

namespace {

std::string pts(double v) { return json_number(v); }

std::string fixed(double v, int decimals) {
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", decimals, v);
    return text;
}

bool has_figure(const ClassReportInputs& in, const std::string& png) {
    std::vector<std::string> names = class_report_figure_names(in);
    return std::find(names.begin(), names.end(), png) != names.end();
}

// The picture, or nothing when the figures could not be drawn (the report says why, once).
void write_figure(std::ostringstream& md, const ClassReportInputs& in, const std::string& png, const std::string& alt) {
    if (in.figures_missing.empty() && has_figure(in, png)) md << "![" << alt << "](" << in.figures_folder << "/" << png << ")\n\n";
}

void write_totals(std::ostringstream& md, const ClassReportInputs& in, const std::string& lab,
                  const std::vector<StudentLab>& students) {
    std::map<std::string, int> states;
    std::vector<double> totals;
    double max = 0;
    for (const StudentLab& s : students) {
        ++states[s.score.state];
        totals.push_back(s.score.points);
        max = std::max(max, s.score.max);
    }
    md << "### Totals\n\n";
    if (totals.empty()) {
        md << "No student was graded on this lab.\n\n";
        return;
    }
    double mean = std::accumulate(totals.begin(), totals.end(), 0.0) / double(totals.size());
    md << students.size() << " students, out of " << pts(max) << " points: median " << pts(median(totals)) << ", mean "
       << pts(mean) << ", lowest " << pts(*std::min_element(totals.begin(), totals.end())) << ", highest "
       << pts(*std::max_element(totals.begin(), totals.end())) << ". States:";
    std::vector<std::string> counts;
    for (const auto& [state, n] : states) counts.push_back(" " + markdown_inline(state) + " " + std::to_string(n));
    md << join_list(counts, ",") << " (graded: the cases ran).\n\n";
    write_figure(md, in, lab + "-totals.png", "Histogram of the totals of " + lab);
}

void write_pass_rates(std::ostringstream& md, const LabPlan& plan, const std::vector<StudentLab>& students) {
    PassRates rates = pass_rates(students);
    md << "### Pass rates\n\nHow many of the " << rates.graded
       << " students whose cases ran passed each part on each case (hidden cases included).\n\n";
    if (rates.graded == 0) return;
    std::vector<std::string> parts = plan.part_names();
    md << "| case | visibility |";
    for (const std::string& p : parts) md << " " << markdown_inline(p) << " |";
    md << "\n|---|---|";
    for (size_t i = 0; i < parts.size(); ++i) md << "---:|";
    md << "\n";
    for (const CasePlan& c : plan.cases) {
        md << "| " << markdown_inline(c.name) << " | " << (c.hidden ? "hidden" : "public") << " |";
        for (const std::string& p : parts) md << " " << rates.of(c.name, p) << "/" << rates.graded << " |";
        md << "\n";
    }
    md << "\n";
}

void write_performance(std::ostringstream& md, const ClassReportInputs& in, const LabPlan& plan,
                       const std::vector<StudentLab>& students) {
    std::vector<RatioSeries> series = performance_ratios(plan, students);
    if (series.empty()) return;
    md << "### Performance against the reference\n\n"
          "Each student's time over the reference solution's on the same GPU (the ratio of each performance item of "
          "score.tsv; below 1 is faster), for the parts with a correct result on the performance case.\n\n";
    write_figure(md, in, plan.lab + "-ratios.png", "Performance ratios of " + plan.lab + " by part");
    md << "| part | case | timed | fastest | quartile | median | quartile | slowest | full points up to | none from |\n"
          "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    for (const RatioSeries& s : series) {
        md << "| " << markdown_inline(s.part) << " | " << markdown_inline(s.case_name) << " | " << s.ratios.size() << " |";
        if (s.ratios.empty()) {
            md << " - | - | - | - | - |";
        } else {
            for (double q : {0.0, 0.25, 0.5, 0.75, 1.0}) md << " " << fixed(quantile(s.ratios, q), 2) << "x |";
        }
        md << " " << pts(s.curve.full_ratio) << "x | " << pts(s.curve.zero_ratio) << "x |\n";
    }
    md << "\n";
}

void write_failures(std::ostringstream& md, const std::vector<StudentLab>& students) {
    std::vector<FailureGroup> groups = frequent_failures(students, 10);
    md << "### The most frequent failures\n\n";
    if (groups.empty()) {
        md << "No case failed and no sanitizer took points.\n\n";
        return;
    }
    md << "The failed correctness items and the sanitizer findings that took points, of the students whose cases "
          "ran, grouped by their message with every number in it replaced by N (a number inside a name, as in "
          "coarse2 or lab1, is kept): `[3] = 0.5, expected 1` and `[7] = 2, expected 4` are one failure. Each "
          "group gives one of its messages as it was, and who got it, where.\n\n";
    int rank = 0;
    for (const FailureGroup& g : groups) {
        md << ++rank << ". **" << g.count << " item" << (g.count == 1 ? "" : "s") << ", " << g.students.size()
           << " student" << (g.students.size() == 1 ? "" : "s") << "**: " << markdown_inline(g.message) << "\n";
        if (g.example != g.message) md << "   (for example: " << markdown_inline(g.example) << ")\n";
        std::vector<std::string> who;
        for (const auto& [student, where] : g.students)
            who.push_back(markdown_inline(student) + " (" + markdown_inline(join_list(where, ", ")) + ")");
        md << "   - " << join_list(who, "; ") << "\n";
    }
    md << "\n";
}

// The first line of an item's detail that names an error (a compiler's), else its first line.
std::string first_error_line(const std::string& detail) {
    std::istringstream lines(detail);
    std::string first;
    for (std::string line; std::getline(lines, line);) {
        if (first.empty() && line.find_first_not_of(" \t") != std::string::npos) first = line;
        if (line.find("error") != std::string::npos) return line;
    }
    return first;
}

void write_refusals(std::ostringstream& md, const std::vector<StudentLab>& students) {
    std::vector<std::string> rows;
    for (const StudentLab& s : students) {
        std::vector<std::string> why;
        for (const ScoreItem& i : s.score.items) {
            if (i.kind == "submission") {
                std::istringstream problems(i.detail);
                for (std::string line; std::getline(problems, line);)
                    if (!line.empty()) why.push_back(markdown_inline(line));
            } else if (i.kind == "build" && !i.passed) {
                std::string error = first_error_line(i.detail);
                why.push_back(markdown_inline(i.message) + (error.empty() ? "" : ": " + markdown_inline(error)));
            } else if (i.kind == "forbidden") {
                why.push_back(markdown_inline(i.message));
            } else if (i.kind == "run") {
                why.push_back(markdown_inline(i.message));
            }
        }
        if (s.score.state == "not-graded") why.push_back(markdown_inline(s.score.note));
        if (!why.empty())
            rows.push_back("| " + markdown_inline(s.student) + " | " + markdown_inline(s.score.state) + " | " +
                           join_list(why, "; ") + " |");
    }
    md << "### Build failures and refusals\n\n";
    if (rows.empty()) {
        md << "Every submission was unpacked and built, and none used a forbidden API.\n\n";
        return;
    }
    md << "Submissions that could not be graded (problems.txt), did not build (the build's state and the first error "
          "the compiler gave), or used a forbidden API (forbidden.tsv), and cases that did not run.\n\n"
          "| student | state | why |\n|---|---|---|\n"
       << join_list(rows, "\n") << "\n\n";
}

void write_similarity(std::ostringstream& md, const ClassReportInputs& in, const std::string& lab) {
    std::vector<SimilarityCluster> clusters = similarity_clusters(in.similarity, lab, in.similarity_threshold);
    md << "### Similar submissions (instructor only)\n\n";
    if (clusters.empty()) {
        md << "No pair of submissions shares " << pts(in.similarity_threshold)
           << " or more of what they wrote themselves (every pair from 0.25: similarity.csv).\n\n";
        return;
    }
    md << "Submissions joined by pairs that share at least " << pts(in.similarity_threshold)
       << " of what they wrote themselves (grading/README.md, Similarity; every pair: similarity.csv). Evidence to "
          "look at, not a verdict.\n\n";
    for (const SimilarityCluster& c : clusters) {
        std::vector<std::string> names;
        for (const std::string& s : c.students) names.push_back(markdown_inline(s));
        md << "- " << join_list(names, ", ") << ": " << c.pairs << " pair" << (c.pairs == 1 ? "" : "s") << ", up to "
           << fixed(c.highest, 3) << " shared\n";
    }
    md << "\n";
}

void write_timings(std::ostringstream& md, const ClassReportInputs& in) {
    md << "## Where the time went\n\n";
    if (in.timings.empty()) {
        md << "The time line of this grading run is not known here: with --slurm, each task's log "
              "(.grader/slurm/task-N.log) ends with its own.\n";
        return;
    }
    md << "The phases of the grading run, in seconds, as the screen summary gave them (drawing this report "
          "comes after).\n\n| phase | seconds |\n|---|---:|\n";
    for (const auto& [phase, seconds] : in.timings) md << "| " << markdown_inline(phase) << " | " << markdown_inline(seconds) << " |\n";
}

}  // namespace

std::string class_report_markdown(const ClassReportInputs& in) {
    std::ostringstream md;
    md << "# Class report\n\n";
    std::vector<std::string> about;
    if (!in.when.empty()) about.push_back("Graded " + markdown_inline(in.when));
    if (!in.gpu.empty()) about.push_back("on " + markdown_inline(in.gpu));
    if (!about.empty()) md << join_list(about, " ") << ". ";
    md << "For the instructor only: it names students, and its similarity clusters must never reach them.\n\n";
    if (!in.figures_missing.empty())
        md << "**The figures could not be drawn: " << markdown_inline(in.figures_missing)
           << ".** The tables hold the same numbers; the figures' gnuplot scripts and data are in " << in.figures_folder
           << "/ (run `gnuplot NAME.gp` there).\n\n";
    for (const std::string& lab : in.labs) {
        const LabPlan& plan = in.plans.at(lab);
        auto found = in.students.find(lab);
        const std::vector<StudentLab> none;
        const std::vector<StudentLab>& students = found == in.students.end() ? none : found->second;
        md << "## " << markdown_inline(lab) << ": " << markdown_inline(plan.title) << "\n\n";
        write_totals(md, in, lab, students);
        write_pass_rates(md, plan, students);
        write_performance(md, in, plan, students);
        write_failures(md, students);
        write_refusals(md, students);
        write_similarity(md, in, lab);
    }
    write_timings(md, in);
    return md.str();
}
