// Lab 7 trusted driver: only what is about this lab. Seeded matrices A and B, the matmul CPU
// reference (common/reference/), the parts of zerocopy.cu (lab7.hpp) with their matrices
// where each part's memory kind puts them, and two yardsticks timed in the same run: the
// trusted OpenMP i-k-j loop for every multiply, a pinned cudaMemcpy for the streaming part.
// Options, checking, timing, tables and result files are the shared driver core's.
//
// Every run of a part multiplies matrices of its own (load_inputs): A and B drawn afresh from the
// run's seed (the case's --seed for the checked run, one drawn for every other run), where the
// part reads them: on the GPU for mapped, pinned
// and managed memory (the GPU writes them through their device addresses, a few hundred
// microseconds at N = 1024), on the host for the CPU parts' host memory (about 2 ms at
// N = 1024). The streaming part's source is drawn the same way. The CPU parts and the OpenMP
// yardstick run on exactly --threads CPUs (host_threads: the core pins them).
#include <omp.h>

#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "device_buffer.hpp"
#include "lab7.hpp"
#include "lab_main.hpp"
#include "openmp_yardstick.hpp"
#include "part_table.hpp"
#include "random_data.hpp"
#include "random_fill.hpp"
#include "reference/matmul_reference.hpp"
#include "reference_hook.hpp"

const std::vector<ZeroCopyPart>& zerocopy_parts() {
    static const std::vector<ZeroCopyPart> parts = {
        {"cpu_ijk", Memory::host, false, matmul_cpu_ijk, nullptr, nullptr},
        {"cpu_ikj", Memory::host, false, matmul_cpu_ikj, nullptr, nullptr},
        {"zc_naive", Memory::mapped, true, nullptr, zc_naive, nullptr},
        {"zc_tiled", Memory::mapped, true, nullptr, zc_tiled, nullptr},
        {"copy_naive", Memory::device_copies, true, nullptr, nullptr, copy_naive},
        {"copy_tiled", Memory::device_copies, true, nullptr, nullptr, copy_tiled},
        {"managed_tiled", Memory::managed, true, nullptr, managed_tiled, nullptr},
        {"stream", Memory::stream, false, nullptr, nullptr, nullptr},
    };
    return parts;
}

