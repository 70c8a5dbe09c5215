// The parts of lab 1 (the rungs of the ladder), in ladder order: the driver runs them and the
// tests check them from this one list, so a new rung is added here and in the manifest's
// `parts`, nowhere else.
#pragma once
#include <string>
#include <vector>

#include "matmul.h"

struct MatmulPart {
    const char* name;
    bool uses_tile, uses_depth;  // the --tile and --depth options shape it
    void (*run)(const MatmulProblem&, int tile, int depth, Launcher&);
};

const std::vector<MatmulPart>& matmul_parts();
const MatmulPart& matmul_part(const std::string& name);  // a name of matmul_parts()
std::vector<std::string> matmul_part_names();
