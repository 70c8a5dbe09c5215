// Lab 4 trusted driver: only what is about stencils. Seeded A (n + 4 floats), image and filter,
// uniform in [-1, 1), so of mixed signs: A, the image and the max's B (the driver's own float
// stencil of A) drawn afresh on the GPU for every run of a part, the filter once per case; the
// student's upload of the filter to constant memory (once per case, untimed); the CPU
// references through their hooks (reference.hpp, left out of the grader's builds); and
// the yardsticks, each timed in the same run and each moving the bytes of the parts it stands
// beside: a copy kernel (common/copy_yardstick.cuh, shared with lab 2) and cudaMemcpy device to
// device of the stencil's bytes, a copy kernel of the max's and of the image's bytes, and an
// empty kernel, the least any launch costs.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "copy_yardstick.cuh"
#include "device_buffer.hpp"
#include "lab4.hpp"
#include "lab_main.hpp"
#include "random_data.hpp"
#include "random_fill.hpp"
#include "reference.hpp"
#include "reference_hook.hpp"
#include "stencil.h"
#include "table.hpp"

void stencil_in_float(const float* A, size_t n, float* B) {
    for (size_t i = 0; i < n; ++i) {
        float sum = 0;
        for (int k = 0; k < 5; ++k) sum += stencil_coefficients[k] * (A[i + k] * A[i + k]);
        B[i] = sum / stencil_divisor;
    }
}

std::vector<float> stencil_in_float(const std::vector<float>& A) {
    std::vector<float> B(A.size() >= 4 ? A.size() - 4 : 0);
    stencil_in_float(A.data(), B.size(), B.data());
    return B;
}

namespace {

// B[i] = stencil_in_float of the A that fill_uniform draws from `seed` (A[j] the draw at
// position j, uniform in [-1, 1)), each thread drawing its own five values. Every operation
// rounded on its own, in stencil_in_float's order (no fused multiply-add), so B is the float
// array the host loop gives.
__global__ void max_input_kernel(float* B, size_t n, uint64_t seed) {
    constexpr float c[5] = {stencil_coefficients[0], stencil_coefficients[1], stencil_coefficients[2],
                            stencil_coefficients[3], stencil_coefficients[4]};
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        float sum = 0;
#pragma unroll
        for (int k = 0; k < 5; ++k) {
            const float a = uniform_from_bits(splitmix_at(seed, i + k), -1, 1);
            sum = __fadd_rn(sum, __fmul_rn(c[k], __fmul_rn(a, a)));
        }
        B[i] = __fdiv_rn(sum, stencil_divisor);
    }
}

}  // namespace

void max_input_on_gpu(float* B, size_t n, uint64_t seed, cudaStream_t stream) {
    if (n == 0) return;
    constexpr unsigned threads = 256;
    const size_t blocks = std::min<size_t>((n + threads - 1) / threads, 65535);
    max_input_kernel<<<unsigned(blocks), threads, 0, stream>>>(B, n, seed);
    CUDA_CHECK_LAUNCH();
}

namespace {

// `count` floats uniform in [-1, 1) from `seed`, the draws at positions offset .. offset + count:
// what fill_uniform puts on the GPU, for the CPU references.
std::vector<float> host_draws(uint64_t seed, uint64_t offset, size_t count) {
    std::vector<float> values(count);
    for (size_t i = 0; i < count; ++i) values[i] = uniform_from_bits(splitmix_at(seed, offset + i), -1, 1);
    return values;
}

constexpr long long max_n = 1ll << 29;
constexpr int max_side = 1 << 16;
// --check auto compares every element up to these sizes, a sample beyond.
constexpr long long full_check_n = 1ll << 26;
constexpr double full_check_taps = double(1ll << 28);

// The launch floor: a kernel that does nothing, one block of one warp.
__global__ void empty_kernel() {}

OutputArray as_output(const std::vector<float>& values) {
    return OutputArray{DType::f32, std::vector<double>(values.begin(), values.end()), {}};
}

std::string megabytes(double bytes) { return format_fixed(bytes / 1e6, bytes < 1e7 ? 2 : 0) + " MB"; }

class StencilCase : public LabCase {
public:
    StencilCase(const ArgParser& args, const DriverOptions& options)
        : n_(int(args.integer("n", 1, max_n))), block_(int(args.integer("block", 1, 1 << 16))),
          width_(int(args.integer("width", 1, max_side))), height_(int(args.integer("height", 1, max_side))),
          radius_(int(args.integer("radius", 0, max_radius))), seed_(options.seed), sample_seed_(options.sample_seed) {
        if (1ll * width_ * height_ > (1ll << 31) - 1)
            fail(exit_code::bad_usage, "the image would have " + std::to_string(1ll * width_ * height_) +
                                           " pixels; the kernels index with int, so at most 2^31 - 1");
    }

