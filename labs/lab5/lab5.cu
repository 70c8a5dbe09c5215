// Lab 5 trusted driver: only what is about sums. Seeded doubles with mixed signs, the exact sum
// and its error bound (reference.hpp), the rungs of reduce.cu, CUB's DeviceReduce::Sum as the
// yardstick on the same data, and the textbook's CPU recursion as its row 1. The ladder's rungs
// reduce in place: before every run of every row (CUB's included) the driver draws that run's
// own input on the GPU (from the run's own seed: a sum kept from one run answers no other)
// and then flushes the L2 cache, neither timed, so every run starts from fresh values in memory
// with the same cold cache.
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "device_buffer.hpp"
#include "fail.hpp"
#include "lab5.hpp"
#include "lab_main.hpp"
#include "part_table.hpp"
#include "random_data.hpp"
#include "reference.hpp"
#include "reference_hook.hpp"
#include "table.hpp"

const std::vector<ReducePart>& reduce_parts() {
    static const std::vector<ReducePart> parts = {
        {"neighbored", "reduceNeighbored", true, reduce_neighbored},
        {"neighbored_less", "reduceNeighboredLess", true, reduce_neighbored_less},
        {"interleaved", "reduceInterleaved", true, reduce_interleaved},
        {"unrolling2", "reduceUnrolling2", true, reduce_unrolling2},
        {"unrolling4", "reduceUnrolling4", true, reduce_unrolling4},
        {"unrolling8", "reduceUnrolling8", true, reduce_unrolling8},
        {"unroll_warps8", "reduceUnrollWarps8", true, reduce_unroll_warps8},
        {"complete_unroll_warps8", "reduceCompleteUnrollWarps8", true, reduce_complete_unroll_warps8},
        {"complete_unroll", "reduceCompleteUnroll<iBlockSize>", true, reduce_complete_unroll},
        {"shuffle", "warp shuffles (__shfl_down_sync)", false, reduce_shuffle},
        {"grid_stride", "grid-stride loop, double2 loads, one launch", false, reduce_grid_stride},
    };
    return parts;
}

std::vector<double> reduce_input(size_t n, uint64_t seed) {
    SeededRandom random(seed);
    std::vector<double> x(n);
    for (double& v : x) v = reduce_value(random.next());
    return x;
}

namespace {

__global__ void reduce_input_kernel(double* dst, size_t n, uint64_t seed) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        dst[i] = reduce_value(splitmix_at(seed, i));
}

}  // namespace

void draw_reduce_input(double* dst, size_t n, uint64_t seed, cudaStream_t stream) {
    if (n == 0) return;
    const unsigned threads = 256;
    const size_t blocks = std::min<size_t>((n + threads - 1) / threads, 65535);  // a grid-stride loop does the rest
    reduce_input_kernel<<<unsigned(blocks), threads, 0, stream>>>(dst, n, seed);
    CUDA_CHECK_LAUNCH();
}

namespace {

std::string format_sum(double value) {
    char text[64];
    std::snprintf(text, sizeof text, "%.12g", value);
    return text;
}

std::string format_ratio(double ratio) { return format_fixed(ratio, 2) + "x"; }

class ReduceCase : public LabCase {
public:
    ReduceCase(const ArgParser& args, const DriverOptions&)
        : n_(size_t(args.integer("n", 1, max_reduce_n))), cpu_row_(!args.is_set("no-cpu")) {
        long long block = args.integer("block", 1, 1 << 20);
        if (block < 64 || block > 1024 || (block & (block - 1)) != 0)
            fail(exit_code::bad_usage,
                 "--block must be a power of two from 64 to 1024 (64, 128, 256, 512 or 1024), got " +
                     std::to_string(block) +
                     ": the trees halve the block down to one warp, whose last steps take 64 values, and a block has "
                     "at most 1024 threads");
        block_ = int(block);
    }