std::vector<std::string> zerocopy_host_part_names() {
    std::vector<std::string> names;
    for (const ZeroCopyPart& p : zerocopy_parts())
        if (p.memory == Memory::host) names.push_back(p.name);
    return names;
}

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
          sample_seed_(options.sample_seed), parts_(options.parts) {}

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
        A_.assign(count, 0.0f);  // load_inputs draws every run's entries
        B_.assign(count, 0.0f);
        C_host_.assign(count, 0.0f);
        C_openmp_.assign(count, 0.0f);
        if (!gpu) return;  // the CPU parts alone (no GPU here)

        require_device_memory((3 * count + stream_count_) * sizeof(float));
        if (uses(Memory::device_copies)) {
            hA_ = pinned(count), hB_ = pinned(count), hC_ = pinned(count);
            dA_ = DeviceBuffer<float>(count), dB_ = DeviceBuffer<float>(count), dC_ = DeviceBuffer<float>(count);
        }
        if (uses(Memory::mapped)) mapped_problem_ = allocate_mapped_matrices(count);
        if (uses(Memory::managed)) allocate_managed_matrices(count);
        // The streaming part's buffers: the yardstick (pinned copy) needs its own in every run.
        stream_pinned_ = pinned(stream_count_);
        for (size_t i = 0; i < stream_count_; ++i) stream_pinned_.get()[i] = float(i % 1000003) * 0.5f - 7.0f;
        stream_dst_ = DeviceBuffer<float>(stream_count_);
        if (uses(Memory::stream)) {
            float* device = nullptr;
            stream_src_ = student_mapped(stream_count_, &device, "the streaming buffer", stream_error_);
            // load_inputs draws every run's source through it (not through memory that failed the check)
            if (stream_src_.get() && stream_error_.empty()) stream_src_device_ = device;
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
    // The CPU parts and the OpenMP yardstick run on exactly this many CPUs (the core pins them).
    int host_threads() const override { return threads_; }

    std::vector<std::string> notes() const override {
        return {"input  A and B drawn afresh for every run from its own seed, where the part reads them: on the GPU "
                "into mapped, pinned and managed memory, on the host for the CPU parts; untimed"};
    }

    PartRun part(const std::string& name) override {
        const ZeroCopyPart& p = part_named(zerocopy_parts(), name);
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

    // The inputs of the run of `seed`, entries uniform in [-1, 1) (A first, then B), drawn where
    // this part reads them; the other kinds of memory hold none of this run's matrices. Untimed,
    // before the run.
    void load_inputs(const std::string& part, uint64_t seed, cudaStream_t stream) override {
        if (part != loaded_part_) clear_other_kinds(part, stream);
        loaded_part_ = part;
        if (part == "pinned_h2d") return;  // it copies a fixed pinned buffer: its time is all it gives
        const size_t count = size_t(n_) * n_;
        // The copy parts' device matrices are garbage in every run: copying A and B in is their
        // work, timed, and no other part may find this run's matrices on the device.
        poison_on_stream(dA_.get(), dA_.count(), stream);
        poison_on_stream(dB_.get(), dB_.count(), stream);
        switch (memory_of(part)) {
            case Memory::host:  // the host draws them: the GPU must not touch the CPU parts' data
                fill_uniform_host(A_.data(), count, seed, 0, -1, 1);
                fill_uniform_host(B_.data(), count, seed, count, -1, 1);
                break;
            case Memory::mapped:  // the GPU writes them through the mapping
                if (mapped_dA_) fill_matrices(mapped_dA_, mapped_dB_, seed, stream);
                break;
            case Memory::device_copies:  // pinned host memory, written by the GPU through its address
                if (hA_.get()) fill_matrices(hA_.get(), hB_.get(), seed, stream);
                break;
            case Memory::managed:
                // Drawn where the pages are (the device, after the part's last run), then moved to
                // the host: every run starts with them there, as every other part's inputs are, and
                // moving them is the managed part's work, timed.
                if (managed_A_) {
                    const size_t bytes = count * sizeof(float);
                    prefetch(managed_A_, bytes, device_location(), stream);
                    prefetch(managed_B_, bytes, device_location(), stream);
                    fill_matrices(managed_A_, managed_B_, seed, stream);
                    cudaMemLocation host{};
                    host.type = cudaMemLocationTypeHost;
                    prefetch(managed_A_, bytes, host, stream);
                    prefetch(managed_B_, bytes, host, stream);
                }
                break;
            case Memory::stream:  // the source the streaming part reads, in mapped memory
                if (stream_src_device_) fill_uniform(stream_src_device_, stream_count_, seed, 0, -1, 1, stream);
                break;
        }
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
    OutputShape output_shape(const std::string& output) const override {
        return {DType::f32, output == "stream" ? stream_count_ : size_t(n_) * n_};
    }

    bool full_reference_is_cheap() const override { return double(n_) * n_ * n_ <= full_check_macs; }
    Reference reference(const std::string& output, uint64_t seed, bool full) override {
        if (output == "stream") return stream_reference(seed, full);
        // Every C of the same inputs is the same product: computed once per seed and kind of
        // check, whichever output asks first (every part's checked run has the case's seed).
        auto key = std::make_pair(seed, full);
        auto it = matmul_references_.find(key);
        if (it != matmul_references_.end()) return it->second;
        const size_t count = size_t(n_) * n_;
        std::vector<float> A(count), B(count);  // the run's entries, as load_inputs draws them
        fill_uniform_host(A.data(), count, seed, 0, -1, 1);
        fill_uniform_host(B.data(), count, seed, count, -1, 1);
        Reference r;
        MatmulReference m = ReferenceHook<MatmulReferenceFunction>::get()(A.data(), B.data(), n_, n_, n_, full,
                                                                            sample_seed_, r.positions);
        r.how = full ? "every element"
                     : std::to_string(r.positions.size()) + " elements (first and last rows and columns, and a random sample)";
        r.value = std::move(m.value);
        r.bound = std::move(m.bound);
        r.bound_name = "gamma_n (|A||B|)_ij";
        return matmul_references_.emplace(key, std::move(r)).first->second;
    }
    std::string element_name(const std::string& output, size_t index) const override {
        if (output == "stream") return "dst[" + std::to_string(index) + "]";
        return "C[" + std::to_string(index / n_) + "][" + std::to_string(index % n_) + "]";
    }

private:
    // The kind of memory a part or yardstick reads its inputs from (pinned_h2d: its own, fixed).
    static Memory memory_of(const std::string& name) {
        if (name == "openmp") return Memory::host;
        if (name == "pinned_h2d") return Memory::stream;
        return part_named(zerocopy_parts(), name).memory;
    }

    // A then B of the run, on the GPU, through addresses a kernel can write (device, mapped,
    // pinned or managed).
    void fill_matrices(float* A, float* B, uint64_t seed, cudaStream_t stream) {
        const size_t count = size_t(n_) * n_;
        fill_uniform(A, count, seed, 0, -1, 1, stream);
        fill_uniform(B, count, seed, count, -1, 1, stream);
    }

    static cudaMemLocation device_location() {
        cudaMemLocation device{};
        device.type = cudaMemLocationTypeDevice;
        CUDA_CHECK(cudaGetDevice(&device.id));
        return device;
    }
    static void prefetch(float* p, size_t bytes, cudaMemLocation where, cudaStream_t stream) {
        CUDA_CHECK(cudaMemPrefetchAsync(p, bytes, where, 0, stream));
    }

    // When a new part (or yardstick) starts, every matrix of the other kinds of memory is made
    // garbage: an earlier part's last run left there the inputs, or the product, of a run this
    // part is about to make (every part's runs have the same indices), which would spare this
    // part its work or its transfers. Its own output is poisoned before each run (poison()).
    void clear_other_kinds(const std::string& part, cudaStream_t stream) {
        const Memory kind = memory_of(part);
        const size_t count = size_t(n_) * n_;
        const float nan = std::numeric_limits<float>::quiet_NaN();
        if (kind != Memory::host) {
            for (std::vector<float>* m : {&A_, &B_}) std::fill(m->begin(), m->end(), nan);
        }
        if (part != "openmp") std::fill(C_openmp_.begin(), C_openmp_.end(), nan);
        if (kind != Memory::host || part == "openmp") std::fill(C_host_.begin(), C_host_.end(), nan);
        if (kind != Memory::mapped)
            for (float* m : {mapped_dA_, mapped_dB_, mapped_problem_.C}) poison_on_stream(m, count, stream);
        if (kind != Memory::device_copies)
            for (float* m : {hA_.get(), hB_.get(), hC_.get(), dC_.get()}) poison_on_stream(m, count, stream);
        if (kind != Memory::managed)
            for (float* m : {managed_A_, managed_B_, managed_C_}) poison_on_stream(m, count, stream);
        if (kind != Memory::stream) {
            poison_on_stream(stream_src_device_, stream_count_, stream);
            poison_on_stream(stream_dst_.get(), stream_dst_.count(), stream);
        }
    }

    bool uses(Memory memory) const {
        for (const std::string& name : parts_)
            if (part_named(zerocopy_parts(), name).memory == memory) return true;
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

    GpuMatmul allocate_mapped_matrices(size_t count) {
        float *dA = nullptr, *dB = nullptr, *dC = nullptr;
        mapped_A_ = student_mapped(count, &dA, "A", mapped_error_);
        mapped_B_ = student_mapped(count, &dB, "B", mapped_error_);
        mapped_C_ = student_mapped(count, &dC, "C", mapped_error_);
        if (!mapped_A_.get() || !mapped_B_.get() || !mapped_C_.get() || !mapped_error_.empty()) {
            mapped_A_ = {};  // any one missing: the parts are not implemented
            return {};
        }
        mapped_dA_ = dA, mapped_dB_ = dB;  // load_inputs draws every run's A and B through them
        return GpuMatmul{dA, dB, dC, n_};
    }

    void allocate_managed_matrices(size_t count) {
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
        managed_A_ = p[0], managed_B_ = p[1], managed_C_ = p[2];
    }

    // A copy is exact: the reference is the source drawn from `seed`, bound 0. Each element is
    // drawn on its own (splitmix_at), so a sample costs only its own elements.
    Reference stream_reference(uint64_t seed, bool full) {
        Reference r;
        if (full) {
            std::vector<float> src(stream_count_);
            fill_uniform_host(src.data(), stream_count_, seed, 0, -1, 1);
            r.value.assign(src.begin(), src.end());
            r.how = "every element";
        } else {
            SeededRandom random(sample_seed_);
            for (size_t i = 0; i < stream_count_; i += 1 + size_t(random.integer(0, 4095))) r.positions.push_back(i);
            if (r.positions.back() != stream_count_ - 1) r.positions.push_back(stream_count_ - 1);
            for (size_t i : r.positions) r.value.push_back(uniform_from_bits(splitmix_at(seed, i), -1, 1));
            r.how = std::to_string(r.positions.size()) + " elements (a random sample and the last)";
        }
        r.bound.assign(r.value.size(), 0.0);
        r.bound_name = "0 (exact: a copy)";
        return r;
    }

    int n_, tile_, threads_;
    size_t stream_count_;
    uint64_t sample_seed_;
    std::vector<std::string> parts_;
    std::string loaded_part_;  // the part whose inputs load_inputs put in place last
    cudaStream_t stream_ = nullptr;
    std::vector<float> A_, B_, C_host_, C_openmp_;
    HostMemory hA_, hB_, hC_;
    DeviceBuffer<float> dA_, dB_, dC_;
    HostMemory mapped_A_, mapped_B_, mapped_C_;
    GpuMatmul mapped_problem_{};
    float *mapped_dA_ = nullptr, *mapped_dB_ = nullptr;  // device addresses of mapped A and B
    std::string mapped_error_, managed_error_, stream_error_;
    std::vector<std::unique_ptr<void, cudaError_t (*)(void*)>> managed_memory_;
    float *managed_A_ = nullptr, *managed_B_ = nullptr, *managed_C_ = nullptr;
    HostMemory stream_pinned_, stream_src_;
    float* stream_src_device_ = nullptr;
    DeviceBuffer<float> stream_dst_;
    std::map<std::pair<uint64_t, bool>, Reference> matmul_references_;  // by seed and full
};

}  // namespace

LabInfo lab7() {
    LabInfo lab;
    lab.name = LAB_NAME;
    lab.summary = "Runs the parts of zerocopy.cu on one case, checks them against a CPU reference and times them beside "
                  "a trusted OpenMP i-k-j run and a pinned cudaMemcpy.";
    lab.parts = part_names(zerocopy_parts());
    lab.host_parts = zerocopy_host_part_names();
    lab.host_parts.push_back("openmp");
    lab.metrics = {{"GFLOP/s", "gflops", 1e9, Metric::Bound::fp32_flops}, {"GB/s", "gbps", 1e9, Metric::Bound::memory_bytes}};
    lab.yardsticks = {{"openmp", "OpenMP"}, {"pinned_h2d", "pinned H2D"}};
    lab.config_columns = {"tile"};
    lab.declare_options = [](ArgParser& args) {
        args.option("n", "N", "1024", "side of the square matrices A, B and C");
        args.option("tile", "T", "32", "tile side of the GPU kernels (8, 16 or 32): blocks of T x T threads");
        args.option("threads", "P", "all", "OpenMP threads of the CPU parts and the OpenMP yardstick (all: every core)");
        args.option("stream", "COUNT", "16777216",
                    "floats the streaming part reads from mapped memory (4 bytes each: 64 MiB by default)");
    };
    lab.make_case = make_case_of<ZeroCopyCase>;
    return lab;
}
