#include "scoring.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>

#include "checked_runs.hpp"
#include "output_check.hpp"
#include "output_verdicts.hpp"
#include "perf_curve.hpp"
#include "reference_run.hpp"
#include "result_files.hpp"
#include "run_evidence.hpp"
#include "sanitizer_log.hpp"
#include "source_scan.hpp"
#include "stats.hpp"
#include "timing_schedule.hpp"
#include "untrusted_text.hpp"
#include "table.hpp"

namespace {

bool exists(const std::string& path) {
    struct stat info {};
    return stat(path.c_str(), &info) == 0;
}

std::vector<std::string> read_lines(const std::string& path) {
    std::vector<std::string> lines;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) lines.push_back(line);
    return lines;
}

std::string first_word(const std::string& path) {
    std::ifstream in(path);
    std::string word;
    in >> word;
    return word;
}

// The reference solution timed on the student's GPU: grade.sh times it several times through
// the run (t1, t2, ... under the GPU's timing folder: before the first student, then between
// students, and after the last), so a part's reference time is the median of those timings'
// medians, and a GPU that warms up or slows down during the night is compared with itself.
ReferenceRun read_reference_timings(const std::string& timing_dir, const std::string& case_name,
                                    const std::vector<std::string>& parts) {
    const std::vector<std::string> timings = made_reference_timings(timing_dir);
    if (timings.empty()) throw std::runtime_error("no reference timing in " + timing_dir);
    ReferenceRun merged;
    std::map<std::string, std::vector<double>> times, cpu_times;
    for (const std::string& t : timings) {
        ReferenceRun one = read_reference(timing_dir + "/" + t + "/" + case_name, parts,
                                          "reference timing " + t + " of case " + case_name);
        merged.floor_ms = std::max(merged.floor_ms, one.floor_ms);
        for (const auto& [part, record] : one.parts) {
            merged.parts[part] = record;
            if (record.time_ms > 0) times[part].push_back(record.time_ms);
            if (record.cpu_ms > 0) cpu_times[part].push_back(record.cpu_ms);
        }
    }
    for (auto& [part, record] : merged.parts) {
        record.time_ms = times[part].empty() ? 0 : median(times[part]);
        record.cpu_ms = cpu_times[part].empty() ? 0 : median(cpu_times[part]);
    }
    return merged;
}


// The run that speaks for `part` on case `case_name`: its own rerun when there was one, else
// the batch run that recorded it, else the case's last batch run (whose end says why not).
// `run_of` reads a run folder (the scorer keeps each it read).
template <class RunOf>
const RunEvidence& run_for_part(const std::string& lab_dir, const std::string& case_name, const std::string& part, RunOf&& run_of) {
    std::string folder = lab_dir + "/runs/" + case_name;
    if (exists(folder + "/" + part + "/sandbox.tsv")) return run_of(folder + "/" + part);
    std::string last = folder + "/" + batch_folder(1);
    for (int n = 1; exists(folder + "/" + batch_folder(n)); ++n) {
        last = folder + "/" + batch_folder(n);
        const RunEvidence& run = run_of(last);
        if (run.parts.count(part) || std::count(run.rejected.begin(), run.rejected.end(), part)) return run;
    }
    return run_of(last);
}

class LabScorer {
public:
    LabScorer(const LabPlan& plan, const ScoringInputs& in) : plan_(plan), in_(in) {}