    void setup(const GpuInfo* gpu, cudaStream_t stream) override {
        stream_ = stream;
        const size_t n = size_t(n_), pixels = this->pixels(), side = 2 * radius_ + 1;
        // A, B, the max's B and scratch, the copy's destination; image, output, copy destination;
        // the max's B once more, for a moment, when its reference is made.
        require_device_memory((6 * n + 8 + 3 * pixels) * sizeof(float));
        // Each run's data is drawn in this order from its own seed (load_inputs): A first, then
        // the image, then the filter. The filter is the case's own (--seed's), for every run.
        filter_ = host_draws(seed_, n + 4 + pixels, side * side);

        dA_ = DeviceBuffer<float>(n + 4);
        dB_ = DeviceBuffer<float>(n);
        dMaxInput_ = DeviceBuffer<float>(n);
        dPartial_ = DeviceBuffer<float>(n);
        dResult_ = DeviceBuffer<float>(1);
        dImage_ = DeviceBuffer<float>(pixels);
        dOut_ = DeviceBuffer<float>(pixels);
        dCopy_ = DeviceBuffer<float>(n + 2);
        dImageCopy_ = DeviceBuffer<float>(pixels);
        peak_gbps_ = gpu ? peak_memory_gbps(*gpu) : 0;

        // The student's upload into constant memory: once, before any part. If it throws, the
        // convolution parts report it instead of running with a filter that is not there.
        try {
            upload_filter(filter_.data(), radius_);
            CUDA_CHECK(cudaDeviceSynchronize());
        } catch (const std::exception& error) {
            filter_problem_ = std::string("upload_filter threw an exception: ") + error.what();
        }
    }

    // The inputs of the run of `seed`, drawn on the GPU: A for the stencils, the max's B (the
    // stencil of that A, in float), the image for the convolutions. While a stencil part runs, nothing the
    // process holds may be its B, or part of it: the max's B, the copy of half of it that
    // copy_half leaves, and the cpu yardstick's B are cleared.
    void load_inputs(const std::string& part, uint64_t seed, cudaStream_t stream) override {
        if (part == "stencil_global" || part == "stencil_shared") {
            dMaxInput_.fill_bytes(0xFF, stream);
            dCopy_.fill_bytes(0xFF, stream);
            forget_cpu_B();
        }
        if (part == "stencil_global" || part == "stencil_shared" || part == "copy" || part == "memcpy")
            fill_uniform(dA_.get(), dA_.count(), seed, 0, -1, 1, stream);
        else if (part == "max" || part == "copy_half")
            max_input_on_gpu(dMaxInput_.get(), dMaxInput_.count(), seed, stream);
        else if (part == "conv_global" || part == "conv_shared" || part == "copy_image")
            fill_uniform(dImage_.get(), dImage_.count(), seed, uint64_t(n_) + 4, -1, 1, stream);
        else if (part == "cpu" && A_.empty())  // the host loop: the case's own A (--seed's) every run
            A_ = host_draws(seed_, 0, size_t(n_) + 4);
    }

    std::string describe() const override {
        const std::string side = std::to_string(2 * radius_ + 1);
        return "B = stencil(A), n = " + std::to_string(n_) + ", --block " + std::to_string(block_) +
               "; max of B; conv of a " + std::to_string(height_) + " x " + std::to_string(width_) + " image with a " +
               side + " x " + side + " filter (radius " + std::to_string(radius_) + "), zero padding";
    }
    std::vector<std::pair<std::string, std::string>> settings() const override {
        return {{"n", std::to_string(n_)}, {"block_size", std::to_string(block_)}, {"width", std::to_string(width_)},
                {"height", std::to_string(height_)}, {"radius", std::to_string(radius_)}};
    }
    // Effective bandwidth counts each byte a part must move once: the stencil reads A (n + 4
    // floats) and writes B (n); the max reads B; a convolution reads the image and writes it.
    double stencil_bytes() const { return 4.0 * (n_ + 4) + 4.0 * n_; }
    double max_bytes() const { return 4.0 * n_; }
    double image_bytes() const { return 8.0 * pixels(); }
    double work() const override { return stencil_bytes(); }

