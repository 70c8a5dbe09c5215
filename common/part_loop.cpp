#include "part_loop.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include "cpu_affinity.hpp"
#include "cuda_check.hpp"
#include "exit_codes.hpp"
#include "fail.hpp"
#include "gpu_timer.hpp"
#include "kept_runs.hpp"
#include "launch_trace.hpp"
#include "launcher.cuh"
#include "os_random.hpp"
#include "run_report.hpp"
#include "stats.hpp"

namespace {

std::string shape(dim3 d) {
    return std::to_string(d.x) + "x" + std::to_string(d.y) + (d.z > 1 ? "x" + std::to_string(d.z) : "");
}

// The distinct block shapes of a part's launches, "host" for work done on the host.
std::string block_text(const std::vector<LaunchConfig>& launches) {
    std::vector<std::string> seen;
    for (const LaunchConfig& c : launches) {
        std::string s = c.block.x == 0 ? "host" : shape(c.block);
        bool known = false;
        for (const std::string& t : seen) known |= t == s;
        if (!known) seen.push_back(s);
    }
    std::string text;
    for (size_t i = 0; i < seen.size() && i < 3; ++i) text += (i ? "+" : "") + seen[i];
    return seen.size() > 3 ? text + "+..." : text;
}

double steady_clock_ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

class CaseRunner {
public:
    CaseRunner(const LabInfo& lab, const DriverOptions& options, LabCase& lab_case, const GpuInfo* gpu,
               cudaStream_t stream, const std::string& out_dir)
        : lab_(lab), o_(options), case_(lab_case), gpu_(gpu), stream_(stream), out_dir_(out_dir),
          launcher_(gpu ? gpu->prop : no_gpu_, stream), report_(lab, options, lab_case, out_dir),
          clock_(lab.host_clock_ms ? lab.host_clock_ms : steady_clock_ms) {}

    int run(const std::string& case_name) {
        std::vector<std::pair<std::string, PartRun>> runs;
        size_t yardsticks = 0;
        if (!o_.no_yardstick)
            for (const LabInfo::Yardstick& y : lab_.yardsticks)
                if (gpu_ || !lab_.needs_gpu || is_host_part(y.name)) runs.emplace_back(y.name, case_.yardstick(y.name));  // no GPU: host ones only
        yardsticks = runs.size();
        for (const std::string& name : o_.parts) runs.emplace_back(name, case_.part(name));
        bool host_rows = false;
        for (const auto& run : runs) host_rows |= run.second.host_timed && run.second.skip.empty();
        report_.start(gpu_, case_name, compute_references(runs), parts_floor_ms(runs, yardsticks), host_rows);
        for (size_t i = 0; i < runs.size(); ++i) run_part(runs[i].first, runs[i].second, i < yardsticks);
        if (any_refused_) return exit_code::bad_usage;
        return any_failed_ ? exit_code::wrong_result : exit_code::ok;
    }

private:
    bool is_host_part(const std::string& name) const {
        return std::find(lab_.host_parts.begin(), lab_.host_parts.end(), name) != lab_.host_parts.end();
    }

    // The fastest any of the parts could run on this GPU (results.tsv: floor_ms); 0 for none.
    double parts_floor_ms(const std::vector<std::pair<std::string, PartRun>>& runs, size_t yardsticks) const {
        if (!gpu_) return 0;
        double floor = 0;
        for (size_t i = yardsticks; i < runs.size(); ++i) {
            const PartRun& part = runs[i].second;
            double ms = physical_floor_ms(metric_named(lab_, part.metric), part.work > 0 ? part.work : case_.work(), *gpu_);
            if (ms > 0 && (floor == 0 || ms < floor)) floor = ms;
        }
        return floor;
    }