    LabScore run() {
        score_.lab = plan_.lab;
        score_.title = plan_.title;
        score_.max = plan_.max_points();
        std::vector<std::string> problems = read_lines(in_.lab_dir + "/problems.txt");
        if (!problems.empty()) {
            score_.state = "malformed";
            score_.note = clean_line(problems.front(), 120);
            std::string all;
            for (const std::string& p : problems) all += clean_line(p) + "\n";
            add({"submission", "", "", "", 0, 0, false, false, "the submission for " + plan_.lab + " cannot be graded", all});
            zero_everything("not graded: " + clean_line(problems.front()));
            return finish();
        }
        std::string build = first_word(in_.lab_dir + "/build/status");
        if (build != "ok") {
            score_.state = "build-failed";
            score_.note = build == "timeout" ? "the build ran out of time" : "compile error";
            std::string message = build == "timeout" ? "the build was stopped by its time limit"
                                                      : "the code did not compile";
            add({"build", "", "", "", 0, 0, false, false, message,
                 log_excerpt(in_.lab_dir + "/build/log.txt", {"error", "Error", "fatal"}, 25)});
            zero_everything("not graded: " + message);
            return finish();
        }
        add({"build", "", "", "", 0, 0, true, false, "the code compiled", ""});
        read_forbidden_matches();
        std::vector<std::string> not_run = read_lines(in_.lab_dir + "/not-run.txt");
        if (!not_run.empty()) {
            score_.state = "not-run";
            score_.note = "cases not run: " + clean_line(not_run.front(), 60);
            add({"run", "", "", "", 0, 0, false, false, "the cases were not run: " + clean_line(not_run.front()), ""});
            zero_everything(not_run_prefix + clean_line(not_run.front()));
            return finish();
        }
        score_.state = "graded";
        for (const CasePlan& c : plan_.cases) score_case(c);
        resolve_sat_out();
        score_sanitizers();
        if (!forbidden_.empty()) score_.note = "forbidden API";
        return finish();
    }

private:
    void add(ScoreItem item) { score_.items.push_back(std::move(item)); }

    // The items of cases a part sat out (score_case): a correctness item earns its points when
    // the part passed every case it ran (and ran at least one); a performance item the mean
    // fraction of the part's performance items on the cases it ran. An item whose run did not
    // sit out as the reference's did earns nothing. With no performance case the part ran, the
    // performance item follows its correctness item.
    void resolve_sat_out() {
        std::map<std::string, int> ran, passed;
        std::map<std::string, double> perf_sum;
        std::map<std::string, int> perf_count;
        std::set<size_t> placeholders;
        for (const auto& [index, ok] : sat_out_) placeholders.insert(index);
        for (size_t i = 0; i < score_.items.size(); ++i) {
            const ScoreItem& item = score_.items[i];
            if (placeholders.count(i)) continue;
            if (item.kind == "correctness") ++ran[item.part], passed[item.part] += item.passed ? 1 : 0;
            if (item.kind == "performance" && item.max > 0) perf_sum[item.part] += item.points / item.max, ++perf_count[item.part];
        }
        for (const auto& [index, ok] : sat_out_) {
            ScoreItem& item = score_.items[index];
            if (!ok) continue;
            const std::string& part = item.part;
            if (item.kind == "correctness") {
                item.passed = ran[part] > 0 && passed[part] == ran[part];
                item.points = item.passed ? item.max : 0;
                item.message += item.passed ? ": scored as the part's other cases, all passed"
                                            : ": scored as the part's other cases, not all passed";
            } else {
                // No performance case the part ran: its correctness decides.
                double fraction = perf_count[part] ? perf_sum[part] / perf_count[part]
                                                   : (ran[part] > 0 && passed[part] == ran[part] ? 1 : 0);
                item.points = item.max * fraction;
                item.passed = fraction > 0;
                item.message += ": the mean of the part's performance fractions on the cases it ran";
            }
        }
    }

    LabScore finish() {
        score_.points = total_points(score_.items);
        return score_;
    }

    // Every correctness and performance item at zero, so the maximum stays visible.
    void zero_everything(const std::string& why) {
        for (const CasePlan& c : plan_.cases)
            for (const PartPlan& p : plan_.parts) {
                add(correctness_item(c, p.name, false, why));
                if (c.perf) add(perf_item(c, p.name, 0, why));
            }
    }

    ScoreItem correctness_item(const CasePlan& c, const std::string& part, bool pass, const std::string& why) {
        ScoreItem i;
        i.kind = "correctness";
        i.part = part;
        i.case_name = c.name;
        i.max = c.points;
        i.points = pass ? c.points : 0;
        i.passed = pass;
        i.hidden = c.hidden;
        i.message = why;
        return i;
    }

    ScoreItem perf_item(const CasePlan& c, const std::string& part, double fraction, const std::string& why) {
        ScoreItem i;
        i.kind = "performance";
        i.part = part;
        i.case_name = c.name;
        i.max = plan_.find_part(part)->perf_points;
        i.points = i.max * fraction;
        i.passed = fraction > 0;
        i.hidden = c.hidden;
        i.message = why;
        return i;
    }

