// The rungs of lab 1, in ladder order: the driver runs them and the tests check them
// from this one list, so a new rung is added here and nowhere else.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "matmul.h"

struct Rung {
    const char* name;
    bool uses_tile;  // the --tile option shapes its blocks
    std::function<void(const MatmulProblem&, int tile, Launcher&)> run;
};

const std::vector<Rung>& all_rungs();
// "all" or a comma-separated list of names; exits with bad_usage naming the known rungs.
std::vector<const Rung*> select_rungs(const std::string& text);