    void setup(const GpuInfo* gpu, cudaStream_t stream) override {
        stream_ = stream;
        const size_t bytes = n_ * sizeof(double);
        CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, cub_bytes_, static_cast<const double*>(nullptr),
                                          static_cast<double*>(nullptr), n_, stream));
        flush_bytes_ = gpu ? 2 * size_t(gpu->prop.l2CacheSize) : 0;
        require_device_memory(bytes + (partial_capacity(n_) + partial2_capacity(n_) + 2) * sizeof(double) +
                              flush_bytes_ + cub_bytes_);
        data_ = DeviceBuffer<double>(n_);
        partial_ = DeviceBuffer<double>(partial_capacity(n_));
        partial2_ = DeviceBuffer<double>(partial2_capacity(n_));
        result_ = DeviceBuffer<double>(1);
        counter_ = DeviceBuffer<unsigned int>(1);
        counter_.upload({0u});
        flush_ = DeviceBuffer<unsigned char>(flush_bytes_);
        cub_temp_ = DeviceBuffer<unsigned char>(cub_bytes_);
    }

    std::string describe() const override {
        return "sum of " + std::to_string(n_) + " doubles (uniform in +-[0.5, 1), mixed signs), --block " +
               std::to_string(block_);
    }
    std::vector<std::pair<std::string, std::string>> settings() const override {
        return {{"n", std::to_string(n_)}, {"block_size", std::to_string(block_)}};
    }
    // The bytes every rung must read at least once: the effective bandwidth's numerator.
    double work() const override { return double(n_) * sizeof(double); }

    std::vector<std::string> notes() const override {
        return {"input  " + format_fixed(work() / 1048576.0, 1) +
                    " MiB; before every run the driver draws that run's own values on the GPU (the ladder's rungs "
                    "overwrite theirs) and flushes the L2 cache, neither timed",
                "timed  from the input in device memory to its sum in device memory: every launch of a rung (passes "
                "over partial sums included), no copy to the host"};
    }

    PartRun part(const std::string& name) override {
        const ReducePart& p = part_named(reduce_parts(), name);
        PartRun run;
        run.output = "sum";
        run.run = [this, &p](Launcher& launch) { p.run(problem(), launch); };
        run.note = [this](const PartResult& r) {
            std::string text = sum_text(r) + "  " + grids_text(*r.launches);
            if (first_ms_ > 0) text += "  step " + format_ratio(previous_ms_ / r.median_ms) + ", cumulative " +
                                       format_ratio(first_ms_ / r.median_ms);
            if (first_ms_ == 0) first_ms_ = r.median_ms;
            previous_ms_ = r.median_ms;
            return text;
        };
        return run;
    }

    PartRun yardstick(const std::string& name) override {
        PartRun run;
        run.note = [](const PartResult& r) { return sum_text(r); };
        if (name == "cub") {
            run.output = "sum";
            run.run = [this](Launcher&) {
                size_t bytes = cub_bytes_;
                CUDA_CHECK(cub::DeviceReduce::Sum(cub_temp_.get(), bytes, static_cast<const double*>(data_.get()),
                                                  result_.get(), n_, stream_));
            };
        } else if (name == "cpu") {  // the student report's row 1
            if (!cpu_row_) run.skip = "--no-cpu";
            run.output = "cpu_sum";
            run.host_timed = true;
            run.run = [this](Launcher&) { cpu_sum_ = ReferenceHook<PairwiseSumFunction>::get()(cpu_input_.data(), n_); };
        }
        return run;
    }

    void poison(const std::string& output, cudaStream_t stream) override {
        if (output == "cpu_sum") cpu_sum_ = std::numeric_limits<double>::quiet_NaN();
        else result_.fill_bytes(0xFF, stream);
    }
    // The input of the run of `seed` in place (the CPU row's copied to the host), then the L2
    // flushed: the run reads its input from memory. Before that, what an earlier row left that
    // sums to this run's answer on the same input (every row's checked run has the case's) is
    // cleared: the partial sums (the scratch is garbage to a rung anyway), CUB's temporary
    // storage and the CPU row's sum.
    void load_inputs(const std::string& part, uint64_t seed, cudaStream_t stream) override {
        partial_.fill_bytes(0xFF, stream);
        partial2_.fill_bytes(0xFF, stream);
        if (part != "cub") cub_temp_.fill_bytes(0, stream);
        draw_reduce_input(data_.get(), n_, seed, stream);
        if (part == "cpu") {
            CUDA_CHECK(cudaStreamSynchronize(stream));
            cpu_input_ = data_.download();  // 128 MiB at 2^24: faster than drawing them again on the host
        } else {
            cpu_input_ = std::vector<double>();
            cpu_sum_ = std::numeric_limits<double>::quiet_NaN();
        }
        if (flush_bytes_) CUDA_CHECK(cudaMemsetAsync(flush_.get(), 0, flush_bytes_, stream));
    }
    OutputArray download(const std::string& output) override {
        double value = output == "cpu_sum" ? cpu_sum_ : result_.download().at(0);
        return OutputArray{DType::f64, {value}, {}};
    }
    OutputShape output_shape(const std::string&) const override { return {DType::f64, 1}; }

    // The exact sum of the input drawn from `seed`, drawn again on the host (the GPU's draw is not
    // trusted here: tests/lab5 compares the two). Both outputs, the rungs' and the CPU row's, are
    // the same sum: computed once per seed.
    Reference reference(const std::string&, uint64_t seed, bool) override {
        auto it = references_.find(seed);
        if (it == references_.end()) {
            std::vector<double> x = reduce_input(n_, seed);
            SumReference s = ReferenceHook<SumReferenceFunction>::get()(x.data(), n_);
            Reference r;
            r.value = {s.value};
            r.bound = {s.bound};
            r.how = "the sum";
            r.bound_name = "gamma_n sum|x_i| (any order of additions)";
            it = references_.emplace(seed, std::move(r)).first;
        }
        return it->second;
    }
    std::string element_name(const std::string&, size_t) const override { return "the sum"; }

