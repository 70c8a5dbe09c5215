#include "parts.hpp"

#include "fail.hpp"

const std::vector<MatmulPart>& matmul_parts() {
    static const std::vector<MatmulPart> parts = {
        {"naive", true, false, [](const MatmulProblem& p, int tile, int, Launcher& l) { matmul_naive(p, tile, l); }},
        {"tiled", true, false, [](const MatmulProblem& p, int tile, int, Launcher& l) { matmul_tiled(p, tile, l); }},
        {"dynamic", true, true, matmul_dynamic},
        {"coarse2", false, false, [](const MatmulProblem& p, int, int, Launcher& l) { matmul_coarse2(p, l); }},
        {"regblock", false, false, [](const MatmulProblem& p, int, int, Launcher& l) { matmul_regblock(p, l); }},
    };
    return parts;
}

const MatmulPart& matmul_part(const std::string& name) {
    for (const MatmulPart& p : matmul_parts())
        if (name == p.name) return p;
    fail(exit_code::bad_usage, "lab1 has no part named '" + name + "'");
}

std::vector<std::string> matmul_part_names() {
    std::vector<std::string> names;
    for (const MatmulPart& p : matmul_parts()) names.push_back(p.name);
    return names;
}
