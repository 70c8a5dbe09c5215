// Lab 1 trusted driver: everything the lab does not teach. It reads the case from the
// command line, makes seeded data, checks every launch against the GPU's limits, runs
// each rung of matmul.cu once on a poisoned output and checks it against a CPU
// reference, times it (CUDA events, warm-up, median) beside cuBLAS SGEMM timed in the
// same run, and prints a table (or CSV rows, or result files for the grader).
#include <cublas_v2.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "args.hpp"
#include "compare.hpp"
#include "cuda_check.hpp"
#include "gpu.hpp"
#include "gpu_timer.hpp"
#include "matmul.h"
#include "random_data.hpp"
#include "reference.hpp"
#include "rungs.hpp"
#include "result_files.hpp"
#include "stats.hpp"
#include "table.hpp"

namespace {

// Device buffer that frees itself, unless the context is already lost.
struct DeviceFloats {
    float* ptr = nullptr;
    explicit DeviceFloats(size_t count) { CUDA_CHECK(cudaMalloc(&ptr, count * sizeof(float))); }
    ~DeviceFloats() { cudaFree(ptr); }
};

struct Case {
    int M, N, K, tile, reps, warmup;
    unsigned long long seed;
    double time_limit, tolerance;
    double flops() const { return 2.0 * M * N * K; }
};

// What the CPU reference knows: every element, or a sample of them.
struct Expected {
    std::vector<size_t> positions;  // empty: all M x N elements, in order
    MatmulReference reference;
    std::string how;
};

Expected make_expected(const Case& c, const std::vector<float>& A, const std::vector<float>& B,
                       const std::string& mode) {
    Expected e;
    if (mode == "none") {
        e.how = "nothing (--check none)";
        return e;
    }
    double macs = double(c.M) * c.N * c.K;
    bool full = mode == "full" || (mode == "auto" && macs <= double(1ull << 30));
    if (full) {
        e.reference = matmul_reference(A.data(), B.data(), c.M, c.N, c.K);
        e.how = "every element";
    } else {
        e.positions = sample_positions(c.M, c.N, 4096, c.seed);
        e.reference = matmul_reference_at(A.data(), B.data(), c.M, c.N, c.K, e.positions);
        e.how = std::to_string(e.positions.size()) + " elements (first and last rows and columns, and a random sample)";
    }
    return e;
}

struct Verdict {
    bool pass;
    std::string label;   // PASS, FAIL, or unchecked with --check none
    std::string detail;  // the first mismatch, for a failure
};

Verdict check(const Case& c, const Expected& e, const std::vector<float>& C) {
    if (e.how.rfind("nothing", 0) == 0) return {true, "unchecked", ""};
    std::vector<double> got;
    if (e.positions.empty()) got.assign(C.begin(), C.end());
    else
        for (size_t p : e.positions) got.push_back(C[p]);
    std::vector<double> allowed(e.reference.bound);
    for (double& a : allowed) a *= c.tolerance;
    Comparison result = compare_values(got.data(), e.reference.value.data(), allowed.data(), got.size(), 1);
    if (result.ok()) return {true, "PASS", ""};
    const Mismatch& m = result.first.front();
    size_t where = e.positions.empty() ? m.position : e.positions[m.position];
    char text[256];
    std::snprintf(text, sizeof text, "C[%zu][%zu] = %.7g, expected %.7g (allowed error %.2g); %zu of %zu checked elements wrong",
                  where / c.N, where % c.N, m.got, m.want, m.allowed, result.bad, result.checked);
    return {false, "FAIL", text};
}

std::string block_shape(const LaunchConfig& config) {
    return std::to_string(config.block.x) + "x" + std::to_string(config.block.y) +
           (config.block.z > 1 ? "x" + std::to_string(config.block.z) : "");
}

// One row of output, as a table line, a CSV row and a results.tsv record.
struct Row {
    std::string rung, tile = "-", block = "-", threads = "-", check, message;
    double ms = 0;
    bool timed = false;
};

class Report {
public:
    Report(const Case& c, bool csv, const std::string& out_dir)
        : case_(c), csv_(csv), table_({{"rung", -9}, {"tile", 4}, {"block", -7}, {"threads", 7}, {"check", -15},
                                       {"median ms", 10}, {"GFLOP/s", 9}, {"% cuBLAS", 8}}) {
        try {
            if (!out_dir.empty()) results_ = std::make_unique<ResultsWriter>(out_dir + "/results.tsv");
        } catch (const std::runtime_error& error) {
            fail(exit_code::io_error, std::string(error.what()) + " (does the --out folder exist?)");
        }
    }