private:
    ReduceProblem problem() {
        return ReduceProblem{data_.get(), n_, block_, partial_.get(), partial2_.get(), counter_.get(), result_.get()};
    }
    static std::string sum_text(const PartResult& r) { return r.output ? "sum " + format_sum(r.output->values.at(0)) : ""; }
    // The student report's <<<grid, block>>> column: each launch, the first three of a longer list.
    static std::string grids_text(const std::vector<LaunchConfig>& launches) {
        std::string text;
        for (size_t i = 0; i < launches.size() && i < 3; ++i)
            text += std::string(i ? " " : "") + "<<<" + std::to_string(launches[i].grid.x) + ", " +
                    std::to_string(launches[i].block.x) + ">>>";
        if (launches.size() > 3) text += " +" + std::to_string(launches.size() - 3) + " more";
        return text;
    }

    size_t n_;
    int block_ = 512;
    bool cpu_row_;
    cudaStream_t stream_ = nullptr;
    std::vector<double> cpu_input_;  // the CPU row's input, for its runs only
    DeviceBuffer<double> data_, partial_, partial2_, result_;
    DeviceBuffer<unsigned int> counter_;
    DeviceBuffer<unsigned char> flush_, cub_temp_;
    size_t flush_bytes_ = 0, cub_bytes_ = 0;
    double cpu_sum_ = 0;
    double first_ms_ = 0, previous_ms_ = 0;  // for the note's step and cumulative speedups
    std::map<uint64_t, Reference> references_;  // by seed
};

}  // namespace

LabInfo lab5() {
    LabInfo lab;
    lab.name = LAB_NAME;
    lab.summary = "Runs the rungs of reduce.cu on one case, checks each sum against the exact one and times it beside "
                  "CUB's DeviceReduce::Sum (and the textbook's CPU recursion).";
    lab.parts = part_names(reduce_parts());
    lab.metrics = {{"GB/s", "gbps", 1e9, Metric::Bound::memory_bytes}};
    lab.yardsticks = {{"cub", "CUB DeviceReduce::Sum"}, {"cpu", "the textbook's recursive pairwise sum on the CPU"}};
    lab.declare_options = [](ArgParser& args) {
        args.option("n", "N", "16777216", "how many doubles to sum (1 to 2^30)");
        args.option("block", "B", "512", "threads per block: 64, 128, 256, 512 or 1024");
        args.flag("no-cpu", "leave out the CPU row (the textbook's recursion, slow for large n)");
    };
    lab.make_case = make_case_of<ReduceCase>;
    return lab;
}
