#include "run_evidence.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include "exit_codes.hpp"
#include "lab_plan.hpp"
#include "result_files.hpp"
#include "untrusted_text.hpp"

namespace {

double parse_number(const std::string& text) {
    if (text.empty()) return NAN;
    char* end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    return end && *end == '\0' ? v : NAN;
}

std::string field(const Record& r, const std::string& key) {
    auto it = r.find(key);
    return it == r.end() ? "" : it->second;
}

std::string seconds_text(double s) {
    char text[32];
    std::snprintf(text, sizeof text, s < 10 ? "%.1f" : "%.0f", s);
    return text;
}

// Whether a sanitizer run's log shows that the GPU was short of memory: a CUDA call that failed
// for it ("Program hit cudaErrorMemoryAllocation"), or the driver's refusal to start a case the
// free memory cannot hold (exit_code::gpu_short_advice; the tool's exit status hides the
// driver's). On a shared GPU a classmate's program may have held it (gpu_may_have_been_short,
// its one reader: here, not in sanitizer_log.cpp, which reads this file's sandbox outcome, so
// that neither includes the other). The whole log is searched, in chunks: it may be as large as a run's
// output limit, and the line may come early. False when it cannot be read.
bool log_shows_gpu_short(const std::string& log_path) {
    const std::string texts[] = {"cudaErrorMemoryAllocation", exit_code::gpu_short_advice};
    size_t longest = 0;
    for (const std::string& text : texts) longest = std::max(longest, text.size());
    std::ifstream in(log_path, std::ios::binary);
    std::string window;
    std::vector<char> chunk(1 << 16);
    while (in.read(chunk.data(), std::streamsize(chunk.size())) || in.gcount() > 0) {
        window.append(chunk.data(), size_t(in.gcount()));
        for (const std::string& text : texts)
            if (window.find(text) != std::string::npos) return true;
        // Keep the tail a match could start in.
        if (window.size() > longest) window.erase(0, window.size() - longest);
    }
    return false;
}

}  // namespace

std::string SandboxOutcome::describe() const {
    if (!present) return "the program did not run (no record of its end)";
    if (outcome == "timeout")
        return "the program was stopped after " + seconds_text(seconds) + " s by the wall-clock limit";
    if (outcome == "output-limit") return "the program was stopped for writing more than the output limit";
    if (outcome == "cpu-limit") return "the program was stopped by the CPU-time limit";
    if (outcome == "setup-failed") return "the sandbox could not start the program";
    if (outcome == "signal") return "the program was killed by " + signal;
    return "the program exited with code " + std::to_string(exit_code);
}

SandboxOutcome read_sandbox_outcome(const std::string& path) {
    SandboxOutcome o;
    std::vector<Record> records;
    try {
        records = read_results(path);
    } catch (const FormatError&) {
        return o;
    }
    if (records.empty()) return o;
    const Record& r = records.back();
    o.present = true;
    o.outcome = field(r, "outcome");
    o.exit_code = std::atoi(field(r, "exit").c_str());
    o.signal = field(r, "signal");
    o.seconds = parse_number(field(r, "seconds"));
    o.wall_limit = parse_number(field(r, "wall_limit"));
    o.isolation = field(r, "isolation");
    if (std::isnan(o.seconds)) o.seconds = 0;
    return o;
}

bool gpu_may_have_been_short(const SandboxOutcome& outcome, bool gpu_shared, const std::string& log_path) {
    if (!gpu_shared) return false;
    if (outcome.outcome == "exited" && (outcome.exit_code == exit_code::gpu_short || outcome.exit_code == exit_code::no_gpu))
        return true;
    return !log_path.empty() && log_shows_gpu_short(log_path);
}

bool may_have_taken_the_gpu_down(const SandboxOutcome& outcome) {
    if (outcome.outcome == "signal" || outcome.outcome == "timeout") return true;
    return outcome.outcome == "exited" && (outcome.exit_code == exit_code::no_gpu || outcome.exit_code == exit_code::kernel_crashed ||
                                           outcome.exit_code == exit_code::kernel_timeout);
}

