// Lab 7 trusted driver: only what is about this lab. Seeded matrices A and B, the matmul CPU
// reference (common/reference/), the parts of zerocopy.cu (parts.hpp) with their matrices
// where each part's memory kind puts them, and two yardsticks timed in the same run: the
// trusted OpenMP i-k-j loop for every multiply, a pinned cudaMemcpy for the streaming part.
// Options, checking, timing, tables and result files are the shared driver core's.
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "device_buffer.hpp"
#include "lab_main.hpp"
#include "openmp_yardstick.hpp"
#include "parts.hpp"
#include "random_data.hpp"
#include "reference/matmul_reference.hpp"
#include "reference_hook.hpp"

namespace {

// Up to this many multiply-adds (1024^3) --check auto compares every element of C.
constexpr double full_check_macs = double(1ull << 30);
// n x n floats, three matrices in each of four kinds of memory: 16384 is 1 GiB a matrix.
constexpr int max_n = 16384;

// Host memory that frees itself with the call that matches how it was allocated.
class HostMemory {
public:
    HostMemory() = default;
    HostMemory(float* p, cudaError_t (*release)(void*)) : p_(p), release_(release) {}
    ~HostMemory() {
        if (p_) release_(p_);
    }
    HostMemory(HostMemory&& o) noexcept { *this = std::move(o); }
    HostMemory& operator=(HostMemory&& o) noexcept {
        std::swap(p_, o.p_);
        std::swap(release_, o.release_);
        return *this;
    }
    float* get() const { return p_; }

private:
    float* p_ = nullptr;
    cudaError_t (*release_)(void*) = nullptr;
};

HostMemory pinned(size_t count) {
    void* p = nullptr;
    CUDA_CHECK(cudaMallocHost(&p, count * sizeof(float)));
    return HostMemory(static_cast<float*>(p), cudaFreeHost);
}

// All bits set (NaN) through any pointer a kernel can write: device, mapped or managed. A
// kernel on the stream, so that it is ordered with the timed runs (the core enqueues the
// preparation of the next run before the previous one has finished).
__global__ void poison_kernel(unsigned* p, size_t count) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count; i += size_t(gridDim.x) * blockDim.x)
        p[i] = 0xFFFFFFFFu;
}

void poison_on_stream(float* p, size_t count, cudaStream_t stream) {
    if (!p || count == 0) return;
    unsigned blocks = unsigned(std::min<size_t>((count + 255) / 256, 1024));
    poison_kernel<<<blocks, 256, 0, stream>>>(reinterpret_cast<unsigned*>(p), count);
    CUDA_CHECK(cudaGetLastError());
}

OutputArray as_output(const float* p, size_t count) {
    return OutputArray{DType::f32, std::vector<double>(p, p + count), {}};
}

class ZeroCopyCase : public LabCase {
public:
    ZeroCopyCase(const ArgParser& args, const DriverOptions& options)
        : n_(int(args.integer("n", 1, max_n))), tile_(int(args.integer("tile", 1, 1 << 20))),
          threads_(read_threads(args)), stream_count_(size_t(args.integer("stream", 1, 1ll << 32))),
          seed_(options.seed), parts_(options.parts) {}

    static int read_threads(const ArgParser& args) {
        if (args.text("threads") == "all") return omp_get_num_procs();
        return int(args.integer("threads", 1, 1024));
    }

    void setup(const GpuInfo* gpu, cudaStream_t stream) override {
        stream_ = stream;
        // OpenMP's default team is one thread here: a CPU part must ask for p.threads itself
        // (num_threads), or it runs serially and its time shows it did not.
        omp_set_num_threads(1);
        const size_t count = size_t(n_) * n_;
        SeededRandom random(seed_);  // entries uniform in [-1, 1): A first, then B
        A_.resize(count);
        B_.resize(count);
        for (float& a : A_) a = random.uniform(-1, 1);
        for (float& b : B_) b = random.uniform(-1, 1);
        C_host_.assign(count, 0.0f);
        C_openmp_.assign(count, 0.0f);
        if (!gpu) return;  // the CPU parts alone (no GPU here)

        require_device_memory((3 * count + stream_count_) * sizeof(float));
        const size_t bytes = count * sizeof(float);
        if (uses(Memory::device_copies)) {
            hA_ = pinned(count), hB_ = pinned(count), hC_ = pinned(count);
            std::memcpy(hA_.get(), A_.data(), bytes);
            std::memcpy(hB_.get(), B_.data(), bytes);
            dA_ = DeviceBuffer<float>(count), dB_ = DeviceBuffer<float>(count), dC_ = DeviceBuffer<float>(count);
        }
        if (uses(Memory::mapped)) {
            mapped_problem_ = allocate_mapped_matrices(count, bytes);
        }
        if (uses(Memory::managed)) allocate_managed_matrices(count, bytes);
        // The streaming part's buffers: the yardstick (pinned copy) needs its own in every run.
        stream_pinned_ = pinned(stream_count_);
        for (size_t i = 0; i < stream_count_; ++i) stream_pinned_.get()[i] = float(i % 1000003) * 0.5f - 7.0f;
        stream_dst_ = DeviceBuffer<float>(stream_count_);
        if (uses(Memory::stream)) {
            float* device = nullptr;
            stream_src_ = student_mapped(stream_count_, &device, "the streaming buffer", stream_error_);
            if (stream_src_.get()) {
                std::memcpy(stream_src_.get(), stream_pinned_.get(), stream_count_ * sizeof(float));
                stream_src_device_ = device;
            }
        }
    }

