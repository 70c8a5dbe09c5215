#include "part_loop.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <stdexcept>

#include "cuda_check.hpp"
#include "exit_codes.hpp"
#include "fail.hpp"
#include "gpu_timer.hpp"
#include "launcher.cuh"
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
        bool full = o_.check == CheckMode::full || (o_.check == CheckMode::automatic && case_.full_reference_is_cheap());
        bool several = false;
        for (const auto& run : runs) several |= run.second.output != runs.front().second.output;
        std::string text;
        for (const auto& run : runs) {
            const std::string& output = run.second.output;
            if (!run.second.checked || !run.second.skip.empty() || references_.count(output)) continue;
            Reference& r = references_[output] = case_.reference(output, full);
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
        if (is_yardstick && !part.skip.empty()) {
            row.check = "skipped";
            row.message = part.skip;
            return report_.add(row, true);
        }
        // A part that does not apply to this case (lab6: a one-block sort and arrays longer
        // than a block holds): recorded as skipped, with the reason, and neither run nor timed.
        if (!part.skip.empty()) return finish(row, PartStatus::skipped, part.skip, false);
        if (!part.run) fail(exit_code::bad_usage, "the driver has no way to run '" + name + "' (a bug in the driver)");
        launcher_.forget_launches();
        prepare(part);
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
        if (!is_yardstick) {
            if (launches.empty()) return finish(row, PartStatus::not_implemented, "", false);
            row.block = block_text(launches);
            const dim3& b = launches.front().block;
            row.threads = b.x == 0 ? "-" : std::to_string(b.x * b.y * b.z);
            row.launches = std::to_string(launches.size());
        }
        wait_for_device(row);
        if (part.launch_rule) {
            std::string problem = part.launch_rule(launches);
            if (!problem.empty()) return finish(row, PartStatus::error, problem, is_yardstick);
        }

        row.check = part.checked ? "unchecked" : "-";
        bool first_pass = part.checked && check_output(row, part, case_.download(part.output), "");

        std::vector<double> times;
        try {
            times = time_part(row, part);
        } catch (const std::exception& error) {
            return finish(row, PartStatus::error, std::string("the part threw an exception when run again: ") + error.what(),
                          is_yardstick);
        }
        launcher_.forget_launches();
        row.timed = true;
        row.median_ms = median(times);
        row.q1_ms = quantile(times, 0.25);
        row.q3_ms = quantile(times, 0.75);
        // What is checked and written for the grader is the last timed run's output: a part
        // that skips the work once it has been checked (a result kept from the first run)
        // leaves the poison there.
        OutputArray last;
        if (part.checked) {
            last = case_.download(part.output);
            if (first_pass)
                check_output(row, part, last, "the first run was right, but the output of the last timed run is wrong: ");
        }
        if (part.note) row.note = part.note(PartResult{part.checked ? &last : nullptr, &launches, row.median_ms});
        if (part.checked && !out_dir_.empty() && !is_yardstick) write_output(row, part.output, std::move(last));
        report_.add(row, is_yardstick);
    }

    // Before every run, timed or not: the inputs as the case made them, the outputs poisoned.
    void prepare(const PartRun& part) {
        case_.poison(part.output, stream_);
        case_.restore_inputs(stream_);
    }

    // Compares `output` with the CPU reference, where there is one; false when it is wrong.
    bool check_output(PartRow& row, const PartRun& part, const OutputArray& output, const std::string& context) {
        if (!references_.count(part.output)) return false;
        Verdict verdict = case_.verify(part.output, output, references_.at(part.output), o_.tolerance);
        row.check = verdict.pass ? "PASS" : "FAIL";
        row.message = (verdict.pass ? "" : context) + verdict.detail;
        any_failed_ |= !verdict.pass;
        return verdict.pass;
    }

    void write_output(PartRow& row, const std::string& name, OutputArray output) {
        if (o_.write_bounds) output.bound = references_.at(name).bound;
        row.output_file = row.part + ".out";
        try {
            write_output_array(out_dir_ + "/" + row.output_file, output);
        } catch (const std::runtime_error& error) {
            fail(exit_code::io_error, error.what());
        }
    }

    std::vector<double> time_part(PartRow& row, const PartRun& part) {
        auto run_once = [&] { part.run(launcher_); };
        auto restore = [&] { prepare(part); };
        if (!part.host_timed && gpu_) {
            GpuTiming timing = time_on_gpu(run_once, restore, stream_, o_.warmup, o_.reps, o_.time_limit);
            if (is_fatal_wait_error(timing.error)) stop_after_fatal(row, timing.error);
            CUDA_CHECK(timing.error);
            return timing.ms;
        }
        for (int i = 0; i < o_.warmup; ++i) {
            restore();
            run_once();
            wait_for_device(row);
        }
        std::vector<double> ms;
        for (int i = 0; i < o_.reps; ++i) {
            restore();
            wait_for_device(row);
            double start = clock_();
            run_once();
            wait_for_device(row);
            ms.push_back(clock_() - start);
        }
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
    std::map<std::string, Reference> references_;  // by output
    bool any_refused_ = false, any_failed_ = false;
};

}  // namespace

int run_case_parts(const LabInfo& lab, const DriverOptions& options, LabCase& lab_case, const GpuInfo* gpu,
                   cudaStream_t stream, const std::string& case_name, const std::string& out_dir) {
    return CaseRunner(lab, options, lab_case, gpu, stream, out_dir).run(case_name);
}