    // The reference of every output the runs write (once each); returns the heading's text.
    std::string compute_references(const std::vector<std::pair<std::string, PartRun>>& runs) {
        if (o_.check == CheckMode::none) return "nothing (--check none): the outputs are compared outside this program";
        full_ = o_.check == CheckMode::full || (o_.check == CheckMode::automatic && case_.full_reference_is_cheap());
        const bool full = full_;
        bool several = false;
        for (const auto& run : runs) several |= run.second.output != runs.front().second.output;
        std::string text;
        for (const auto& run : runs) {
            const std::string& output = run.second.output;
            if (!run.second.checked || !run.second.skip.empty() || references_.count({output, o_.data_seed})) continue;
            Reference& r = references_[{output, o_.data_seed}] = case_.reference(output, o_.data_seed, full);
            // A driver's mistake, not a user's: every check line says what error it allows.
            if (r.bound_name.empty()) throw std::logic_error("the reference of output " + output + " names no error bound");
            text += std::string(text.empty() ? "" : "\n       ") + (several ? output + ": " : "") + r.how +
                    " against a CPU reference; allowed error per element " + format_fixed(o_.tolerance, 3) + " x " +
                    r.bound_name;
        }
        return text;
    }

    void wait_for_device(PartRow& row) {
        if (!gpu_) return;
        cudaError_t err = wait_with_deadline(stream_, o_.time_limit);
        if (is_fatal_wait_error(err)) stop_after_fatal(row, err);
        CUDA_CHECK(err);
    }

    [[noreturn]] void stop_after_fatal(PartRow& row, cudaError_t err) {
        row.status = err == cudaErrorTimeout ? PartStatus::timeout : PartStatus::crashed;
        row.check = status_name(row.status);
        row.message = explain_kernel_failure(err, o_.time_limit);
        row.timed = false;
        report_.add(row, false);
        fail(err == cudaErrorTimeout ? exit_code::kernel_timeout : exit_code::kernel_crashed,
             "part " + row.part + ": " + row.message +
                 " The CUDA context is lost, so the remaining parts were not run; run them on their own with --part.");
    }

    void finish(PartRow& row, PartStatus status, const std::string& message, bool is_yardstick) {
        row.status = status;
        row.check = status_name(status);
        row.message = message;
        any_refused_ |= status == PartStatus::refused;
        any_failed_ |= status == PartStatus::error;
        report_.add(row, is_yardstick);
    }

