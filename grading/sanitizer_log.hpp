// The verdict of one compute-sanitizer tool on the lab's sanitize case. The tool runs through
// mk/sanitize.sh (the same run as `make labN-memcheck`), with --error-exitcode
// SANITIZER_ERROR_EXIT, so its exit status says whether it found errors even if the program
// printed something misleading; the summary line gives the count.
#pragma once
#include <string>

#include "run_evidence.hpp"

constexpr int SANITIZER_ERROR_EXIT = 99;  // mk/sanitize.sh's --error-exitcode

struct SanitizerVerdict {
    enum class State { clean, errors, unfinished, not_run } state = State::not_run;
    long errors = 0;       // from the summary line, when there is one
    std::string summary;   // one line for the feedback
    std::string excerpt;   // the first reported errors, cleaned
};

// `dir` holds sandbox.tsv and log.txt (the tool's and the program's output).
SanitizerVerdict read_sanitizer_run(const std::string& dir, const std::string& tool);