    void read_forbidden_matches() {
        forbidden_ = read_forbidden(in_.lab_dir + "/forbidden.tsv");
        for (const ForbiddenMatch& m : forbidden_) {
            std::string whom = m.part == "*" ? "every part" : "part " + m.part;
            const PartPlan* part = plan_.find_part(m.part);
            std::string reason = m.part == "*" ? plan_.forbidden_reason
                                 : part    ? part->forbidden_reason
                                           : "this is not allowed in part " + m.part;
            add({"forbidden", m.part, "", "", 0, 0, false, false,
                 "forbidden API at " + m.where + " (" + whom + " scores zero): " + reason, m.text});
        }
    }

    // Why `part` scores zero whatever its output, or "".
    std::string forbidden_reason(const std::string& part) const {
        for (const ForbiddenMatch& m : forbidden_)
            if (m.part == "*" || m.part == part) return "forbidden API at " + m.where;
        return "";
    }

    const RunEvidence& run_of(const std::string& dir) {
        auto it = runs_.find(dir);
        if (it == runs_.end()) it = runs_.emplace(dir, read_run(dir, plan_.part_names())).first;
        return it->second;
    }

    const RunEvidence& evidence_for(const CasePlan& c, const std::string& part) {
        return run_for_part(in_.lab_dir, c.name, part, [this](const std::string& dir) -> const RunEvidence& { return run_of(dir); });
    }

    // The part's record in the case's second timing (parts_to_time_again) when it is faster than
    // the first and correct, its checked timed runs too; else null. A second timing that is wrong
    // or slower changes nothing: it was asked for only because the first looked slow.
    const PartRecord* second_timing(const CasePlan& c, const std::string& part, const PartRecord& first,
                                    const std::string& reference_output) {
        std::string folder = in_.lab_dir + "/runs/" + c.name + "/" + kSecondTiming;
        if (!exists(folder + "/sandbox.tsv")) return nullptr;
        const RunEvidence& run = run_of(folder);
        auto found = run.parts.find(part);
        if (found == run.parts.end()) return nullptr;
        const PartRecord& r = found->second;
        if (r.status != PartStatus::ran || r.output.empty() || !(r.time_ms > 0 && r.time_ms < first.time_ms)) return nullptr;
        if (!output_verdict(run, r.output, in_.reference_dir, c.name + "/out/" + reference_output, c.tolerance).pass) return nullptr;
        return timed_runs_problem(c, part, r, run).empty() ? &r : nullptr;
    }

    std::string stderr_excerpt(const RunEvidence& run) {
        return log_excerpt(run.dir + "/stderr.txt", {"error"}, 8);
    }

