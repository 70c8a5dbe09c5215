#include "reports.hpp"

double StudentReport::total() const {
    double sum = 0;
    for (const LabScore& lab : labs) sum += lab.points;
    return sum;
}

double StudentReport::max() const {
    double sum = 0;
    for (const LabScore& lab : labs) sum += lab.max;
    return sum;
}

std::string hidden_outcome(const ScoreItem& item) {
    if (item.passed) return "passed";
    return item.message.rfind(not_run_prefix, 0) == 0 ? item.message : "failed";
}

LabScore not_graded(const LabPlan& plan) {
    LabScore s;
    s.lab = plan.lab;
    s.title = plan.title;
    s.state = "not-graded";
    s.note = "not graded: the grading run stopped before this lab";
    s.max = plan.max_points();
    return s;
}
