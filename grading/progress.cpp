#include "progress.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "atomic_file.hpp"
#include "lab_score.hpp"
#include "result_files.hpp"
#include "run_evidence.hpp"

ProgressState read_progress(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw FormatError("cannot read the progress file " + path);
    ProgressState s;
    std::string line;
    if (!std::getline(in, line) ||
        !(std::istringstream(line) >> s.started_us >> s.work_all >> s.work_done >> s.round >> s.rounds >> s.total >> s.done))
        throw FormatError("the progress file " + path + " is not one");
    std::getline(in, s.round_name);
    while (std::getline(in, line))
        if (!line.empty()) s.failed.insert(line);
    return s;
}

void write_progress(const std::string& path, const ProgressState& s) {
    AtomicFile file(path);
    file.stream() << s.started_us << ' ' << s.work_all << ' ' << s.work_done << ' ' << s.round << ' ' << s.rounds << ' '
                  << s.total << ' ' << s.done << '\n'
                  << s.round_name << '\n';
    for (const std::string& who : s.failed) file.stream() << who << '\n';
    file.commit();
}

bool looks_failed(const std::string& lab_dir) {
    namespace fs = std::filesystem;
    std::error_code error;
    std::vector<std::string> runs;
    for (const auto& c : fs::directory_iterator(lab_dir + "/runs", error))
        for (const auto& run : fs::directory_iterator(c.path(), error)) runs.push_back(run.path().string());
    for (const auto& tool : fs::directory_iterator(lab_dir + "/sanitize", error)) runs.push_back(tool.path().string());
    for (const std::string& run : runs) {
        SandboxOutcome end = read_sandbox_outcome(run + "/sandbox.tsv");
        if (end.present && (end.outcome != "exited" || end.exit_code != 0)) return true;
    }
    if (!fs::exists(lab_dir + "/score.tsv")) return false;
    LabScore score;
    try {
        score = read_lab_score(lab_dir + "/score.tsv");
    } catch (const std::exception&) {
        return true;  // a score that cannot be read is one to look at
    }
    if (score.state != "graded") return true;
    for (const ScoreItem& item : score.items)
        if ((item.kind == "correctness" || item.kind == "sanitizer") && !item.passed) return true;
    return false;
}

std::string time_left(const ProgressState& s, int64_t now_us) {
    if (s.round == s.rounds && s.done == s.total) return "none";
    if (s.work_done <= 0) return "not known yet";
    int64_t left = std::max<int64_t>(0, (now_us - s.started_us) * (s.work_all - s.work_done) / s.work_done);
    if (left < 90000000) return "about " + std::to_string((left + 500000) / 1000000) + " s";
    return "about " + std::to_string((left + 30000000) / 60000000) + " min";
}

std::string progress_line(const ProgressState& s, int64_t now_us) {
    return "runs: round " + std::to_string(s.round) + "/" + std::to_string(s.rounds) + " (" + s.round_name + ") " +
           std::to_string(s.done) + "/" + std::to_string(s.total) + ", " + std::to_string(s.failed.size()) +
           " with failures, time left: " + time_left(s, now_us);
}