    std::string describe() const override {
        return "C(" + dims() + ") = A(" + dims() + ") * B(" + dims() + "), --tile " + std::to_string(tile_) +
               " --threads " + std::to_string(threads_) + "; stream " + std::to_string(stream_count_) + " floats (" +
               format_mib(stream_count_ * sizeof(float)) + ")";
    }
    std::vector<std::pair<std::string, std::string>> settings() const override {
        return {{"n", std::to_string(n_)}, {"omp_threads", std::to_string(threads_)},
                {"stream", std::to_string(stream_count_)}};
    }
    double work() const override { return 2.0 * n_ * double(n_) * n_; }

    PartRun part(const std::string& name) override {
        const ZeroCopyPart& p = zerocopy_part(name);
        PartRun run;
        run.config = {p.uses_tile ? std::to_string(tile_) : "-"};
        switch (p.memory) {
            case Memory::host:
                run.output = "C_host";
                run.host_timed = true;
                run.run = [this, &p](Launcher& launch) {
                    p.cpu(HostMatmul{A_.data(), B_.data(), C_host_.data(), n_, threads_}, launch);
                };
                break;
            case Memory::mapped:
                run.output = "C_mapped";
                run.run = [this, &p](Launcher& launch) {
                    if (!mapped_error_.empty()) throw std::runtime_error(mapped_error_);
                    if (mapped_A_.get()) p.gpu(mapped_problem_, tile_, launch);  // else: not implemented
                };
                break;
            case Memory::device_copies:
                run.output = "C_copy";
                run.run = [this, &p](Launcher& launch) {
                    p.copy(CopyMatmul{hA_.get(), hB_.get(), hC_.get(), dA_.get(), dB_.get(), dC_.get(), n_}, tile_,
                           launch);
                };
                break;
            case Memory::managed:
                run.output = "C_managed";
                run.run = [this, &p](Launcher& launch) {
                    if (!managed_error_.empty()) throw std::runtime_error(managed_error_);
                    if (managed_A_) p.gpu(GpuMatmul{managed_A_, managed_B_, managed_C_, n_}, tile_, launch);
                };
                break;
            case Memory::stream:
                run.output = "stream";
                run.metric = "gbps";
                run.work = double(stream_count_ * sizeof(float));
                run.yardstick = "pinned_h2d";
                run.run = [this](Launcher& launch) {
                    if (!stream_error_.empty()) throw std::runtime_error(stream_error_);
                    if (stream_src_device_)
                        stream_mapped(StreamCopy{stream_src_device_, stream_dst_.get(), stream_count_}, launch);
                };
                break;
        }
        return run;
    }

    PartRun yardstick(const std::string& name) override {
        PartRun run;
        if (name == "openmp") {
            run.output = "C_openmp";
            run.host_timed = true;
            run.config = {"-"};
            run.run = [this](Launcher&) { openmp_yardstick_ikj(A_.data(), B_.data(), C_openmp_.data(), n_, threads_); };
        } else {  // pinned_h2d: what PCIe gives a plain copy from pinned memory, the streaming part's goal
            run.output = "stream";
            run.checked = false;
            run.metric = "gbps";
            run.work = double(stream_count_ * sizeof(float));
            run.run = [this](Launcher& launch) {
                CUDA_CHECK(cudaMemcpyAsync(stream_dst_.get(), stream_pinned_.get(), stream_count_ * sizeof(float),
                                           cudaMemcpyHostToDevice, launch.stream()));
            };
        }
        return run;
    }

