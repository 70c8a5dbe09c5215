#include "rungs.hpp"

#include "args.hpp"
#include "fail.hpp"

const std::vector<Rung>& all_rungs() {
    static const std::vector<Rung> rungs = {
        {"naive", true, matmul_naive},
        {"tiled", true, matmul_tiled},
        {"dynamic", true, matmul_dynamic},
        {"coarse2", false, [](const MatmulProblem& p, int, Launcher& l) { matmul_coarse2(p, l); }},
        {"regblock", false, [](const MatmulProblem& p, int, Launcher& l) { matmul_regblock(p, l); }},
    };
    return rungs;
}

std::vector<const Rung*> select_rungs(const std::string& text) {
    std::vector<const Rung*> chosen;
    std::string names;
    for (const Rung& r : all_rungs()) {
        names += std::string(names.empty() ? "" : ", ") + r.name;
        if (text == "all") chosen.push_back(&r);
    }
    if (text == "all") return chosen;
    for (const std::string& wanted : split_list(text)) {
        const Rung* found = nullptr;
        for (const Rung& r : all_rungs())
            if (wanted == r.name) found = &r;
        if (!found) fail(exit_code::bad_usage, "--rung: no rung named '" + wanted + "' (rungs: " + names + ", or all)");
        chosen.push_back(found);
    }
    if (chosen.empty()) fail(exit_code::bad_usage, "--rung: no rung given (rungs: " + names + ", or all)");
    return chosen;
}
