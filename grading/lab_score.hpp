// The score of one student on one lab: a list of items, each worth points, and the total.
// It is what `grader score` writes (score.tsv, the results.tsv record format) and what the
// report writers read: feedback.md, results.json (Gradescope), gradebook.csv.
#pragma once
#include <string>
#include <vector>

struct ScoreItem {
    // submission, build, run, forbidden, correctness, performance, sanitizer, below-bound (a
    // time faster than the case's physical bound: no points, and a line for the instructor)
    std::string kind;
    std::string part;       // correctness, performance, forbidden: the part ("*": every part)
    std::string case_name;  // correctness, performance
    std::string tool;       // sanitizer
    double points = 0;      // earned; negative for a sanitizer deduction
    double max = 0;         // 0 for items that only inform or only take points away
    bool passed = false;
    bool hidden = false;    // belongs to a hidden case: students see no details
    std::string message;    // one line: why
    std::string detail;     // several lines: a compiler, program or sanitizer excerpt
    double student_ms = 0, reference_ms = 0, ratio = 0;  // performance
};

// How the message of an item the grader did not run starts (the submission's run-time budget
// was used up, a GPU stopped): what follows is the grader's own words, never the submission's,
// so even a hidden case's feedback may show it.
inline const std::string not_run_prefix = "not run: ";

struct LabScore {
    std::string lab, title;
    // graded, malformed (a file missing or misnamed), build-failed, not-run (no GPU),
    // not-graded (no score file: the grading run stopped before this lab)
    std::string state;
    std::string note;  // one line for the gradebook summary; empty when all went well
    double points = 0, max = 0;
    std::vector<ScoreItem> items;
};

// Total = sum of the items, never below zero.
double total_points(const std::vector<ScoreItem>& items);

void write_lab_score(const std::string& path, const LabScore& score);  // throws std::runtime_error
LabScore read_lab_score(const std::string& path);                       // throws FormatError
