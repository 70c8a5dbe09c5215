#include "checked_runs.hpp"

#include <algorithm>
#include <filesystem>

#include "run_evidence.hpp"

unsigned long long made_first_up_to(unsigned long long students, unsigned long long side_by_side) {
    return 2 * std::max(1ull, students) * std::max(1ull, side_by_side);
}

std::set<CheckedRun> missing_checked_run_references(const LabPlan& plan, const std::string& reference,
                                                    const std::string& student_dir, unsigned long long students,
                                                    unsigned long long side_by_side) {
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
        if (students > 0) {
            for (const std::string& part : parts) {
                LabPlan::TimedRuns timed = plan.timed_runs(c, part);
                if (timed.count <= made_first_up_to(students, side_by_side))
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