    std::vector<std::string> notes() const override {
        std::vector<std::string> lines = {
            "bytes  stencil " + megabytes(stencil_bytes()) + " (A read, B written), max " + megabytes(max_bytes()) +
                " (B read), convolution " + megabytes(image_bytes()) + " (image read, output written)"};
        if (peak_gbps_ > 0)
            lines.push_back("floor  at this GPU's peak of " + format_fixed(peak_gbps_, 0) + " GB/s the stencil's bytes take " +
                            format_fixed(stencil_bytes() / (peak_gbps_ * 1e9) * 1e6, 2) +
                            " us; row `launch` times an empty kernel: where a part takes about that long, the launch, "
                            "not memory, sets its time (its GB/s column: the stencil's bytes in that time)");
        if (!filter_problem_.empty()) lines.push_back("filter " + filter_problem_);
        return lines;
    }

    PartRun part(const std::string& name) override {
        PartRun run;
        if (name == "stencil_global" || name == "stencil_shared") {
            void (*stencil)(const Stencil1D&, int, Launcher&) = name == "stencil_global" ? stencil_global : stencil_shared;
            run.output = "B";
            run.work = stencil_bytes();
            run.yardstick = "copy";
            run.run = [this, stencil](Launcher& launch) { stencil(Stencil1D{dA_.get(), dB_.get(), n_}, block_, launch); };
        } else if (name == "max") {
            run.output = "max";
            run.work = max_bytes();
            run.yardstick = "copy_half";
            run.run = [this](Launcher& launch) {
                max_reduce(MaxReduction{dMaxInput_.get(), n_, dPartial_.get(), dResult_.get()}, block_, launch);
            };
        } else {
            void (*conv)(const Convolution2D&, Launcher&) = name == "conv_global" ? conv_global : conv_shared;
            run.output = "conv";
            run.work = image_bytes();
            run.yardstick = "copy_image";
            run.run = [this, conv](Launcher& launch) {
                if (!filter_problem_.empty()) throw std::runtime_error(filter_problem_);
                conv(Convolution2D{dImage_.get(), dOut_.get(), width_, height_, radius_}, launch);
            };
        }
        return run;
    }

    PartRun yardstick(const std::string& name) override {
        PartRun run;
        run.output = "yardstick";
        run.checked = false;
        if (name == "cpu") {  // the student report's TCPU: the same loop on one core of the host
            run.host_timed = true;
            run.work = stencil_bytes();
            run.run = [this](Launcher&) {
                cpu_B_.resize(size_t(n_));
                stencil_in_float(A_.data(), cpu_B_.size(), cpu_B_.data());
            };
        } else if (name == "launch") {
            run.work = stencil_bytes();
            run.run = [this](Launcher&) {
                empty_kernel<<<1, 32, 0, stream_>>>();
                CUDA_CHECK(cudaGetLastError());
            };
        } else if (name == "copy") {  // n + 2 floats each way: the stencil's 4(n + 4) + 4n bytes
            run.work = stencil_bytes();
            run.run = [this](Launcher&) { yardstick_copy_floats(dCopy_.get(), dA_.get(), size_t(n_) + 2, stream_); };
        } else if (name == "memcpy") {
            run.work = stencil_bytes();
            run.run = [this](Launcher&) {
                CUDA_CHECK(cudaMemcpyAsync(dCopy_.get(), dA_.get(), (size_t(n_) + 2) * sizeof(float),
                                           cudaMemcpyDeviceToDevice, stream_));
            };
        } else if (name == "copy_half") {  // ceil(n / 2) floats each way: the 4n bytes the max reads
            const size_t half = (size_t(n_) + 1) / 2;
            run.work = 8.0 * half;
            run.run = [this, half](Launcher&) { yardstick_copy_floats(dCopy_.get(), dMaxInput_.get(), half, stream_); };
        } else {  // copy_image
            run.work = image_bytes();
            run.run = [this](Launcher&) { yardstick_copy_floats(dImageCopy_.get(), dImage_.get(), pixels(), stream_); };
        }
        return run;
    }

    void poison(const std::string& output, cudaStream_t stream) override {
        if (output == "B") dB_.fill_bytes(0xFF, stream);
        if (output == "max") dResult_.fill_bytes(0xFF, stream);
        if (output == "conv") dOut_.fill_bytes(0xFF, stream);
    }

    OutputArray download(const std::string& output) override {
        if (output == "B") return as_output(dB_.download());
        if (output == "max") return as_output(dResult_.download());
        return as_output(dOut_.download());
    }
    OutputShape output_shape(const std::string& output) const override {
        if (output == "B") return {DType::f32, size_t(n_)};
        if (output == "max") return {DType::f32, 1};
        return {DType::f32, pixels()};
    }

    bool full_reference_is_cheap() const override {
        const double taps = double(2 * radius_ + 1) * (2 * radius_ + 1);
        return n_ <= full_check_n && double(pixels()) * taps <= full_check_taps;
    }

