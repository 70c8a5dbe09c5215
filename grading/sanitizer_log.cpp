#include "sanitizer_log.hpp"

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>
#include <vector>

#include "exit_codes.hpp"
#include "untrusted_text.hpp"

namespace {

// The error count of the last summary line: "ERROR SUMMARY: 3 errors" (memcheck, synccheck,
// initcheck) or "RACECHECK SUMMARY: 5 hazards displayed (2 errors, 3 warnings)". -1: none.
long last_summary_errors(const std::string& log) {
    static const std::regex plain("ERROR SUMMARY: ([0-9]+) error");
    static const std::regex race("RACECHECK SUMMARY: [0-9]+ hazards? displayed \\(([0-9]+) errors?");
    long errors = -1;
    std::istringstream in(log);
    for (std::string line; std::getline(in, line);) {
        std::smatch m;
        if (std::regex_search(line, m, race) || std::regex_search(line, m, plain)) errors = std::stol(m[1].str());
    }
    return errors;
}

}  // namespace

// compute-sanitizer's words when the program ended before any CUDA call it could watch. A lab's
// driver makes one first thing, so only a program that stops itself under the tool (on finding
// that its parent is the tool's, say) ends so, hiding whatever the tool would have found; or a
// grader whose driver options stop every program there (the launch trace once did), which this
// makes loud: the reference's copies lose the points.
constexpr const char* kEndedBeforeCuda = "Target application terminated before first instrumented API call";

SanitizerVerdict read_sanitizer_run(const std::string& dir, const std::string& tool) {
    SanitizerVerdict v;
    SandboxOutcome end = read_sandbox_outcome(dir + "/sandbox.tsv");
    if (!end.present) {
        v.summary = tool + " was not run";
        return v;
    }
    std::string log = read_text_tail(dir + "/log.txt", 1 << 20);
    long counted = last_summary_errors(log);
    v.errors = counted > 0 ? counted : 0;
    bool tool_says_errors = end.outcome == "exited" && end.exit_code == SANITIZER_ERROR_EXIT;
    if (tool_says_errors || counted > 0) {
        v.state = SanitizerVerdict::State::errors;
        v.summary = tool + " reported " + (counted > 0 ? std::to_string(counted) + " error(s)" : std::string("errors"));
        v.excerpt = log_excerpt(dir + "/log.txt", {"========= "}, 16);
    } else if (log.find(kEndedBeforeCuda) != std::string::npos) {
        v.state = SanitizerVerdict::State::errors;
        v.summary = tool + ": the program ended before its first CUDA call, so the tool saw none of its work; its points "
                           "are taken as for errors";
        v.excerpt = log_excerpt(dir + "/log.txt", {"========= ", "error: "}, 16);
    } else if (end.outcome == "exited" && counted == 0) {
        v.state = SanitizerVerdict::State::clean;
        v.summary = tool + ": no errors";
    } else {
        v.state = SanitizerVerdict::State::unfinished;
        v.summary = tool + " could not finish: " + end.describe() + "; no points were taken for it";
    }
    return v;
}