    void run_part(const std::string& name, const PartRun& part, bool is_yardstick) {
        PartRow row;
        row.part = name;
        row.config = part.config;
        row.metric = part.metric;
        row.work = part.work > 0 ? part.work : case_.work();
        row.yardstick = part.yardstick;
        if (gpu_) row.floor_ms = physical_floor_ms(metric_named(lab_, part.metric), row.work, *gpu_);
        if (is_yardstick && !part.skip.empty()) {
            row.check = "skipped";
            row.message = part.skip;
            return report_.add(row, true);
        }
        // A part that does not apply to this case (lab6: a one-block sort and arrays longer
        // than a block holds): recorded as skipped, with the reason, and neither run nor timed.
        if (!part.skip.empty()) return finish(row, PartStatus::skipped, part.skip, false);
        if (!part.run) fail(exit_code::bad_usage, "the driver has no way to run '" + name + "' (a bug in the driver)");
        if (o_.reference_outputs && !is_yardstick) return write_reference_output(row, part);
        schedule_ = schedule_of(name);
        // A part timed on the host runs on exactly the CPUs it is given (cpu_affinity.hpp).
        CpuPinning pinning;
        if (part.host_timed && case_.host_threads() > 0) row.host_cpus = pinning.pin(case_.host_threads());
        if (!pinning.confined())
            return finish(row, PartStatus::error,
                          "a thread of the program runs on a CPU outside the " + row.host_cpus +
                              " the part is given, and may not be moved onto them: a CPU part runs on exactly --threads "
                              "CPUs",
                          is_yardstick);
        const LaunchCounts launches_before = counted_launches();
        launcher_.forget_launches();
        prepare(name, part, o_.data_seed);
        try {
            part.run(launcher_);
        } catch (const LaunchRefused& refusal) {
            wait_for_device(row);
            return finish(row, PartStatus::refused, refusal.what(), is_yardstick);
        } catch (const std::exception& error) {  // anything else the part's host code throws
            wait_for_device(row);
            return finish(row, PartStatus::error, std::string("the part threw an exception: ") + error.what(), is_yardstick);
        }
        const std::vector<LaunchConfig> launches = launcher_.launches();
        if (std::string problem = unseen_launches(part, is_yardstick, launches_before); !problem.empty()) {
            wait_for_device(row);
            return finish(row, PartStatus::error, problem, false);
        }
        if (!is_yardstick) {
            if (launches.empty()) return finish(row, PartStatus::not_implemented, "", false);
            row.block = block_text(launches);
            const dim3& b = launches.front().block;
            row.threads = b.x == 0 ? "-" : std::to_string(b.x * b.y * b.z);
            row.launches = std::to_string(launches.size());
        }
        wait_for_device(row);
        if (part.host_timed && !is_yardstick)
            for (const LaunchConfig& c : launches)
                if (c.block.x != 0)
                    return finish(row, PartStatus::error,
                                  "a CPU part launched a GPU kernel: it must do its work on the host, on the CPUs it "
                                  "is given",
                                  false);
        if (part.launch_rule) {
            std::string problem = part.launch_rule(launches);
            if (!problem.empty()) return finish(row, PartStatus::error, problem, is_yardstick);
        }

        row.check = part.checked ? "unchecked" : "-";
        OutputArray checked;
        bool first_pass = false;
        if (part.checked && (references_.count({part.output, o_.data_seed}) || !out_dir_.empty())) {
            checked = case_.download(part.output);
            first_pass = check_output(row, part, checked, o_.data_seed, "");
        }

        kept_.clear();
        std::vector<KeptRun> kept;
        if (schedule_.reps > 0) {
            std::vector<double> times;
            try {
                times = time_part(row, name, part, keeps_outputs(part, is_yardstick));
            } catch (const std::exception& error) {
                return finish(row, PartStatus::error, std::string("the part threw an exception when run again: ") + error.what(),
                              is_yardstick);
            }
            // Launches around the launcher only in the runs after the checked one count the same.
            if (std::string problem = unseen_launches(part, is_yardstick, launches_before); !problem.empty())
                return finish(row, PartStatus::error, problem, false);
            launcher_.forget_launches();
            row.timed = true;
            row.median_ms = median(times);
            row.q1_ms = quantile(times, 0.25);
            row.q3_ms = quantile(times, 0.75);
            kept = kept_.take();
        }
        pinning.release();
        // The outputs of the timed runs the driver kept (each decided once that run had ended):
        // a part that does the work only where it expects a check (the first run, the last)
        // leaves another run's inputs' answer, or the poison, there.
        for (const KeptRun& run : kept) {
            if (first_pass && has_reference(part.output))
                first_pass = check_output(row, part, run.output, run.seed,
                                          "the checked run was right, but timed run " + timed_run_name(run.index) +
                                              " (inputs of its own, --data-seed " + std::to_string(run.seed) +
                                              ") is wrong: ");
        }
        if (part.note) row.note = part.note(PartResult{part.checked ? &checked : nullptr, &launches, row.median_ms});
        if (part.checked && !out_dir_.empty() && !is_yardstick) {
            row.output_file = write_output(row.part + ".out", part.output, o_.data_seed, std::move(checked));
            for (KeptRun& run : kept) {
                write_output(row.part + ".run" + std::to_string(run.index) + ".out", part.output, run.seed,
                             std::move(run.output));
                row.checked_runs += (row.checked_runs.empty() ? "" : " ") + std::to_string(run.index);
                row.checked_seeds += (row.checked_seeds.empty() ? "" : " ") + std::to_string(run.seed);
            }
        }
        report_.add(row, is_yardstick);
    }

    // "7 of 20": which timed repetition a run index is.
    std::string timed_run_name(uint64_t index) const {
        return std::to_string(index - schedule_.timed_index(0) + 1) + " of " + std::to_string(schedule_.reps);
    }

    // The runs of `name` after its checked run: its own range of run indices (run_schedule.hpp),
    // from its place among the lab's parts; the yardsticks' after them.
    RunSchedule schedule_of(const std::string& name) const {
        size_t position = std::find(lab_.parts.begin(), lab_.parts.end(), name) - lab_.parts.begin();
        return RunSchedule{o_.warmup, o_.reps, int(position)};
    }

    // Whether a part's timed runs keep outputs for the check: a checked part's, not a
    // yardstick's, and not in the grader's reference run (--write-bounds), whose checked run is
    // all it needs.
    bool keeps_outputs(const PartRun& part, bool is_yardstick) const {
        return part.checked && !is_yardstick && !o_.write_bounds;
    }