    void start(const GpuInfo& gpu, const Expected& e) {
        if (results_)
            results_->write({{"record", "run"}, {"lab", "lab1"}, {"gpu", gpu.name()}, {"m", std::to_string(case_.M)},
                             {"n", std::to_string(case_.N)}, {"k", std::to_string(case_.K)},
                             {"seed", std::to_string(case_.seed)}, {"tile", std::to_string(case_.tile)}});
        if (csv_) return;
        std::printf("GPU    %s\n", gpu.summary().c_str());
        std::printf("case   C(%dx%d) = A(%dx%d) * B(%dx%d), seed %llu, --tile %d\n", case_.M, case_.N, case_.M,
                    case_.K, case_.K, case_.N, case_.seed, case_.tile);
        std::printf("check  %s against a CPU reference in double; allowed error per element %g x gamma_K (|A||B|)_ij\n",
                    e.how.c_str(), case_.tolerance);
        std::printf("time   median of %d runs after %d warm-up runs, CUDA events\n\n", case_.reps, case_.warmup);
        table_.print_header();
    }

    void set_yardstick(double ms) { cublas_ms_ = ms; }

    void add(const Row& row, const std::string& output_file = "") {
        std::string ms = row.timed ? format_fixed(row.ms, 4) : "";
        std::string gflops = row.timed ? format_fixed(giga_per_second(case_.flops(), row.ms), 1) : "";
        std::string percent = row.timed && cublas_ms_ > 0 ? format_fixed(100.0 * cublas_ms_ / row.ms, 1) : "";
        if (csv_) {
            std::printf("%s\n", csv_row({std::to_string(case_.M), std::to_string(case_.N), std::to_string(case_.K),
                                         row.rung, row.tile, row.block, row.threads, row.check, ms, gflops, percent})
                                    .c_str());
        } else {
            std::vector<std::string> cells = {row.rung, row.tile, row.block, row.threads, row.check, ms, gflops, percent};
            if (!row.message.empty()) cells.push_back(row.message);
            table_.print_row(cells);
        }
        if (results_ && row.rung != "cublas") {
            Record record = {{"record", "part"}, {"part", row.rung}, {"status", status_of(row.check)},
                             {"message", row.message}};
            if (row.timed) record["time_ms"] = format_fixed(row.ms, 6);
            if (!output_file.empty()) record["output"] = output_file;
            results_->write(record);
        }
        std::fflush(stdout);
    }

    static std::string csv_header() { return "m,n,k,rung,tile,block,threads,check,median_ms,gflops,pct_cublas"; }

private:
    static std::string status_of(const std::string& check) {
        if (check == "PASS" || check == "FAIL" || check == "unchecked") return "ran";
        if (check == "not implemented") return "not_implemented";
        return check;  // refused / crashed / timeout / error
    }

