#include "checked_runs.hpp"

#include <algorithm>
#include <filesystem>

#include "checked_positions.hpp"
#include "output_sample.hpp"
#include "random_data.hpp"
#include "reference_run.hpp"

KeptRunsNamed kept_runs_named(const LabPlan& plan, const CasePlan& c, const std::string& part, const PartRecord& record) {
    KeptRunsNamed named;
    const LabPlan::TimedRuns timed = plan.timed_runs(c, part);
    named.expected = timed.count < 2 ? size_t(timed.count) : 2;
    if (record.checked_runs_malformed || record.checked_runs.size() != named.expected ||
        record.checked_seeds.size() != named.expected)
        return named;
    for (size_t i = 0; i < named.expected; ++i) {
        if (!timed.contains(record.checked_runs[i])) return named;
        for (size_t j = 0; j < i; ++j)
            if (record.checked_runs[j] == record.checked_runs[i] || record.checked_seeds[j] == record.checked_seeds[i])
                return named;
    }
    for (size_t i = 0; i < named.expected; ++i) named.runs.push_back({record.checked_runs[i], record.checked_seeds[i]});
    named.valid = true;
    return named;
}

namespace {

// Whether the reference ran `part` on the case whose reference run is `reference_run`: only
// then is there an output to sample.
bool reference_ran(const RunEvidence& reference_run, const std::string& part) {
    auto ran = reference_run.parts.find(part);
    return ran != reference_run.parts.end() && ran->second.status == PartStatus::ran;
}

}  // namespace

std::set<CheckedRun> missing_checked_run_references(const LabPlan& plan, const std::string& reference,
                                                    const std::string& student_dir) {
    namespace fs = std::filesystem;
    const std::vector<std::string> parts = plan.part_names();
    std::set<CheckedRun> needed;
    for (const CasePlan& c : plan.cases) {
        const RunEvidence reference_run = read_run(reference + "/" + c.name, parts);
        std::error_code error;
        for (const fs::directory_entry& entry : fs::directory_iterator(student_dir + "/runs/" + c.name, error)) {
            RunEvidence run = read_run(entry.path().string(), parts);
            for (const auto& [part, record] : run.parts) {
                if (!reference_ran(reference_run, part)) continue;
                for (const KeptRunNamed& kept : kept_runs_named(plan, c, part, record).runs)
                    if (!fs::exists(reference + "/" + checked_run_sample(c.name, part, kept.seed)))
                        needed.insert({c.name, kept.seed, part});
            }
        }
    }
    return needed;
}

std::set<CheckedRun> reference_probe_runs(const LabPlan& plan, const std::string& reference, uint64_t secret) {
    namespace fs = std::filesystem;
    const std::vector<std::string> parts = plan.part_names();
    std::set<CheckedRun> probes;
    uint64_t drawn = 0;
    for (const CasePlan& c : plan.cases) {
        const RunEvidence reference_run = read_run(reference + "/" + c.name, parts);
        for (const std::string& part : parts) {
            // A seed as a driver draws one (below 2^62), from the secret: the same again on --resume.
            const unsigned long long seed = splitmix_at(secret ^ 0x70726F6265ull, drawn++) >> 2;
            if (reference_ran(reference_run, part) && !fs::exists(reference + "/" + checked_run_sample(c.name, part, seed)))
                probes.insert({c.name, seed, part});
        }
    }
    return probes;
}

std::vector<std::string> keep_checked_run_samples(const LabPlan& plan, const std::vector<CheckedRun>& runs,
                                                  const std::string& work, const std::string& reference,
                                                  uint64_t seed, size_t at_most) {
    namespace fs = std::filesystem;
    std::vector<std::string> problems;
    for (const CheckedRun& checked : runs) {
        const auto& [case_name, input_seed, part] = checked;
        const std::string name = checked_run_name(checked);
        const std::string what = case_name + " part " + part + ", the inputs of seed " + std::to_string(input_seed) + ": ";
        // A reference run is a folder holding out/ (reference_run.hpp, reference_run_problem).
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
                // At the positions of the part's first sample: those its students' kept runs are
                // reduced to (checked_positions.hpp).
                const std::string positions_file = fs::path(reference) / checked_positions_file(case_name, part);
                std::optional<CheckedPositions> positions = read_checked_positions(positions_file);
                if (!positions) {
                    OutputSample drawn = sample_output(whole, at_most, seed);
                    if (drawn.positions.empty()) throw std::runtime_error("the reference output bounds no element");
                    positions = keep_checked_positions(positions_file, positions_of(drawn));
                }
                OutputSample sample = sample_at(whole, *positions);
                const fs::path kept = fs::path(reference) / checked_run_sample(case_name, part, input_seed);
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

std::string checked_run_name(const CheckedRun& run) {
    const auto& [case_name, seed, part] = run;
    return case_name + ".seed" + std::to_string(seed) + "." + part;
}
