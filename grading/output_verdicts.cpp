#include "output_verdicts.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <utility>

#include "atomic_file.hpp"
#include "checked_positions.hpp"
#include "checked_runs.hpp"
#include "output_sample.hpp"

namespace {

namespace fs = std::filesystem;
using VerdictKey = std::pair<std::string, std::string>;  // output, reference

const char* kVerdicts = "/verdicts.tsv";
const size_t kThreads = 4;

std::string one_line(std::string text) {
    for (char& ch : text)
        if (ch == '\t' || ch == '\n' || ch == '\r') ch = ' ';
    return text;
}

// The verdicts a run's verdicts.tsv keeps (written only by check_run_outputs: a line that does
// not read back is the grader's fault, and throws).
std::map<VerdictKey, OutputVerdict> read_verdicts(const std::string& run_dir) {
    std::map<VerdictKey, OutputVerdict> verdicts;
    std::ifstream in(run_dir + kVerdicts);
    for (std::string line; std::getline(in, line);) {
        std::istringstream fields(line);
        std::string output, reference, pass, checked, bad, reason;
        if (!std::getline(fields, output, '\t') || !std::getline(fields, reference, '\t') ||
            !std::getline(fields, pass, '\t') || !std::getline(fields, checked, '\t') || !std::getline(fields, bad, '\t'))
            throw std::runtime_error("a malformed line in " + run_dir + kVerdicts + ": " + line);
        std::getline(fields, reason);
        OutputVerdict v;
        v.pass = pass == "1";
        v.checked = std::stoull(checked);
        v.bad = std::stoull(bad);
        v.reason = reason;
        verdicts[{output, reference}] = v;
    }
    return verdicts;
}

bool is_sample(const std::string& reference) {
    const std::string suffix = ".sample";
    return reference.size() >= suffix.size() && reference.compare(reference.size() - suffix.size(), suffix.size(), suffix) == 0;
}

OutputVerdict check_files(const RunEvidence& run, const std::string& output, const std::string& reference_dir,
                          const std::string& reference, double tolerance) {
    std::string student = run.output_dir + "/" + output, trusted = reference_dir + "/" + reference;
    return is_sample(reference) ? check_output_against_sample(student, trusted, tolerance)
                                : check_output_files(student, trusted, tolerance);
}

// work(i) for every i below n, a few at a time: the round of timed runs waits for this, and
// each check or reduction of a large output is a second of reading on one core. The last
// exception thrown (a reference that cannot be read, a reduction that cannot be written: the
// grader's fault) is thrown again once all have ended.
template <class Work>
void a_few_at_a_time(size_t n, Work work) {
    std::atomic<size_t> next{0};
    std::exception_ptr failure;
    std::mutex failure_lock;
    auto worker = [&] {
        for (size_t i; (i = next++) < n;) {
            try {
                work(i);
            } catch (...) {
                std::lock_guard<std::mutex> hold(failure_lock);
                failure = std::current_exception();
            }
        }
    };
    std::vector<std::thread> threads;
    for (size_t t = 0; t < std::min(kThreads, n); ++t) threads.emplace_back(worker);
    for (std::thread& t : threads) t.join();
    if (failure) std::rethrow_exception(failure);
}

}  // namespace

OutputVerdict output_verdict(const RunEvidence& run, const std::string& output, const std::string& reference_dir,
                             const std::string& reference, double tolerance) {
    std::map<VerdictKey, OutputVerdict> kept = read_verdicts(run.dir);
    auto found = kept.find({output, reference});
    return found != kept.end() ? found->second : check_files(run, output, reference_dir, reference, tolerance);
}

OutputsChecked check_run_outputs(const LabPlan& plan, const CasePlan& c, const std::string& run_dir,
                                 const std::string& reference_dir, bool keep_outputs) {
    const std::vector<std::string> parts = plan.part_names();
    const RunEvidence run = read_run(run_dir, parts);
    const RunEvidence reference = read_run(reference_dir + "/" + c.name, parts);
    // Without it nothing could be checked, and every output would go unchecked: the grader's
    // fault, said before anything is removed.
    if (!reference.results_present)
        throw std::runtime_error("the reference run of case " + c.name + " is missing: " + reference.output_dir + "/results.tsv");
    std::map<VerdictKey, OutputVerdict> verdicts = read_verdicts(run_dir);
    std::set<std::string> waiting;  // outputs whose reference sample is not made yet
    std::vector<VerdictKey> to_check;
    // Those of the waiting whose positions are drawn, with them: reduced to their sample.
    std::vector<std::pair<std::string, std::shared_ptr<const CheckedPositions>>> to_reduce;
    OutputsChecked done;
    auto check = [&](const std::string& output, const std::string& reference_path) {
        if (!verdicts.count({output, reference_path})) to_check.push_back({output, reference_path});
    };
    for (const auto& [part, record] : run.parts) {
        auto ran = reference.parts.find(part);
        if (record.status != PartStatus::ran || record.output.empty() || ran == reference.parts.end() ||
            ran->second.status != PartStatus::ran || ran->second.output.empty())
            continue;
        check(record.output, c.name + "/out/" + ran->second.output);
        std::shared_ptr<const CheckedPositions> positions;  // the part's, read once
        bool positions_read = false;
        for (const KeptRunNamed& kept : kept_runs_named(plan, c, part, record).runs) {
            std::string sample = checked_run_sample(c.name, part, kept.seed);
            if (fs::exists(reference_dir + "/" + sample)) {
                check(checked_run_file(part, kept.index), sample);
                continue;
            }
            waiting.insert(checked_run_file(part, kept.index));
            if (!positions_read) {
                if (auto kept_positions = read_checked_positions(reference_dir + "/" + checked_positions_file(c.name, part)))
                    positions = std::make_shared<const CheckedPositions>(std::move(*kept_positions));
                positions_read = true;
            }
            if (positions) to_reduce.emplace_back(checked_run_file(part, kept.index), positions);
            else ++done.unreduced;
        }
    }
    std::sort(to_check.begin(), to_check.end());
    to_check.erase(std::unique(to_check.begin(), to_check.end()), to_check.end());
    std::vector<OutputVerdict> found(to_check.size());
    a_few_at_a_time(to_check.size(), [&](size_t i) {
        found[i] = check_files(run, to_check[i].first, reference_dir, to_check[i].second, c.tolerance);
    });
    for (size_t i = 0; i < to_check.size(); ++i) verdicts[to_check[i]] = found[i];
    done.verdicts = to_check.size();
    if (done.verdicts > 0) {
        AtomicFile file(run_dir + kVerdicts);
        for (const auto& [key, v] : verdicts)
            file.stream() << key.first << '\t' << key.second << '\t' << (v.pass ? 1 : 0) << '\t' << v.checked << '\t' << v.bad
                          << '\t' << one_line(v.reason) << '\n';
        file.commit();
    }
    // The kept runs still waiting for their references, each reduced to what it will be compared
    // at, whose positions its program never had, now that it has ended.
    std::vector<char> reduced(to_reduce.size(), 0);
    a_few_at_a_time(to_reduce.size(), [&](size_t i) {
        reduced[i] = reduce_kept_output(run.output_dir + "/" + to_reduce[i].first, *to_reduce[i].second);
    });
    done.reduced = size_t(std::count(reduced.begin(), reduced.end(), 1));
    if (!keep_outputs) {
        std::error_code error;
        for (const fs::directory_entry& entry : fs::directory_iterator(run.output_dir, error)) {
            std::string name = entry.path().filename().string();
            if (name != "results.tsv" && !waiting.count(name)) fs::remove(entry.path(), error);
        }
    }
    return done;
}