    Reference reference(const std::string& output, uint64_t seed, bool full) override {
        Reference r;
        if (output == "max") {
            // The run's B exactly as the driver gave it to the part: made again on the GPU.
            DeviceBuffer<float> B{size_t(n_)};
            max_input_on_gpu(B.get(), B.count(), seed, stream_);
            CUDA_CHECK(cudaStreamSynchronize(stream_));
            const std::vector<float> max_input = B.download();
            r.value = {double(ReferenceHook<MaxReferenceFunction>::get()(max_input.data(), max_input.size()))};
            r.bound = {0.0};
            r.how = "the one value";
            r.bound_name = "0 (exact: the largest float of the driver's B)";
            return r;
        }
        Lab4Reference computed;
        if (output == "B") {
            const std::vector<float> A = host_draws(seed, 0, size_t(n_) + 4);
            computed = ReferenceHook<StencilReferenceFunction>::get()(A.data(), n_, full, sample_seed_, r.positions);
            r.bound_name = "gamma_" + std::to_string(stencil_roundings) + " sum_k |c_k| A[i+k]^2 / 24";
        } else {
            const std::vector<float> image = host_draws(seed, uint64_t(n_) + 4, pixels());
            computed = ReferenceHook<ConvolutionReferenceFunction>::get()(image.data(), width_, height_, filter_.data(),
                                                                          radius_, full, sample_seed_, r.positions);
            const int taps = (2 * radius_ + 1) * (2 * radius_ + 1);
            r.bound_name = "gamma_" + std::to_string(taps) + " sum |filter| |in| over the (2r+1)^2 taps";
        }
        r.how = r.positions.empty() ? "every element"
                                    : std::to_string(r.positions.size()) +
                                          (output == "B" ? " elements (the first and last 1024, and a random sample)"
                                                         : " elements (the first and last rows and columns, and a "
                                                           "random sample)");
        r.value = std::move(computed.value);
        r.bound = std::move(computed.bound);
        return r;
    }

    std::string element_name(const std::string& output, size_t index) const override {
        if (output == "max") return "the maximum of B";
        if (output == "conv")
            return "out[" + std::to_string(index / width_) + "][" + std::to_string(index % width_) + "]";
        return "B[" + std::to_string(index) + "]";
    }

private:
    size_t pixels() const { return size_t(width_) * height_; }
    // The cpu yardstick's B, overwritten and let go: it is the stencil parts' answer for A.
    void forget_cpu_B() {
        std::fill(cpu_B_.begin(), cpu_B_.end(), std::nanf(""));
        std::vector<float>().swap(cpu_B_);
    }

    int n_, block_, width_, height_, radius_;
    uint64_t seed_, sample_seed_;
    cudaStream_t stream_ = nullptr;
    double peak_gbps_ = 0;
    std::vector<float> A_, filter_, cpu_B_;  // A_: the cpu yardstick's input, drawn on its first run
    std::string filter_problem_;
    DeviceBuffer<float> dA_, dB_, dMaxInput_, dPartial_, dResult_, dImage_, dOut_, dCopy_, dImageCopy_;
};

}  // namespace

LabInfo lab4() {
    LabInfo lab;
    lab.name = LAB_NAME;
    lab.summary = "Runs the parts of stencil.cu on one case (a student report's vector stencil, the maximum of B, a course's "
                  "convolution), checks them against a CPU reference and times them beside a copy kernel of the same "
                  "bytes.";
    lab.parts = {"stencil_global", "stencil_shared", "max", "conv_global", "conv_shared"};
    lab.metrics = {{"GB/s", "gbps", 1e9, Metric::Bound::memory_bytes}};
    // Each part's "%" is against a copy kernel moving its own bytes: the stencils against `copy`,
    // the max against `copy_half`, the convolutions against `copy_image`. `cpu` (the student report's
    // TCPU, for its speedups), `memcpy` (the copy engine) and `launch` (an empty kernel) are
    // rows to read beside them.
    lab.yardsticks = {{"cpu", "the stencil on one CPU core"},
                      {"launch", "an empty kernel"},
                      {"copy", "a copy kernel of the stencil's bytes"},
                      {"memcpy", "cudaMemcpy device to device of the stencil's bytes"},
                      {"copy_half", "a copy kernel of the max's bytes"},
                      {"copy_image", "a copy kernel of the image"}};
    lab.declare_options = [](ArgParser& args) {
        args.option("n", "N", "200000", "length of B; A holds N + 4 values");
        args.option("block", "T", "256", "threads per block of the 1D parts (the stencils and the max)");
        args.option("width", "W", "1000", "columns of the image");
        args.option("height", "H", "1000", "rows of the image");
        args.option("radius", "R", "2", "the filter is (2R + 1) x (2R + 1), R from 0 to 8");
    };
    lab.make_case = make_case_of<StencilCase>;
    return lab;
}
