// The class report (OUT/class-report.md, instructor only): for each lab, the histogram of totals,
// the pass rates of part x case, each part's performance ratios against the reference, the most
// frequent failures and who got them, build failures and refusals, similarity clusters; then
// the grading run's time line. Like the other report writers it reads only score files
// (lab_score.hpp) and the grader's own tables (similarity.csv, timings.tsv); the figures are
// gnuplot scripts and their data (class_report_figures), drawn by grade.sh.
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "lab_plan.hpp"
#include "lab_score.hpp"

// One student's score on one lab.
struct StudentLab {
    std::string student;
    LabScore score;
};

// Part x case: how many of the students whose cases ran (state graded) passed each.
struct PassRates {
    int graded = 0;
    std::map<std::pair<std::string, std::string>, int> passed;  // (case, part)
    int of(const std::string& case_name, const std::string& part) const;
};
PassRates pass_rates(const std::vector<StudentLab>& students);

// A failure message with every number replaced by N, so that the same failure with other
// values counts once: "wrong result: 3 of 10 values wrong; the first: [7] = 0.5, expected 1"
// becomes "wrong result: N of N values wrong; the first: [N] = N, expected N". A number is a
// run of digits with its sign, decimals, exponent or 0x prefix, not preceded by a letter, a
// digit or "_": names keep their digits (lab1, coarse2, fw_2d, tile16). One line, at most 300
// bytes of the message (untrusted_text.hpp's clean_line).
std::string normalized_message(const std::string& message);

// Items that failed: correctness items not passed and sanitizer items that took points, of
// the labs whose cases ran (a build failure is reported on its own, not here).
struct FailureGroup {
    std::string message;  // normalized
    std::string example;  // the first message of the group as it was
    int count = 0;        // items
    // student -> where: "part on case", or "tool on case", in the order met
    std::vector<std::pair<std::string, std::vector<std::string>>> students;
};
// The `limit` most frequent, most items first, then most students, then the message.
std::vector<FailureGroup> frequent_failures(const std::vector<StudentLab>& students, size_t limit);

// The ratios (student's time / reference's) of a part's performance items on one case.
struct RatioSeries {
    std::string part, case_name;
    PerfCurve curve;
    std::vector<double> ratios;  // sorted
};
// Every part with performance points on every performance case, in the manifest's order; a
// series may be empty (no student had a correct result there).
std::vector<RatioSeries> performance_ratios(const LabPlan& plan, const std::vector<StudentLab>& students);

// Totals in bins of a round width (1, 2 or 5 x 10^k, about a tenth of the maximum) from 0, each
// holding its lower edge, the last one the maximum too (and narrower when the maximum is not
// on an edge: lab 1's 84 points in 10s end with 80 to 84, where full marks lie).
struct Histogram {
    double width = 1;
    std::vector<int> counts;
};
Histogram totals_histogram(const std::vector<double>& totals, double max);

// similarity.csv (grader similarity): lab,student_a,student_b,shared,common_fingerprints.
struct SimilarityRow {
    std::string lab, a, b;
    double shared = 0;
};
std::vector<SimilarityRow> parse_similarity_csv(const std::string& text);  // throws FormatError
// Submissions linked by pairs sharing at least `threshold`: each group of two or more, its
// students sorted, the groups largest first.
struct SimilarityCluster {
    std::vector<std::string> students;
    int pairs = 0;
    double highest = 0;
};
std::vector<SimilarityCluster> similarity_clusters(const std::vector<SimilarityRow>& rows, const std::string& lab,
                                                   double threshold);

struct ClassReportInputs {
    std::vector<std::string> labs;  // in the order graded
    std::map<std::string, LabPlan> plans;
    std::map<std::string, std::vector<StudentLab>> students;  // lab -> every student's score
    std::vector<SimilarityRow> similarity;
    double similarity_threshold = 0.5;
    std::vector<std::pair<std::string, std::string>> timings;  // phase, seconds (timings.tsv)
    std::string when, gpu;
    std::string figures_folder = "class-report";  // beside class-report.md
    std::string figures_missing;  // why the figures could not be drawn; empty when they were
};

std::string class_report_markdown(const ClassReportInputs& in);
// The gnuplot scripts and their data, file name -> contents, for figures_folder: each script
// `<lab>-<figure>.gp`, run from that folder, writes `<lab>-<figure>.png`.
std::map<std::string, std::string> class_report_figures(const ClassReportInputs& in);
// The PNG files the markdown links to (as class_report_figures' scripts name them).
std::vector<std::string> class_report_figure_names(const ClassReportInputs& in);
