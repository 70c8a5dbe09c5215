#include "checked_runs.hpp"

#include <algorithm>
#include <filesystem>

#include "output_sample.hpp"
#include "run_evidence.hpp"
#include "scoring.hpp"

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

std::vector<std::string> keep_checked_run_samples(const LabPlan& plan, const std::vector<CheckedRun>& runs,
                                                  const std::string& work, const std::string& reference,
                                                  uint64_t seed, size_t at_most) {
    namespace fs = std::filesystem;
    std::vector<std::string> problems;
    for (const auto& [case_name, index, part] : runs) {
        const std::string name = case_name + ".run" + std::to_string(index);
        const std::string what = case_name + " part " + part + ", timed run " + std::to_string(index) + ": ";
        // A reference run is a folder holding out/ (scoring.hpp, reference_run_problem).
        const fs::path run = fs::path(work) / (".keep-" + name);
        std::error_code error;
        fs::remove_all(run, error);
        fs::create_directories(run, error);
        fs::rename(fs::path(work) / name, run / "out", error);
        OutputArray whole;
        std::string problem = reference_run_problem(run.string(), plan, true, part, &whole);
        if (problem.empty() && whole.values.empty()) problem = "the reference run sat the part out: nothing to sample";
        try {
            if (problem.empty()) {
                OutputSample sample = sample_output(whole, at_most, seed);
                if (sample.positions.empty()) throw std::runtime_error("the reference output bounds no element");
                const fs::path kept = fs::path(reference) / checked_run_sample(case_name, part, index);
                fs::create_directories(kept.parent_path());
                write_output_sample(kept.string(), sample);
            }
        } catch (const std::exception& e) {
            problem = e.what();
        }
        if (!problem.empty()) problems.push_back(what + problem);
        fs::remove_all(run, error);
    }
    return problems;
}