    // What the launch trace (launch_trace.hpp: every launch, however spelled) saw of a part's runs
    // since `before` that the launcher did not, as the part's error, or "": a CPU part may launch
    // nothing, a GPU part no kernel around its launcher (launch(...) checks each against the GPU's
    // limits and records it for the lab's rules). Yardsticks are the driver's own.
    std::string unseen_launches(const PartRun& part, bool is_yardstick, const LaunchCounts& before) const {
        if (is_yardstick) return "";
        const LaunchCounts now = counted_launches();
        const uint64_t kernels = now.kernels - before.kernels, all = now.total() - before.total();
        if (part.host_timed && all > 0)
            return "a CPU part launched a GPU kernel (" + std::to_string(all) +
                   " launches, seen by the launch trace): it must do its work on the host, on the CPUs it is given";
        uint64_t recorded = 0;
        for (const LaunchConfig& c : launcher_.launches()) recorded += c.block.x != 0;
        if (!part.host_timed && kernels > recorded)
            return "the part launched " + std::to_string(kernels - recorded) + " of its " + std::to_string(kernels) +
                   " kernels around the launcher (with <<< >>>, a cooperative or graph launch, or the driver API): "
                   "launch every kernel with launch(kernel, grid, block, bytes, args...), which checks it against the "
                   "GPU's limits and records it";
        return "";
    }

    // Before every run, timed or not: the run's inputs (from `seed`), the outputs poisoned.
    void prepare(const std::string& name, const PartRun& part, uint64_t seed) {
        TrustedLaunches driver_work;  // the driver's own kernels (poison, inputs) are no part's launches
        case_.poison(part.output, stream_);
        case_.load_inputs(name, seed, stream_);
    }

    bool has_reference(const std::string& output) const { return references_.count({output, o_.data_seed}) > 0; }

    // The CPU reference of `output` for the inputs drawn from `seed`, made on first use.
    const Reference& reference_for(const std::string& output, uint64_t seed) {
        auto key = std::make_pair(output, seed);
        auto it = references_.find(key);
        // A timed run's output is checked on a sample where the lab can (a cheap check that a run
        // did its own work); the checked run's as --check says.
        if (it == references_.end())
            it = references_.emplace(key, case_.reference(output, seed, seed == o_.data_seed ? full_ : false)).first;
        return it->second;
    }

    // Compares `output` with the CPU reference of the inputs drawn from `seed`, where there is
    // one (not with --check none); false when it is wrong or not checked.
    bool check_output(PartRow& row, const PartRun& part, const OutputArray& output, uint64_t seed,
                      const std::string& context) {
        if (!has_reference(part.output)) return false;
        Verdict verdict = case_.verify(part.output, output, reference_for(part.output, seed), o_.tolerance);
        row.check = verdict.pass ? "PASS" : "FAIL";
        row.message = (verdict.pass ? "" : context) + verdict.detail;
        any_failed_ |= !verdict.pass;
        return verdict.pass;
    }

    // Writes one output for the grader; with --write-bounds (the reference run), each element's
    // bound beside it: NaN for an element a sampled reference did not compute (not compared).
    std::string write_output(const std::string& file, const std::string& name, uint64_t seed, OutputArray output) {
        if (o_.write_bounds) {
            const Reference& r = reference_for(name, seed);
            if (r.positions.empty()) {
                output.bound = r.bound;
            } else {
                output.bound.assign(output.values.size(), std::numeric_limits<double>::quiet_NaN());
                for (size_t i = 0; i < r.positions.size(); ++i)
                    if (r.positions[i] < output.bound.size()) output.bound[r.positions[i]] = r.bound[i];
            }
        }
        try {
            write_output_array(out_dir_ + "/" + file, output);
        } catch (const std::runtime_error& error) {
            fail(exit_code::io_error, error.what());
        }
        return file;
    }