RunEvidence read_run(const std::string& dir, const std::vector<std::string>& part_names) {
    RunEvidence run;
    run.dir = dir;
    run.output_dir = dir + "/out";
    run.sandbox = read_sandbox_outcome(dir + "/sandbox.tsv");
    std::vector<Record> records;
    try {
        records = read_results(run.output_dir + "/results.tsv");
        run.results_present = true;
    } catch (const FormatError& e) {
        std::string text = e.what();
        if (text.rfind("missing results file", 0) != 0) {
            run.results_present = true;
            run.problems.push_back("results.tsv could not be read: " + clean_line(text));
        }
        return run;
    }
    std::vector<std::string> duplicated;
    for (const Record& r : records) {
        if (field(r, "record") == "run") {
            double ms = parse_number(field(r, "floor_ms"));
            run.floor_ms = std::isfinite(ms) && ms > 0 ? ms : 0;
        }
        if (field(r, "record") != "part") continue;
        std::string part = field(r, "part");
        if (std::find(part_names.begin(), part_names.end(), part) == part_names.end()) {
            run.problems.push_back("results.tsv names an unknown part '" + clean_line(part, 40) + "'");
            continue;
        }
        if (run.parts.count(part) || std::count(duplicated.begin(), duplicated.end(), part)) {
            run.parts.erase(part);
            if (!std::count(duplicated.begin(), duplicated.end(), part)) duplicated.push_back(part);
            continue;
        }
        PartRecord p;
        if (!parse_status(field(r, "status"), p.status)) {
            run.rejected.push_back(part);
            run.problems.push_back("part " + part + ": unknown status '" + clean_line(field(r, "status"), 40) + "'");
            continue;
        }
        p.message = clean_line(field(r, "message"), 600);
        p.output = field(r, "output");
        if (!p.output.empty() && !is_plain_file_name(p.output)) {
            run.problems.push_back("part " + part + ": output name '" + clean_line(p.output, 60) + "' is not a plain file name");
            p.output.clear();
        }
        double ms = parse_number(field(r, "time_ms"));
        p.time_ms = std::isfinite(ms) && ms > 0 ? ms : 0;
        // Run indices (at most 12 digits) and seeds (below 2^62, as the driver draws them).
        auto numbers = [&](const std::string& key, size_t digits_at_most, unsigned long long below,
                           std::vector<unsigned long long>& into) {
            std::istringstream words(field(r, key));
            for (std::string word; words >> word;) {
                bool digits = !word.empty() && word.size() <= digits_at_most &&
                              std::all_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; });
                if (digits && std::stoull(word) < below) into.push_back(std::stoull(word));
                else p.checked_runs_malformed = true;
            }
        };
        numbers("checked_runs", 12, ~0ull, p.checked_runs);
        numbers("checked_seeds", 19, 1ull << 62, p.checked_seeds);
        double floor = parse_number(field(r, "floor_ms"));
        p.floor_ms = std::isfinite(floor) && floor > 0 ? floor : 0;
        double cpu = parse_number(field(r, "cpu_ms"));
        p.cpu_ms = std::isfinite(cpu) && cpu > 0 ? cpu : 0;
        p.host_cpus = clean_line(field(r, "host_cpus"), 120);
        run.parts[part] = p;
    }
    for (const std::string& part : duplicated) {
        run.rejected.push_back(part);
        run.problems.push_back("results.tsv holds more than one record for part " + part);
    }
    return run;
}

std::string batch_folder(int n) { return "batch-" + std::to_string(n); }

std::string checked_run_file(const std::string& part, unsigned long long index) {
    return part + ".run" + std::to_string(index) + ".out";
}

std::string checked_run_sample(const std::string& case_name, const std::string& part, unsigned long long seed) {
    return case_name + "/seed" + std::to_string(seed) + "/out/" + part + ".sample";
}

std::vector<std::string> unrecorded_parts(const RunEvidence& run, const std::vector<std::string>& part_names) {
    std::vector<std::string> missing;
    for (const std::string& part : part_names)
        if (!run.parts.count(part) && std::find(run.rejected.begin(), run.rejected.end(), part) == run.rejected.end())
            missing.push_back(part);
    return missing;
}

std::vector<std::string> stopped_parts(const RunEvidence& run, const std::vector<std::string>& part_names) {
    std::vector<std::string> stopped;
    for (const std::string& part : part_names) {
        auto it = run.parts.find(part);
        if (it != run.parts.end() && it->second.status == PartStatus::timeout) stopped.push_back(part);
    }
    return stopped;
}
