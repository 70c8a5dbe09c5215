// The report writers: feedback.md and results.json (Gradescope's schema) per student, and
// the class gradebook (CSV, one row per student) with its on-screen summary. They read only
// score files (lab_score.hpp), so they never see a student's raw output.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "lab_plan.hpp"
#include "lab_score.hpp"

struct StudentReport {
    std::string student;
    std::vector<LabScore> labs;      // in the order the labs were graded
    std::vector<std::string> notes;  // about the submission as a whole (which entry was graded)
    // With grade.sh --leaderboard: the pseudonym the student's times appear under, or, when
    // off_leaderboard, none (the submission holds a file NO-LEADERBOARD).
    std::string pseudonym;
    bool off_leaderboard = false;
    double total() const;
    double max() const;
};

// What the feedback says about the grading run itself.
struct RunDescription {
    std::string when;       // "2025-05-01 23:10"
    std::string gpu;        // the GPU the cases ran on, or why none
    std::string isolation;  // the sandbox that was used
};

// A lab without a score file (the run stopped before it): zero, with its maximum.
LabScore not_graded(const LabPlan& plan);

std::string feedback_markdown(const StudentReport& report, const std::map<std::string, LabPlan>& plans,
                              const RunDescription& run);
std::string gradescope_json(const StudentReport& report);
// Header "student,<lab>...,total"; RFC 4180 quoting; rows in the order given. A cell that a
// spreadsheet would take for a formula (it starts with =, +, -, @, a tab or a carriage
// return) starts with ' instead, so importing the gradebook runs nothing.
std::string spreadsheet_text(const std::string& cell);
std::string gradebook_csv(const std::vector<StudentReport>& reports, const std::vector<std::string>& labs);
// The table printed at the end of a grading run.
std::string summary_table(const std::vector<StudentReport>& reports, const std::vector<std::string>& labs);

// What a student may read of an item of a hidden case: "passed", "failed", or the grader's
// words when it did not run the case (not_run_prefix); nothing of the case itself.
std::string hidden_outcome(const ScoreItem& item);

// Inline Markdown from untrusted text: special characters escaped, one line.
std::string markdown_inline(const std::string& text);
// A fenced code block that the text cannot close early.
std::string markdown_block(const std::string& text);