    void score_case(const CasePlan& c) {
        ReferenceRun reference = read_reference(in_.reference_dir + "/" + c.name, plan_.part_names(), "reference output of case " + c.name);
        for (const PartPlan& p : plan_.parts) {
            const RunEvidence& run = evidence_for(c, p.name);
            std::string why;
            bool pass = false;
            std::string detail;
            auto record = run.parts.find(p.name);
            std::vector<std::string> not_run = read_lines(in_.lab_dir + "/runs/" + c.name + "/" + p.name + "/not-run.txt");
            // A part the trusted driver sits out on this case (PartRun::skip, decided from the
            // case's options: lab6's one-block sorts and arrays above 1024) is scored, once every
            // case is, as the part did on the cases it ran (resolve_sat_out): the lab's maximum
            // stays the same for everyone, and a part that does nothing earns nothing here.
            const PartRecord& expected = reference.parts[p.name];
            if (expected.status == PartStatus::skipped) {
                bool sat_out = record != run.parts.end() && record->second.status == PartStatus::skipped;
                why = sat_out ? "does not apply to this case (" + expected.message + ")"
                              : "the reference sits this case out (" + expected.message + "), but this run did not";
                sat_out_.push_back({score_.items.size(), sat_out});
                add(correctness_item(c, p.name, false, why));
                if (c.perf) {
                    sat_out_.push_back({score_.items.size(), sat_out});
                    add(perf_item(c, p.name, 0, why));
                }
                continue;
            }
            if (record == run.parts.end() && !not_run.empty()) {
                why = not_run_prefix + clean_line(not_run.front());  // the grader's own words (runs.sh)
            } else if (record == run.parts.end()) {
                bool rejected = std::find(run.rejected.begin(), run.rejected.end(), p.name) != run.rejected.end();
                why = rejected ? "its record in results.tsv was rejected" : "no result: " + run.sandbox.describe();
                detail = stderr_excerpt(run);
            } else {
                const PartRecord& r = record->second;
                if (r.status == PartStatus::ran) {
                    if (r.output.empty()) {
                        why = "it reported a result but wrote no output";
                    } else {
                        OutputVerdict v = output_verdict(run, r.output, in_.reference_dir,
                                                         c.name + "/out/" + reference.parts[p.name].output, c.tolerance);
                        pass = v.pass;
                        why = v.pass ? "correct" : v.checked ? "wrong result: " + v.reason : v.reason;
                        if (pass) {
                            std::string timed = timed_runs_problem(c, p.name, r, run);
                            if (!timed.empty()) pass = false, why = timed;
                        }
                    }
                } else if (r.status == PartStatus::not_implemented) {
                    why = "not implemented (the part launched no kernel)";
                } else {
                    static const std::map<PartStatus, std::string> words = {
                        {PartStatus::refused, "the launch was refused"}, {PartStatus::crashed, "it crashed"},
                        {PartStatus::timeout, "it was stopped by the driver's time limit"}, {PartStatus::error, "it failed"},
                        {PartStatus::skipped, "it sat out a case the reference ran"}};
                    why = words.at(r.status) + (r.message.empty() ? "" : ": " + r.message);
                    detail = stderr_excerpt(run);
                }
            }
            std::string forbidden = forbidden_reason(p.name);
            if (!forbidden.empty() && pass) {
                pass = false;
                why = "scores zero: " + forbidden;
            }
            ScoreItem item = correctness_item(c, p.name, pass, why);
            item.detail = c.hidden ? "" : detail;
            add(item);
            if (!c.perf) continue;
            const PartRecord* timed = pass ? &record->second : nullptr;
            const PartRecord* second = pass ? second_timing(c, p.name, record->second, reference.parts[p.name].output) : nullptr;
            score_perf(c, p.name, pass, second ? second : timed, second ? timed : nullptr);
        }
    }

    // Why the outputs of the timed runs the driver kept (checked_runs) do not prove the work was
    // done in every run, or "": each must be one of the part's timed runs on the case, two of them
    // (one when there is one), named with the seeds of their inputs, and match the reference
    // solution's output on those inputs at the sampled positions (output_sample.hpp), which
    // grade.sh made before scoring (checked_run_sample, beside the case's reference), or the
    // verdicts check-outputs kept.
    std::string timed_runs_problem(const CasePlan& c, const std::string& part, const PartRecord& r, const RunEvidence& run) {
        const KeptRunsNamed kept = kept_runs_named(plan_, c, part, r);
        if (!kept.valid)
            return "its record does not name the " + std::to_string(kept.expected) +
                   " checked timed runs the driver keeps, with the seeds of their inputs, so its timed runs cannot be "
                   "shown to do the work";
        const LabPlan::TimedRuns timed = plan_.timed_runs(c, part);
        for (const KeptRunNamed& k : kept.runs) {
            std::string reference = checked_run_sample(c.name, part, k.seed);
            if (!exists(in_.reference_dir + "/" + reference))
                throw std::runtime_error("the reference output of the inputs of seed " + std::to_string(k.seed) + " (case " +
                                         c.name + ", part " + part + ") is missing: " + in_.reference_dir + "/" + reference);
            OutputVerdict v = output_verdict(run, checked_run_file(part, k.index), in_.reference_dir, reference, c.tolerance);
            if (!v.pass)
                return "the checked run was right, but timed run " + std::to_string(k.index - timed.first + 1) + " of " +
                       std::to_string(timed.count) + " (inputs of its own, --data-seed " + std::to_string(k.seed) +
                       ") is wrong: " + v.reason;
        }
        return "";
    }