    void poison(const std::string& output, cudaStream_t stream) override {
        const size_t count = size_t(n_) * n_;
        if (output == "C_host") std::fill(C_host_.begin(), C_host_.end(), std::numeric_limits<float>::quiet_NaN());
        if (output == "C_openmp") std::fill(C_openmp_.begin(), C_openmp_.end(), std::numeric_limits<float>::quiet_NaN());
        if (output == "C_mapped") poison_on_stream(mapped_problem_.C, count, stream);
        if (output == "C_copy") {  // both ends: a result copied back from a stale dC fails too
            poison_on_stream(dC_.get(), count, stream);
            poison_on_stream(hC_.get(), count, stream);
        }
        if (output == "C_managed") poison_on_stream(managed_C_, count, stream);
        if (output == "stream") poison_on_stream(stream_dst_.get(), stream_count_, stream);
    }

    // Every run starts with the managed matrices on the host, as every other part's inputs are:
    // moving them is the managed part's work, timed. Untimed here, before the run.
    void restore_inputs(cudaStream_t stream) override {
        if (!managed_A_) return;
        cudaMemLocation host{};
        host.type = cudaMemLocationTypeHost;
        const size_t bytes = size_t(n_) * n_ * sizeof(float);
        CUDA_CHECK(cudaMemPrefetchAsync(managed_A_, bytes, host, 0, stream));
        CUDA_CHECK(cudaMemPrefetchAsync(managed_B_, bytes, host, 0, stream));
    }

    OutputArray download(const std::string& output) override {
        const size_t count = size_t(n_) * n_;
        if (output == "C_host") return as_output(C_host_.data(), count);
        if (output == "C_openmp") return as_output(C_openmp_.data(), count);
        if (output == "C_mapped") return as_output(mapped_C_.get(), count);
        if (output == "C_copy") return as_output(hC_.get(), count);
        if (output == "C_managed") return as_output(managed_C_, count);
        return as_output(stream_dst_.download().data(), stream_count_);
    }