    // --reference-outputs: the part's output file holds the CPU reference's answer for the
    // checked run's inputs (every element, or the sampled ones, the others unset with a NaN
    // bound: not compared), in the shape a run of the part writes. Nothing of the student file
    // runs or is read: not the part, nor the inputs it would be given, nor its output buffers
    // (make labN-check builds this side on the starter, whose buffers may not exist).
    void write_reference_output(PartRow& row, const PartRun& part) {
        row.check = "reference";
        if (part.checked) {
            const OutputShape shape = case_.output_shape(part.output);
            const Reference& r = reference_for(part.output, o_.data_seed);
            const bool integral = shape.dtype == DType::i32 || shape.dtype == DType::u32;
            OutputArray answer{shape.dtype, {}, {}};
            if (r.positions.empty()) {
                answer.values = r.value;
            } else {
                answer.values.assign(shape.count, integral ? 0.0 : std::numeric_limits<double>::quiet_NaN());
                for (size_t i = 0; i < r.positions.size(); ++i)
                    if (r.positions[i] < shape.count) answer.values[r.positions[i]] = r.value[i];
            }
            if (answer.values.size() != shape.count)
                fail(exit_code::bad_usage, "the driver's reference of " + part.output + " has " +
                                               std::to_string(answer.values.size()) + " elements where the part writes " +
                                               std::to_string(shape.count) + " (a bug in the driver)");
            row.output_file = write_output(row.part + ".out", part.output, o_.data_seed, std::move(answer));
        }
        report_.add(row, false);
    }

    // The warm-ups and the timed runs. Each run's inputs come from a seed drawn from the operating
    // system as they are loaded, so no seed of a run to come exists while the part runs; after
    // each timed run has ended, with the device idle, whether its output is kept for the check is
    // drawn (kept_runs.hpp; `keeps`: keeps_outputs). Per timed run that adds two draws of 8
    // bytes, a wait for the run to end and, on the GPU, a 20 us hold; a kept run's output is
    // downloaded then (on average about 2 + 2 ln(reps / 2) downloads a part, not 2).
    std::vector<double> time_part(PartRow& row, const std::string& name, const PartRun& part, bool keeps) {
        auto run_once = [&] { part.run(launcher_); };
        uint64_t seed = 0;  // of the run being prepared or run: its own, which its inputs show anyway
        auto prepare_run = [&](uint64_t) {
            seed = fresh_input_seed();
            prepare(name, part, seed);
        };
        auto ended = [&](uint64_t index) {
            if (keeps) kept_.offer(index, seed, [&] { return case_.download(part.output); });
        };
        if (!part.host_timed && gpu_) {
            GpuTiming timing = time_on_gpu(prepare_run, run_once, ended, stream_, schedule_, o_.time_limit);
            if (is_fatal_wait_error(timing.error)) stop_after_fatal(row, timing.error);
            CUDA_CHECK(timing.error);
            return timing.ms;
        }
        for (int i = 0; i < schedule_.warmup; ++i) {
            prepare_run(schedule_.warmup_index(i));
            run_once();
            wait_for_device(row);
        }
        std::vector<double> ms;
        double cpu_seconds = 0;  // over the timed runs alone: what the part's threads used
        for (int i = 0; i < schedule_.reps; ++i) {
            uint64_t index = schedule_.timed_index(i);
            prepare_run(index);
            wait_for_device(row);
            double cpu_start = process_cpu_seconds(), start = clock_();
            run_once();
            wait_for_device(row);
            ms.push_back(clock_() - start);
            cpu_seconds += process_cpu_seconds() - cpu_start;
            ended(index);
        }
        if (part.host_timed && schedule_.reps > 0) row.cpu_ms = cpu_seconds * 1e3 / schedule_.reps;
        return ms;
    }

    static inline const cudaDeviceProp no_gpu_{};
    const LabInfo& lab_;
    const DriverOptions& o_;
    LabCase& case_;
    const GpuInfo* gpu_;
    cudaStream_t stream_;
    std::string out_dir_;
    Launcher launcher_;
    RunReport report_;
    std::function<double()> clock_;
    RunSchedule schedule_;  // the current part's runs
    // The current part's timed runs kept for the check so far: only runs that have ended, each
    // decided after it ended. Nothing here or elsewhere in the runner says which run to come
    // will be kept, or what its inputs will be.
    KeptRuns kept_;
    std::map<std::pair<std::string, uint64_t>, Reference> references_;  // by output and input seed
    bool full_ = false;  // whole references (not a sample)
    bool any_refused_ = false, any_failed_ = false;
};

}  // namespace

int run_case_parts(const LabInfo& lab, const DriverOptions& options, LabCase& lab_case, const GpuInfo* gpu,
                   cudaStream_t stream, const std::string& case_name, const std::string& out_dir) {
    return CaseRunner(lab, options, lab_case, gpu, stream, out_dir).run(case_name);
}