    // `first`: the first timing, when the second (second_timing) is the better one and scored.
    void score_perf(const CasePlan& c, const std::string& part, bool correct, const PartRecord* record,
                    const PartRecord* first = nullptr) {
        double student_ms = record ? record->time_ms : 0;
        if (!correct) {
            add(perf_item(c, part, 0, "no performance points without a correct result"));
            return;
        }
        if (!in_.untimed.empty()) {
            ScoreItem item = perf_item(c, part, 0, in_.untimed);
            item.student_ms = student_ms;
            add(item);
            return;
        }
        if (!timing_.count(c.name)) timing_[c.name] = read_reference_timings(in_.timing_dir, c.name, plan_.part_names());
        double reference_ms = timing_[c.name].parts[part].time_ms;
        if (reference_ms <= 0) throw std::runtime_error("the reference timing of case " + c.name + " has no time for " + part);
        if (student_ms <= 0) {
            add(perf_item(c, part, 0, "no valid time was reported"));
            return;
        }
        // A part timed on the host, the reference's and the student's alike: no faster than its
        // CPU time over the CPUs it was given (host_scored_ms), belt and braces beside the pinning.
        const double wall_ms = student_ms;
        const PartRecord& reference = timing_[c.name].parts[part];
        const int cpus = host_cpus_given(reference.host_cpus);
        std::string cpu_floor;
        if (cpus > 0) {
            reference_ms = host_scored_ms(reference_ms, reference.cpu_ms, cpus);
            if (record->cpu_ms <= 0) {
                add(perf_item(c, part, 0, "no CPU time was reported for this part, which runs on the host"));
                return;
            }
            student_ms = host_scored_ms(wall_ms, record->cpu_ms, cpus);
            if (student_ms > wall_ms)
                cpu_floor = "; scored at its CPU time over the " + std::to_string(cpus) + " CPUs it was given (" +
                            format_general(student_ms, 4) + " ms), above its wall time (" + format_general(wall_ms, 4) +
                            " ms): its threads ran on more CPUs than those";
        }
        // The part's own bound where the reference run records one, else the case's.
        double floor_ms = reference.floor_ms > 0 ? reference.floor_ms : timing_[c.name].floor_ms;
        if (student_ms < floor_ms) {
            // Faster than the GPU can do the work: the time was forged, or the work skipped.
            char why[300];
            std::snprintf(why, sizeof why,
                          "%s ms is below the fastest this case can run on this GPU (%s ms: its work at the GPU's "
                          "peak rate); such a time cannot be an honest measurement, so it earns no points",
                          format_general(student_ms, 4).c_str(), format_general(floor_ms, 4).c_str());
            ScoreItem item = perf_item(c, part, 0, why);
            item.student_ms = student_ms;
            item.reference_ms = reference_ms;
            add(item);
            add({"below-bound", part, c.name, "", 0, 0, false, c.hidden, "part " + part + ", case " + c.name + ": " + why, ""});
            score_.note = "a time below the physical bound: look at this submission";
            return;
        }
        const PerfCurve& curve = plan_.find_part(part)->curve;
        double ratio = student_ms / reference_ms;
        double fraction = perf_fraction(ratio, curve.full_ratio, curve.zero_ratio);
        char why[200];
        std::snprintf(why, sizeof why, "%s ms against the reference's %s ms: %.2fx (full points up to %.3gx, none from %.3gx)",
                      format_general(student_ms, 4).c_str(), format_general(reference_ms, 4).c_str(), ratio, curve.full_ratio, curve.zero_ratio);
        ScoreItem item = perf_item(c, part, fraction, why);
        if (first) item.message += "; the better of two timings (the first: " + format_general(first->time_ms, 4) + " ms)";
        // A part timed on the host: how much CPU time each run used, on which CPUs (the driver
        // pins it to the --threads it is given), for whoever reads the evidence.
        if (record->cpu_ms > 0) {
            char cpu[300];
            std::snprintf(cpu, sizeof cpu, "; CPU time %s ms a run, %.2fx its wall time, on %s", format_general(record->cpu_ms, 4).c_str(),
                          record->cpu_ms / wall_ms, record->host_cpus.empty() ? "unpinned CPUs" : record->host_cpus.c_str());
            item.message += cpu + cpu_floor;
        }
        item.student_ms = student_ms;
        item.reference_ms = reference_ms;
        item.ratio = ratio;
        add(item);
    }

