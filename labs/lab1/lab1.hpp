// Lab 1 as the shared driver core sees it (common/lab_case.hpp): its driver's main() and its
// GPU tests run the same lab, and the tests run the same parts.
#pragma once
#include <vector>

#include "lab_case.hpp"
#include "matmul.h"

struct MatmulPart {
    const char* name;           // as in the manifest's `parts` and --part
    bool uses_tile, uses_depth;  // the --tile and --depth options shape it
    void (*run)(const MatmulProblem&, int tile, int depth, Launcher&);
};

// The rungs of the ladder, in ladder order: the driver runs them and the tests check them from
// this one list (common/part_table.hpp looks a rung up by name), so a new rung is added here and
// in the manifest's `parts`, nowhere else.
const std::vector<MatmulPart>& matmul_parts();

LabInfo lab1();