    Case case_;
    bool csv_;
    StreamingTable table_;
    std::unique_ptr<ResultsWriter> results_;
    double cublas_ms_ = 0;
};

[[noreturn]] void stop_after_fatal(Report& report, Row row, cudaError_t err, const Case& c) {
    row.check = err == cudaErrorTimeout ? "timeout" : "crashed";
    row.message = explain_kernel_failure(err, c.time_limit);
    report.add(row);
    fail(err == cudaErrorTimeout ? exit_code::kernel_timeout : exit_code::kernel_crashed,
         "rung " + row.rung + ": " + row.message +
             " The CUDA context is lost, so the remaining rungs were not run; run them on their own with --rung.");
}

void poison(float* C, size_t count, cudaStream_t stream) {
    // All bits set is a NaN: an element the kernel never writes fails the check.
    CUDA_CHECK(cudaMemsetAsync(C, 0xFF, count * sizeof(float), stream));
}

std::vector<float> download(const float* C, size_t count) {
    std::vector<float> host(count);
    CUDA_CHECK(cudaMemcpy(host.data(), C, count * sizeof(float), cudaMemcpyDeviceToHost));
    return host;
}

void write_output(const std::string& dir, const std::string& name, const std::vector<float>& C,
                  const Expected& e, bool with_bounds) {
    try {
        if (with_bounds && !e.positions.empty())
            fail(exit_code::bad_usage, "--write-bounds needs the full reference: add --check full");
        write_output_array(dir + "/" + name, DType::f32, C.data(), C.size(),
                           with_bounds ? e.reference.bound.data() : nullptr);
    } catch (const std::runtime_error& error) {
        fail(exit_code::io_error, error.what());
    }
}

double run_cublas(const Case& c, const MatmulProblem& p, cudaStream_t stream, const Expected& e, Report& report) {
    cublasHandle_t handle;
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) fail(exit_code::bad_usage, "cuBLAS could not start");
    cublasSetStream(handle, stream);
    // Row-major C = A B is column-major C^T = B^T A^T: pass B first, swap M and N.
    const float one = 1, zero = 0;
    auto sgemm = [&] {
        if (cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, p.N, p.M, p.K, &one, p.B, p.N, p.A, p.K, &zero, p.C, p.N) !=
            CUBLAS_STATUS_SUCCESS)
            fail(exit_code::bad_usage, "cublasSgemm failed");
    };
    Row row;
    row.rung = "cublas";
    poison(p.C, size_t(c.M) * c.N, stream);
    sgemm();
    CUDA_CHECK(cudaStreamSynchronize(stream));
    Verdict verdict = check(c, e, download(p.C, size_t(c.M) * c.N));
    row.check = verdict.label;
    row.message = verdict.detail;
    GpuTiming timing = time_on_gpu(sgemm, stream, c.warmup, c.reps, c.time_limit);
    CUDA_CHECK(timing.error);
    cublasDestroy(handle);
    row.ms = median(timing.ms);
    row.timed = true;
    report.set_yardstick(row.ms);
    report.add(row);
    return row.ms;
}

}  // namespace