    void score_sanitizers() {
        if (plan_.sanitize_case.empty()) return;
        std::vector<std::string> missing = read_lines(in_.lab_dir + "/sanitize/not-run.txt");
        for (const std::string& tool : plan_.sanitize_tools) {
            ScoreItem item;
            item.kind = "sanitizer";
            item.tool = tool;
            item.case_name = plan_.sanitize_case;
            if (!missing.empty()) {
                item.passed = true;
                item.message = tool + " was not run: " + clean_line(missing.front());
                add(item);
                continue;
            }
            // Not run because the submission's own runs used up its budget: the points go.
            std::vector<std::string> budget = read_lines(in_.lab_dir + "/sanitize/" + tool + "/not-run.txt");
            if (!budget.empty()) {
                item.points = -plan_.sanitize_points;
                item.message = tool + " was not run: " + clean_line(budget.front());
                add(item);
                continue;
            }
            SanitizerVerdict v = read_sanitizer_run(in_.lab_dir + "/sanitize/" + tool, tool);
            item.passed = v.state != SanitizerVerdict::State::errors;
            item.points = item.passed ? 0 : -plan_.sanitize_points;
            item.message = v.summary + " on case " + plan_.sanitize_case;
            item.detail = v.excerpt;
            add(item);
        }
    }

    const LabPlan& plan_;
    const ScoringInputs& in_;
    LabScore score_;
    std::vector<std::pair<size_t, bool>> sat_out_;  // items of cases a part sat out, and whether its run did too
    std::vector<ForbiddenMatch> forbidden_;
    std::map<std::string, RunEvidence> runs_;
    std::map<std::string, ReferenceRun> timing_;
};

}  // namespace

LabScore score_lab(const LabPlan& plan, const ScoringInputs& inputs) { return LabScorer(plan, inputs).run(); }

// The count that opens the record, written by the trusted driver (common/cpu_affinity.hpp).
int host_cpus_given(const std::string& host_cpus) {
    int count = 0;
    return std::sscanf(host_cpus.c_str(), "%d CPU", &count) == 1 && count > 0 ? count : 0;
}

double host_scored_ms(double wall_ms, double cpu_ms, int cpus) {
    return cpus > 0 && cpu_ms > 0 ? std::max(wall_ms, cpu_ms / cpus) : wall_ms;
}

std::vector<std::pair<std::string, std::string>> parts_to_time_again(const LabPlan& plan, const ScoringInputs& inputs,
                                                                     const std::vector<std::string>& cases) {
    std::vector<std::pair<std::string, std::string>> slow;
    std::map<std::string, RunEvidence> runs;
    auto run_of = [&](const std::string& dir) -> const RunEvidence& {
        auto it = runs.find(dir);
        return it != runs.end() ? it->second : runs.emplace(dir, read_run(dir, plan.part_names())).first->second;
    };
    for (const std::string& name : cases) {
        const CasePlan* c = plan.find_case(name);
        if (!c) throw std::runtime_error("no case " + name + " in " + plan.lab);
        if (!c->perf) continue;
        ReferenceRun timing = read_reference_timings(inputs.timing_dir, c->name, plan.part_names());
        ReferenceRun outputs = read_reference(inputs.reference_dir + "/" + c->name, plan.part_names(), "reference output of case " + c->name);
        for (const PartPlan& p : plan.parts) {
            const RunEvidence& run = run_for_part(inputs.lab_dir, c->name, p.name, run_of);
            auto record = run.parts.find(p.name);
            double reference_ms = timing.parts[p.name].time_ms;
            if (record == run.parts.end() || record->second.status != PartStatus::ran || record->second.output.empty() ||
                reference_ms <= 0 || record->second.time_ms / reference_ms <= p.curve.full_ratio)
                continue;
            // A wrong output earns no performance point, however fast: no second timing for it.
            if (output_verdict(run, record->second.output, inputs.reference_dir, c->name + "/out/" + outputs.parts[p.name].output,
                               c->tolerance).pass)
                slow.emplace_back(c->name, p.name);
        }
    }
    return slow;
}