    bool full_reference_is_cheap() const override { return double(n_) * n_ * n_ <= full_check_macs; }
    Reference reference(const std::string& output, bool full) override {
        if (output == "stream") return stream_reference(full);
        // Every C is the same product: computed once, whichever output asks first.
        if (!matmul_reference_ || matmul_reference_full_ != full) {
            matmul_reference_ = std::make_unique<Reference>();
            Reference& r = *matmul_reference_;
            MatmulReference m = ReferenceHook<MatmulReferenceFunction>::get()(A_.data(), B_.data(), n_, n_, n_, full,
                                                                                seed_, r.positions);
            r.how = full ? "every element"
                         : std::to_string(r.positions.size()) +
                               " elements (first and last rows and columns, and a random sample)";
            r.value = std::move(m.value);
            r.bound = std::move(m.bound);
            r.bound_name = "gamma_n (|A||B|)_ij";
            matmul_reference_full_ = full;
        }
        return *matmul_reference_;
    }
    std::string element_name(const std::string& output, size_t index) const override {
        if (output == "stream") return "dst[" + std::to_string(index) + "]";
        return "C[" + std::to_string(index / n_) + "][" + std::to_string(index % n_) + "]";
    }

private:
    bool uses(Memory memory) const {
        for (const std::string& name : parts_)
            if (zerocopy_part(name).memory == memory) return true;
        return false;
    }
    std::string dims() const { return std::to_string(n_) + "x" + std::to_string(n_); }
    static std::string format_mib(size_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

    // The student's alloc_mapped, checked: what it returns must be pinned host memory mapped
    // at the device address it reports, or the zero-copy parts would measure something else.
    // A failure is kept and reported by the parts that need the memory.
    HostMemory student_mapped(size_t count, float** device, const char* what, std::string& error) {
        if (!error.empty()) return {};
        float* host = nullptr;
        try {
            host = alloc_mapped(count, device);
        } catch (const std::exception& e) {
            error = std::string("alloc_mapped failed for ") + what + ": " + e.what();
            return {};
        }
        if (!host) return {};  // not implemented
        HostMemory memory(host, cudaFreeHost);
        cudaPointerAttributes attributes{};
        if (cudaPointerGetAttributes(&attributes, host) != cudaSuccess || attributes.type != cudaMemoryTypeHost ||
            attributes.devicePointer != *device)
            error = std::string("alloc_mapped returned memory for ") + what +
                    " that is not mapped pinned host memory at the device address it reported (cudaHostAlloc with "
                    "cudaHostAllocMapped, then cudaHostGetDevicePointer)";
        return memory;
    }

    GpuMatmul allocate_mapped_matrices(size_t count, size_t bytes) {
        float *dA = nullptr, *dB = nullptr, *dC = nullptr;
        mapped_A_ = student_mapped(count, &dA, "A", mapped_error_);
        mapped_B_ = student_mapped(count, &dB, "B", mapped_error_);
        mapped_C_ = student_mapped(count, &dC, "C", mapped_error_);
        if (!mapped_A_.get() || !mapped_B_.get() || !mapped_C_.get()) {
            mapped_A_ = {};  // any one missing: the parts are not implemented
            return {};
        }
        std::memcpy(mapped_A_.get(), A_.data(), bytes);
        std::memcpy(mapped_B_.get(), B_.data(), bytes);
        return GpuMatmul{dA, dB, dC, n_};
    }

    void allocate_managed_matrices(size_t count, size_t bytes) {
        float* p[3] = {};
        try {
            for (float*& q : p) q = alloc_managed(count);
        } catch (const std::exception& e) {
            managed_error_ = std::string("alloc_managed failed: ") + e.what();
        }
        for (float* q : p)
            if (q) managed_memory_.emplace_back(q, cudaFree);
        if (!p[0] || !p[1] || !p[2]) return;  // not implemented
        for (float* q : p) {
            cudaPointerAttributes attributes{};
            if (cudaPointerGetAttributes(&attributes, q) != cudaSuccess || attributes.type != cudaMemoryTypeManaged)
                managed_error_ = "alloc_managed returned memory that is not managed memory (cudaMallocManaged)";
        }
        if (!managed_error_.empty()) return;
        std::memcpy(p[0], A_.data(), bytes);
        std::memcpy(p[1], B_.data(), bytes);
        managed_A_ = p[0], managed_B_ = p[1], managed_C_ = p[2];
    }

    // A copy is exact: the reference is the source, bound 0.
    Reference stream_reference(bool full) {
        Reference r;
        const float* src = stream_pinned_.get();
        if (full) {
            r.value.assign(src, src + stream_count_);
            r.how = "every element";
        } else {
            SeededRandom random(seed_);
            for (size_t i = 0; i < stream_count_; i += 1 + size_t(random.integer(0, 4095))) r.positions.push_back(i);
            if (r.positions.back() != stream_count_ - 1) r.positions.push_back(stream_count_ - 1);
            for (size_t i : r.positions) r.value.push_back(src[i]);
            r.how = std::to_string(r.positions.size()) + " elements (a random sample and the last)";
        }
        r.bound.assign(r.value.size(), 0.0);
        r.bound_name = "0 (exact: a copy)";
        return r;
    }

    int n_, tile_, threads_;
    size_t stream_count_;
    uint64_t seed_;
    std::vector<std::string> parts_;
    cudaStream_t stream_ = nullptr;
    std::vector<float> A_, B_, C_host_, C_openmp_;
    HostMemory hA_, hB_, hC_;
    DeviceBuffer<float> dA_, dB_, dC_;
    HostMemory mapped_A_, mapped_B_, mapped_C_;
    GpuMatmul mapped_problem_{};
    std::string mapped_error_, managed_error_, stream_error_;
    std::vector<std::unique_ptr<void, cudaError_t (*)(void*)>> managed_memory_;
    float *managed_A_ = nullptr, *managed_B_ = nullptr, *managed_C_ = nullptr;
    HostMemory stream_pinned_, stream_src_;
    float* stream_src_device_ = nullptr;
    DeviceBuffer<float> stream_dst_;
    std::unique_ptr<Reference> matmul_reference_;
    bool matmul_reference_full_ = false;
};

LabInfo lab7() {
    LabInfo lab;
    lab.name = LAB_NAME;
    lab.summary = "Runs the parts of zerocopy.cu on one case, checks them against a CPU reference and times them beside "
                  "a trusted OpenMP i-k-j run and a pinned cudaMemcpy.";
    lab.parts = zerocopy_part_names();
    lab.host_parts = zerocopy_host_part_names();
    lab.host_parts.push_back("openmp");
    lab.metrics = {{"GFLOP/s", "gflops", 1e9, Metric::Bound::fp32_flops}, {"GB/s", "gbps", 1e9, Metric::Bound::memory_bytes}};
    lab.yardsticks = {{"openmp", "OpenMP"}, {"pinned_h2d", "pinned H2D"}};
    lab.config_columns = {"tile"};
    lab.declare_options = [](ArgParser& args) {
        args.option("n", "N", "1024", "side of the square matrices A, B and C");
        args.option("tile", "T", "32", "tile side of the GPU kernels (8, 16 or 32): blocks of T x T threads");
        args.option("threads", "P", "all", "OpenMP threads of the CPU parts and the OpenMP yardstick (all: every core)");
        args.option("stream", "COUNT", "16777216", "floats the streaming part reads from mapped memory (default 64 MiB)");
    };
    lab.make_case = [](const ArgParser& args, const DriverOptions& options) -> std::unique_ptr<LabCase> {
        return std::make_unique<ZeroCopyCase>(args, options);
    };
    return lab;
}

}  // namespace

int main(int argc, char** argv) { return run_lab(lab7(), argc, argv); }
