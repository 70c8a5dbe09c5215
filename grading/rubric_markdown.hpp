// The rubric of a lab as the handout shows it (`grader rubric`, `make handouts-rubric`): the
// cases, each part's correctness and performance points and curve, the sanitizer deductions
// and the lab's total, all taken from the plan the grader scores with, so a handout's "How it
// is graded" section cannot state other numbers than the grade gives
// (tests/scripts/handout-rubric.sh checks the blocks against this).
#pragma once
#include <string>

#include "lab_plan.hpp"

// The first and last lines of the block; the handouts hold the block between them, and the
// tools find it by them.
std::string rubric_begin_marker(const std::string& lab);
inline const std::string rubric_end_marker = "<!-- /rubric -->";

// The block, markers included, each line ending in '\n'.
std::string rubric_markdown(const LabPlan& plan);

