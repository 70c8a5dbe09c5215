#include "checked_runs.hpp"

#include <filesystem>

#include "run_evidence.hpp"

std::set<CheckedRun> missing_checked_run_references(const LabPlan& plan, const std::string& reference,
                                                    const std::string& student_dir, unsigned long long every_run_up_to) {
    namespace fs = std::filesystem;
    const std::vector<std::string> parts = plan.part_names();
    std::set<CheckedRun> needed;
    for (const CasePlan& c : plan.cases) {
        const RunEvidence reference_run = read_run(reference + "/" + c.name, parts);
        auto need = [&](const std::string& part, unsigned long long index) {
            auto ran = reference_run.parts.find(part);
            if (ran == reference_run.parts.end() || ran->second.status != PartStatus::ran) return;
            if (!plan.timed_runs(c, part).contains(index)) return;
            if (!fs::exists(reference + "/" + checked_run_sample(c.name, part, index)))
                needed.insert({c.name, index, part});
        };
        if (every_run_up_to > 0) {
            for (const std::string& part : parts) {
                LabPlan::TimedRuns timed = plan.timed_runs(c, part);
                if (timed.count <= every_run_up_to)
                    for (unsigned long long i = timed.first; i < timed.first + timed.count; ++i) need(part, i);
            }
            continue;
        }
        std::error_code error;
        for (const fs::directory_entry& entry : fs::directory_iterator(student_dir + "/runs/" + c.name, error)) {
            RunEvidence run = read_run(entry.path().string(), parts);
            for (const auto& [part, record] : run.parts)
                for (unsigned long long index : record.checked_runs) need(part, index);
        }
    }
    return needed;
}
