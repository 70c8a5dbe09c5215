#include "reference_run.hpp"

#include <sys/stat.h>

#include <stdexcept>

namespace {

bool exists(const std::string& path) {
    struct stat info {};
    return stat(path.c_str(), &info) == 0;
}

}  // namespace

ReferenceRun read_reference(const std::string& dir, const std::vector<std::string>& parts, const std::string& what) {
    if (!exists(dir + "/out/results.tsv")) throw std::runtime_error("the " + what + " is missing: " + dir + "/out/results.tsv");
    RunEvidence run = read_run(dir, parts);
    ReferenceRun ref;
    ref.floor_ms = run.floor_ms;
    for (const std::string& part : parts) {
        auto it = run.parts.find(part);
        if (it == run.parts.end() || (it->second.status != PartStatus::ran && it->second.status != PartStatus::skipped))
            throw std::runtime_error("the " + what + " has no result for part " + part + " in " + dir +
                                     ": the reference solution must pass every case");
        ref.parts[part] = it->second;
    }
    return ref;
}

std::string reference_run_problem(const std::string& dir, const LabPlan& plan, bool with_bounds, const std::string& part,
                                  OutputArray* output) {
    try {
        ReferenceRun ref = read_reference(dir, part.empty() ? plan.part_names() : std::vector<std::string>{part}, "reference run");
        for (const auto& [part, record] : ref.parts) {
            if (record.status == PartStatus::skipped) continue;  // sat out by the trusted driver: nothing to time or compare
            if (!with_bounds) {
                if (record.time_ms <= 0) return "the reference run reports no time for part " + part;
                continue;
            }
            if (record.output.empty()) return "the reference run wrote no output for part " + part;
            OutputArray array = read_output_array(dir + "/out/" + record.output);
            if (array.bound.empty()) return "the reference output of part " + part + " has no error bounds (--write-bounds)";
            if (output) *output = std::move(array);
        }
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}