int main(int argc, char** argv) {
    ArgParser args("lab1", "Runs the rungs of matmul.cu on one case, checks them against a CPU reference and times them beside cuBLAS.");
    args.option("m", "M", "1000", "rows of A and C");
    args.option("n", "N", "1000", "columns of B and C");
    args.option("k", "K", "1000", "columns of A, rows of B");
    args.option("tile", "T", "32", "tile side for naive, tiled and dynamic: blocks of T x T threads");
    args.option("rung", "LIST", "all", "rungs to run, comma-separated: naive,tiled,dynamic,coarse2,regblock, or all");
    args.option("reps", "R", "20", "timed repetitions (the median is reported)");
    args.option("warmup", "W", "3", "untimed runs before timing");
    args.option("seed", "S", "1", "seed of the random matrices (entries uniform in [-1, 1))");
    args.option("check", "HOW", "auto",
                "full (every element), sample, auto (full up to 2^30 multiply-adds), or none (the grader checks outside)");
    args.option("tolerance", "F", "1", "allowed error, in multiples of the bound gamma_K (|A||B|)_ij");
    args.option("time-limit", "SECONDS", "60", "stop a kernel still running after this long");
    args.option("device", "D", "0", "CUDA device to use");
    args.option("out", "DIR", "", "also write results.tsv and each rung's C into DIR (used by the grader)");
    args.flag("write-bounds", "with --out: store the error bound beside each output (the grader's reference run)");
    args.flag("no-cublas", "skip the cuBLAS yardstick");
    args.flag("csv", "print CSV rows instead of the table");
    args.flag("csv-header", "with --csv: print the column names first");
    args.parse(argc, argv);

    const int max_side = 1 << 16;
    Case c;
    c.M = int(args.integer("m", 1, max_side));
    c.N = int(args.integer("n", 1, max_side));
    c.K = int(args.integer("k", 1, max_side));
    c.tile = int(args.integer("tile", 1, 1 << 20));
    c.reps = int(args.integer("reps", 1, 100000));
    c.warmup = int(args.integer("warmup", 0, 100000));
    c.seed = static_cast<unsigned long long>(args.integer("seed", 0, (1ll << 62)));
    c.tolerance = args.number("tolerance", 0, 1e9);
    c.time_limit = args.number("time-limit", 0.1, 86400);
    std::string check_mode = args.text("check");
    if (check_mode != "auto" && check_mode != "full" && check_mode != "sample" && check_mode != "none")
        fail(exit_code::bad_usage, "--check must be auto, full, sample or none, got '" + check_mode + "'");
    const long long max_elements = (1ll << 31) - 1;  // the kernels index with int
    for (auto [name, count] : {std::pair<const char*, long long>{"A (M x K)", 1ll * c.M * c.K},
                               {"B (K x N)", 1ll * c.K * c.N}, {"C (M x N)", 1ll * c.M * c.N}})
        if (count > max_elements)
            fail(exit_code::bad_usage, std::string(name) + " would have " + std::to_string(count) +
                                           " elements; the kernels index with int, so at most 2^31 - 1");
    std::vector<const Rung*> rungs = select_rungs(args.text("rung"));
    std::string out_dir = args.text("out");
    bool write_bounds = args.is_set("write-bounds");
    if (write_bounds && out_dir.empty()) fail(exit_code::bad_usage, "--write-bounds needs --out DIR");
    if (write_bounds) check_mode = "full";

    GpuInfo gpu = require_gpu(int(args.integer("device", 0, 1024)));
    size_t bytes = (size_t(c.M) * c.K + size_t(c.K) * c.N + size_t(c.M) * c.N) * sizeof(float);
    size_t free_bytes = 0, total_bytes = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (bytes + (64u << 20) > free_bytes)
        fail(exit_code::bad_usage, "the matrices need " + format_fixed(bytes / 1048576.0, 0) + " MiB but the GPU has " +
                                       format_fixed(free_bytes / 1048576.0, 0) + " MiB free: choose smaller sizes");

    SeededRandom random(c.seed);
    std::vector<float> A(size_t(c.M) * c.K), B(size_t(c.K) * c.N);
    for (float& a : A) a = random.uniform(-1, 1);
    for (float& b : B) b = random.uniform(-1, 1);
    Expected expected = make_expected(c, A, B, check_mode);

    DeviceFloats dA(A.size()), dB(B.size()), dC(size_t(c.M) * c.N);
    CUDA_CHECK(cudaMemcpy(dA.ptr, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB.ptr, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice));
    MatmulProblem problem{dA.ptr, dB.ptr, dC.ptr, c.M, c.N, c.K};
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));
    Launcher launcher(gpu.prop, stream);

    bool csv = args.is_set("csv");
    Report report(c, csv, out_dir);
    if (csv && args.is_set("csv-header")) std::printf("%s\n", Report::csv_header().c_str());
    report.start(gpu, expected);
    if (!args.is_set("no-cublas")) run_cublas(c, problem, stream, expected, report);

    bool any_failed = false, any_refused = false;
    for (const Rung* rung : rungs) {
        Row row;
        row.rung = rung->name;
        if (rung->uses_tile) row.tile = std::to_string(c.tile);
        auto run_once = [&] { rung->run(problem, c.tile, launcher); };
        launcher.reset_count();
        poison(dC.ptr, size_t(c.M) * c.N, stream);
        try {
            run_once();
        } catch (const LaunchRefused& refusal) {
            any_refused = true;
            row.check = "refused";
            row.message = refusal.what();
            report.add(row);
            continue;
        } catch (const std::exception& error) {  // anything else the student's host code throws
            any_failed = true;
            row.check = "error";
            row.message = std::string("the rung threw an exception: ") + error.what();
            report.add(row);
            continue;
        }
        if (launcher.launches() == 0) {
            row.check = "not implemented";
            report.add(row);
            continue;
        }
        row.block = block_shape(launcher.last_config());
        row.threads = std::to_string(launcher.last_config().block.x * launcher.last_config().block.y *
                                     launcher.last_config().block.z);
        cudaError_t err = wait_with_deadline(stream, c.time_limit);
        if (is_fatal_wait_error(err)) stop_after_fatal(report, row, err, c);
        CUDA_CHECK(err);
        std::vector<float> C = download(dC.ptr, size_t(c.M) * c.N);
        Verdict verdict = check(c, expected, C);
        row.check = verdict.label;
        row.message = verdict.detail;
        any_failed |= !verdict.pass;
        std::string output_file;
        if (!out_dir.empty()) {
            output_file = row.rung + ".out";
            write_output(out_dir, output_file, C, expected, write_bounds);
        }
        GpuTiming timing = time_on_gpu(run_once, stream, c.warmup, c.reps, c.time_limit);
        if (is_fatal_wait_error(timing.error)) stop_after_fatal(report, row, timing.error, c);
        CUDA_CHECK(timing.error);
        row.ms = median(timing.ms);
        row.timed = true;
        report.add(row, output_file);
    }
    CUDA_CHECK(cudaStreamDestroy(stream));
    if (any_refused) return exit_code::bad_usage;
    return any_failed ? exit_code::wrong_result : exit_code::ok;
}
