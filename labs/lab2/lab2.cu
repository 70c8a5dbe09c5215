// Lab 2 trusted driver: only what is about pitched matrices. Seeded A (M x K), B (K x N) and
// A transposed, drawn afresh on the GPU for every run of a part (load_inputs); the device
// matrices allocated by the student's allocate_device_matrix (plain and pitched, each pitched
// one checked against the pitch cudaMallocPitch gives) and filled by the driver, so a kernel
// part never depends on the student's copies; the copies part times the student's host side
// on its own. References: the shared matmul reference (common/reference/) for C, exact ones
// for the transpose and the copies. Yardsticks: cuBLAS for the multiplies, the faster of a
// device-to-device cudaMemcpy2D and a copy kernel for the transpose (one pass over the
// matrix), flat pinned cudaMemcpy for the copies.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "copy_yardstick.cuh"
#include "cublas_sgemm.hpp"
#include "device_buffer.hpp"
#include "lab2.hpp"
#include "lab_main.hpp"
#include "pitched.h"
#include "random_data.hpp"
#include "random_fill.hpp"
#include "reference/matmul_reference.hpp"
#include "reference_hook.hpp"
#include "sample_positions.hpp"
#include "table.hpp"

namespace {

// Up to this many multiply-adds (1024^3) --check auto compares every element of C.
constexpr double full_check_macs = double(1ull << 30);
constexpr int max_side = 1 << 16;

// Page-locked host floats, so that the copies part measures the bus, not the pager.
class PinnedFloats {
public:
    PinnedFloats() = default;
    explicit PinnedFloats(size_t count) : count_(count) {
        if (count) CUDA_CHECK(cudaMallocHost(&data_, count * sizeof(float)));
    }
    ~PinnedFloats() {
        if (data_) cudaFreeHost(data_);
    }
    PinnedFloats(PinnedFloats&& o) noexcept { *this = std::move(o); }
    PinnedFloats& operator=(PinnedFloats&& o) noexcept {
        std::swap(data_, o.data_), std::swap(count_, o.count_);
        return *this;
    }
    float* get() const { return data_; }
    size_t count() const { return count_; }

private:
    float* data_ = nullptr;
    size_t count_ = 0;
};

// A device matrix the student's allocate_device_matrix returned, checked before any kernel
// sees it. `problem` says what is wrong with it ("" when nothing is).
struct StudentMatrix {
    cudaPitchedPtr m{};
    std::string problem;
    bool implemented() const { return m.ptr != nullptr; }
};

std::string dims(int rows, int cols) { return std::to_string(rows) + " x " + std::to_string(cols); }

// The pitch cudaMallocPitch chooses for rows of `row_bytes` on this GPU: asked once for the
// same width and height, then freed.
size_t pitch_cudaMallocPitch_gives(size_t row_bytes, size_t rows) {
    void* probe = nullptr;
    size_t pitch = 0;
    CUDA_CHECK(cudaMallocPitch(&probe, &pitch, row_bytes, rows));
    CUDA_CHECK(cudaFree(probe));
    return pitch;
}

StudentMatrix allocate_checked(const char* name, int rows, int cols, bool pitched) {
    StudentMatrix s;
    s.m = allocate_device_matrix(rows, cols, pitched);
    if (!s.m.ptr) return s;
    const size_t row_bytes = size_t(cols) * sizeof(float);
    std::string what = std::string(pitched ? "pitched " : "plain ") + name + " (" + dims(rows, cols) + ")";
    cudaPointerAttributes attributes{};
    if (cudaPointerGetAttributes(&attributes, s.m.ptr) != cudaSuccess || attributes.type != cudaMemoryTypeDevice) {
        cudaGetLastError();  // a host pointer is not an error of the context: clear it
        s.problem = "allocate_device_matrix returned a " + what + " that is not device memory";
    } else if (s.m.xsize != size_t(cols) || s.m.ysize != size_t(rows)) {
        s.problem = "allocate_device_matrix returned a " + what + " with xsize " + std::to_string(s.m.xsize) +
                    " and ysize " + std::to_string(s.m.ysize) + ": xsize is the columns, ysize the rows";
    } else if (s.m.pitch < row_bytes || s.m.pitch % sizeof(float) != 0) {
        s.problem = "allocate_device_matrix returned a " + what + " with a pitch of " + std::to_string(s.m.pitch) +
                    " bytes: a row of " + std::to_string(cols) + " floats needs at least " + std::to_string(row_bytes);
    } else if (!pitched && s.m.pitch != row_bytes) {
        s.problem = "allocate_device_matrix(pitched = false) returned a pitch of " + std::to_string(s.m.pitch) +
                    " bytes: a plain allocation is dense, pitch = " + std::to_string(row_bytes);
    } else if (pitched) {
        // The lesson is the pitch the runtime chooses: a pitched matrix that comes back dense
        // (pitch = one row) would let kernels that ignore the pitch pass.
        const size_t expected = pitch_cudaMallocPitch_gives(row_bytes, size_t(rows));
        if (s.m.pitch != expected)
            s.problem = "allocate_device_matrix(pitched = true) returned a " + what + " with a pitch of " +
                        std::to_string(s.m.pitch) + " bytes, but cudaMallocPitch gives " + std::to_string(expected) +
                        " bytes for rows of " + std::to_string(row_bytes) + ": a pitched matrix comes from cudaMallocPitch";
    }
    return s;
}

// At (K x M) of the A (M x K) that fill_uniform draws: At[k][i] = A[i][k], the draw at position
// offset + i K + k, written row by row of At (coalesced).
__global__ void fill_transposed_kernel(float* at, size_t pitch_bytes, int M, int K, uint64_t seed, uint64_t offset) {
    const size_t count = size_t(K) * M;
    for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < count; e += size_t(gridDim.x) * blockDim.x) {
        const size_t k = e / M, i = e % M;
        float* row = reinterpret_cast<float*>(reinterpret_cast<char*>(at) + k * pitch_bytes);
        row[i] = uniform_from_bits(splitmix_at(seed, offset + i * K + k), -1, 1);
    }
}

void fill_transposed(const cudaPitchedPtr& at, int M, int K, uint64_t seed, uint64_t offset, cudaStream_t stream) {
    constexpr unsigned threads = 256;
    const size_t blocks = std::min<size_t>((size_t(K) * M + threads - 1) / threads, 65535);
    fill_transposed_kernel<<<unsigned(std::max<size_t>(blocks, 1)), threads, 0, stream>>>(static_cast<float*>(at.ptr),
                                                                                         at.pitch, M, K, seed, offset);
    CUDA_CHECK_LAUNCH();
}

std::vector<float> download(const cudaPitchedPtr& d) {
    std::vector<float> host(d.xsize * d.ysize);
    CUDA_CHECK(cudaMemcpy2D(host.data(), d.xsize * sizeof(float), d.ptr, d.pitch, d.xsize * sizeof(float), d.ysize,
                            cudaMemcpyDeviceToHost));
    return host;
}

OutputArray as_output(const std::vector<float>& values) {
    return OutputArray{DType::f32, std::vector<double>(values.begin(), values.end()), {}};
}

class PitchedCase : public LabCase {
public:
    PitchedCase(const ArgParser& args, const DriverOptions& options)
        : M_(int(args.integer("m", 1, max_side))), N_(int(args.integer("n", 1, max_side))),
          K_(int(args.integer("k", 1, max_side))), bw_(int(args.integer("block-width", 1, 1024))),
          bh_(int(args.integer("block-height", 1, 1024))), sample_seed_(options.sample_seed),
          yardsticks_timed_(!options.no_yardstick) {
        for (auto [name, count] : {std::pair<const char*, long long>{"A (M x K)", 1ll * M_ * K_},
                                   {"B (K x N)", 1ll * K_ * N_}, {"C (M x N)", 1ll * M_ * N_}})
            if (count > (1ll << 31) - 1)
                fail(exit_code::bad_usage, std::string(name) + " would have " + std::to_string(count) +
                                               " elements; the kernels index with int, so at most 2^31 - 1");
    }

    ~PitchedCase() override {
        for (StudentMatrix* s : {&plain_.A, &plain_.B, &plain_.C, &pitched_.A, &pitched_.B, &pitched_.C, &At_, &T_, &X_})
            if (s->implemented()) free_device_matrix(s->m);
    }

    void setup(const GpuInfo*, cudaStream_t stream) override {
        stream_ = stream;
        size_t a = size_t(M_) * K_, b = size_t(K_) * N_, c = size_t(M_) * N_;
        // Student plain and pitched A, B, C, At, T, X; trusted cuBLAS A, B, C and the copy pair;
        // the largest of the pitch probes (allocate_checked) for a moment.
        require_device_memory((3 * (a + b + c) + 4 * a + 2 * a + std::max({a, b, c})) * sizeof(float) +
                              7 * size_t(M_ + K_ + N_) * 512);
        // The inputs are drawn by load_inputs before every run; nothing holds data until then.
        for (bool pitched : {false, true}) {
            Operands& o = pitched ? pitched_ : plain_;
            o.A = allocate_checked("A", M_, K_, pitched);
            o.B = allocate_checked("B", K_, N_, pitched);
            o.C = allocate_checked("C", M_, N_, pitched);
        }
        At_ = allocate_checked("At", K_, M_, true);
        T_ = allocate_checked("T", K_, M_, true);
        X_ = allocate_checked("X", M_, K_, true);
        copy_source_ = PinnedFloats(a);
        copy_result_ = PinnedFloats(a);
        dA_ = DeviceBuffer<float>(a);
        dB_ = DeviceBuffer<float>(b);
        dC_ = DeviceBuffer<float>(c);
        copy_from_ = DeviceBuffer<float>::pitched(K_, M_);
        copy_to_ = DeviceBuffer<float>::pitched(K_, M_);
    }

    // A run's A and B from its seed (entries uniform in [-1, 1): A first, then B, as SeededRandom
    // draws them), drawn on the GPU into the part's own operands. Then nothing else the process holds
    // may be the part's answer, or a copy away from it: A transposed (At, naive_at's input) is
    // the transpose's answer, and A anywhere on the GPU is the copies part's.
    void load_inputs(const std::string& part, uint64_t seed, cudaStream_t stream) override {
        const uint64_t b_offset = uint64_t(M_) * K_;
        if (part != "naive_at") fill(At_, stream);
        if (part == "copies" || part == "memcpy") {
            // A on the host, pinned, drawn through cuBLAS's A and cleared there again: the copies
            // part must move it over the bus itself.
            fill_uniform(dA_.get(), dA_.count(), seed, 0, -1, 1, stream);
            CUDA_CHECK(cudaMemcpyAsync(copy_source_.get(), dA_.get(), dA_.count() * sizeof(float), cudaMemcpyDeviceToHost,
                                       stream));
            for (DeviceBuffer<float>* d : {&dA_, &copy_from_, &copy_to_}) d->fill_bytes(0xFF, stream);
            for (const StudentMatrix* s : {&plain_.A, &pitched_.A}) fill(*s, stream);
        } else if (part == "cublas") {
            fill_uniform(dA_.get(), dA_.count(), seed, 0, -1, 1, stream);
            fill_uniform(dB_.get(), dB_.count(), seed, b_offset, -1, 1, stream);
        } else if (part == "copy2d" || part == "copykernel") {
            fill_uniform_pitched(copy_from_.get(), copy_from_.pitch_bytes(), size_t(K_), size_t(M_), seed, 0, -1, 1, stream);
        } else if (part == "naive_at") {
            if (usable(At_)) fill_transposed(At_.m, M_, K_, seed, 0, stream);
            fill(pitched_.A, stream);  // m.A is not naive_at's to read: garbage, so a part that reads it fails
            draw(pitched_.B, seed, b_offset, stream);
        } else {  // the multiplies on A as is, and the transpose (which reads pitched A only)
            Operands& o = part.rfind("plain_", 0) == 0 ? plain_ : pitched_;
            draw(o.A, seed, 0, stream);
            if (part != "transpose") draw(o.B, seed, b_offset, stream);
        }
    }

    std::string describe() const override {
        return "C(" + dims(M_, N_) + ") = A(" + dims(M_, K_) + ") * B(" + dims(K_, N_) + "), T = A^T, block " +
               std::to_string(bw_) + " x " + std::to_string(bh_);
    }
    std::vector<std::pair<std::string, std::string>> settings() const override {
        return {{"m", std::to_string(M_)}, {"n", std::to_string(N_)}, {"k", std::to_string(K_)},
                {"pitch_a", std::to_string(pitched_.A.m.pitch)}};
    }
    double work() const override { return 2.0 * M_ * N_ * K_; }
    // A transpose or a copy reads and writes every element of A once.
    double pass_bytes() const { return 2.0 * M_ * K_ * sizeof(float); }

    std::vector<std::string> notes() const override {
        std::vector<std::string> lines;
        for (const auto& [name, s] : {std::pair<const char*, const StudentMatrix*>{"A", &pitched_.A}, {"B", &pitched_.B},
                                      {"C", &pitched_.C}, {"At", &At_}}) {
            if (!s->implemented() || !s->problem.empty()) continue;
            size_t row = s->m.xsize * sizeof(float);
            lines.push_back("pitch  " + std::string(name) + " (" + dims(int(s->m.ysize), int(s->m.xsize)) +
                            " floats): cudaMallocPitch chose " + std::to_string(s->m.pitch) + " bytes a row for " +
                            std::to_string(row) + ", " + format_fixed(100.0 * (s->m.pitch - row) / row, 1) +
                            "% padding");
        }
        if (!pitched_.A.implemented())
            lines.push_back("pitch  allocate_device_matrix is not implemented yet (TODO 1): no part has device memory");
        for (const StudentMatrix* s : {&plain_.A, &plain_.B, &plain_.C, &pitched_.A, &pitched_.B, &pitched_.C, &At_, &T_, &X_})
            if (!s->problem.empty()) lines.push_back("memory " + s->problem);
        return lines;
    }

    PartRun part(const std::string& name) override {
        PartRun run;
        const std::string bw = std::to_string(bw_), bh = std::to_string(bh_);
        if (name == "copies") {
            run.output = "A";
            run.metric = "gbps";
            run.work = pass_bytes();
            run.yardstick = "memcpy";
            run.config = {"-", "-"};
            run.run = [this](Launcher& launch) {
                if (!ready({&X_})) return;
                // The host matrices are wrapped by the student's own wrap_host_matrix.
                copy_to_device(X_.m, wrap_host_matrix(copy_source_.get(), M_, K_), launch.stream());
                copy_to_host(wrap_host_matrix(copy_result_.get(), M_, K_), X_.m, launch.stream());
                launch.note_host_work();
            };
        } else if (name == "transpose") {
            run.output = "T";
            run.metric = "gbps";
            run.work = pass_bytes();
            // The faster of the two copies of this run: on an H100 or H200 the copy kernel moves
            // about twice what a device-to-device cudaMemcpy2D does (the handout, section 11 (Reference results on an H200)).
            run.yardstick = "copy2d copykernel";
            if (yardsticks_timed_) run.note = [](const PartResult&) { return "(% of the faster copy)"; };
            run.config = {"32", "8"};
            run.run = [this](Launcher& launch) {
                if (ready({&T_, &pitched_.A})) transpose(T_.m, pitched_.A.m, launch);
            };
        } else {
            const bool plain = name.rfind("plain_", 0) == 0;
            Operands& o = plain ? plain_ : pitched_;
            const bool tiled = name.size() > 6 && name.compare(name.size() - 6, 6, "_tiled") == 0;
            run.output = "C";
            run.config = {tiled ? "32" : bw, bh};
            if (name == "naive_at")
                run.run = [this, &o](Launcher& launch) {
                    if (!ready({&o.B, &o.C, &At_})) return;
                    C_written_ = &o.C;
                    matmul_naive_at(operands(o), At_.m, bw_, bh_, launch);
                };
            else if (tiled)
                run.run = [this, &o](Launcher& launch) {
                    if (!ready({&o.A, &o.B, &o.C})) return;
                    C_written_ = &o.C;
                    matmul_tiled(operands(o), bh_, launch);
                };
            else
                run.run = [this, &o](Launcher& launch) {
                    if (!ready({&o.A, &o.B, &o.C})) return;
                    C_written_ = &o.C;
                    matmul_naive(operands(o), bw_, bh_, launch);
                };
        }
        return run;
    }

    PartRun yardstick(const std::string& name) override {
        PartRun run;
        run.output = "copy";
        run.checked = false;
        run.metric = "gbps";
        run.work = pass_bytes();
        if (name == "copy2d") {
            run.run = [this](Launcher&) { copy_to_.copy_from(copy_from_, stream_); };
            return run;
        }
        if (name == "copykernel") {
            // The shared copy kernel (common/copy_yardstick.cuh) over the whole pitched allocation,
            // padding included: what one pass over the matrix costs when a kernel does it.
            run.run = [this](Launcher&) {
                yardstick_copy_floats(copy_to_.get(), copy_from_.get(), copy_from_.bytes_allocated() / sizeof(float),
                                      stream_);
            };
            return run;
        }
        // The copies part's work with flat copies of a dense matrix (into cuBLAS's A, which holds
        // the same values: copy_source_ is A).
        if (name == "memcpy") {
            run.run = [this](Launcher&) {
                const size_t bytes = copy_source_.count() * sizeof(float);
                CUDA_CHECK(cudaMemcpyAsync(dA_.get(), copy_source_.get(), bytes, cudaMemcpyHostToDevice, stream_));
                CUDA_CHECK(cudaMemcpyAsync(copy_result_.get(), dA_.get(), bytes, cudaMemcpyDeviceToHost, stream_));
            };
            return run;
        }
        run.checked = true;
        run.metric = "";
        run.work = 0;
        cublas_ = std::make_unique<CublasHandle>(stream_);
        run.output = "C";
        run.run = [this](Launcher&) {
            C_written_ = nullptr;
            cublas_->sgemm_row_major(dA_.get(), dB_.get(), dC_.get(), M_, N_, K_);
        };
        return run;
    }

    void poison(const std::string& output, cudaStream_t stream) override {
        if (output == "C") {
            dC_.fill_bytes(0xFF, stream);
            for (StudentMatrix* s : {&plain_.C, &pitched_.C}) fill(*s, stream);
        } else if (output == "T") {
            fill(T_, stream);
        } else if (output == "A") {
            fill(X_, stream);
            // The host result is written by the student's copy_to_host: wait for the last one.
            CUDA_CHECK(cudaStreamSynchronize(stream));
            std::memset(copy_result_.get(), 0xFF, copy_result_.count() * sizeof(float));
        } else if (output == "copy") {
            copy_to_.fill_bytes(0xFF, stream);
        }
    }

    OutputArray download(const std::string& output) override {
        if (output == "T") return as_output(::download(T_.m));
        if (output == "A") {
            // What the device holds, read by the driver, then what came back through copy_to_host.
            std::vector<float> both = ::download(X_.m);
            both.insert(both.end(), copy_result_.get(), copy_result_.get() + copy_result_.count());
            return as_output(both);
        }
        return as_output(C_written_ ? ::download(C_written_->m) : dC_.download());
    }
    OutputShape output_shape(const std::string& output) const override {
        if (output == "T") return {DType::f32, size_t(K_) * M_};
        if (output == "A") return {DType::f32, 2 * size_t(M_) * K_};  // on the device, then back on the host
        return {DType::f32, size_t(M_) * N_};
    }

    bool full_reference_is_cheap() const override { return double(M_) * N_ * K_ <= full_check_macs; }
    Reference reference(const std::string& output, uint64_t seed, bool full) override {
        // The run's A (and B), drawn on the host as the GPU drew them; A transposed only here,
        // for a moment, never kept while a part runs.
        SeededRandom random(seed);
        std::vector<float> A(size_t(M_) * K_);
        for (float& x : A) x = random.uniform(-1, 1);
        Reference r;
        if (output == "T" || output == "A") {  // exact: a copy or a transpose moves floats unchanged
            if (!full) {
                // Where the product is sampled, so are these: the grader keeps at most 65536
                // elements of a checked timed run's reference, and lab 2's 50 million took 0.6 s a
                // run to write and read back. T is K x M; A is two copies of A, 2M x K.
                const bool t = output == "T";
                const int rows = t ? K_ : 2 * M_, cols = t ? M_ : K_;
                r.positions = sample_positions(rows, cols, 4096, sample_seed_);
                for (size_t p : r.positions) {
                    const size_t row = p / cols, col = p % cols;
                    r.value.push_back(t ? A[col * K_ + row] : A[(row % M_) * K_ + col]);
                }
                r.bound.assign(r.value.size(), 0.0);
                r.how = std::to_string(r.positions.size()) + " elements (first and last rows and columns, and a random sample)";
                r.bound_name = "0 (exact)";
                return r;
            }
            if (output == "T") {
                r.value.resize(A.size());
                for (int i = 0; i < M_; ++i)
                    for (int k = 0; k < K_; ++k) r.value[size_t(k) * M_ + i] = A[size_t(i) * K_ + k];
            } else {
                r.value.assign(A.begin(), A.end());
                r.value.insert(r.value.end(), A.begin(), A.end());
            }
            r.bound.assign(r.value.size(), 0.0);
            r.how = "every element";
            r.bound_name = "0 (exact)";
            return r;
        }
        std::vector<float> B(size_t(K_) * N_);
        for (float& x : B) x = random.uniform(-1, 1);
        MatmulReference m = ReferenceHook<MatmulReferenceFunction>::get()(A.data(), B.data(), M_, N_, K_, full,
                                                                            sample_seed_, r.positions);
        r.how = full ? "every element"
                     : std::to_string(r.positions.size()) + " elements (first and last rows and columns, and a random sample)";
        r.value = std::move(m.value);
        r.bound = std::move(m.bound);
        r.bound_name = "gamma_K (|A||B|)_ij";
        return r;
    }
    std::string element_name(const std::string& output, size_t index) const override {
        if (output == "A") {
            size_t n = size_t(M_) * K_, i = index % n;
            std::string where = index < n ? "on the GPU after copy_to_device, " : "on the host after copy_to_host, ";
            return where + "A[" + std::to_string(i / K_) + "][" + std::to_string(i % K_) + "]";
        }
        int cols = output == "T" ? M_ : N_;
        return output + "[" + std::to_string(index / cols) + "][" + std::to_string(index % cols) + "]";
    }

private:
    struct Operands {
        StudentMatrix A, B, C;
    };
    static MatmulOperands operands(const Operands& o) { return MatmulOperands{o.A.m, o.B.m, o.C.m}; }

    // False (the part launches nothing: "not implemented") while allocation is a TODO; a
    // matrix allocation returned wrongly refuses the part with what was wrong.
    static bool ready(std::initializer_list<const StudentMatrix*> matrices) {
        for (const StudentMatrix* s : matrices)
            if (!s->implemented()) return false;
        for (const StudentMatrix* s : matrices)
            if (!s->problem.empty()) throw LaunchRefused(s->problem);
        return true;
    }
    static bool usable(const StudentMatrix& s) { return s.implemented() && s.problem.empty(); }
    // Garbage (all bits set: NaN) in every element of a student matrix the driver may use.
    static void fill(const StudentMatrix& s, cudaStream_t stream) {
        if (usable(s)) CUDA_CHECK(cudaMemset2DAsync(s.m.ptr, s.m.pitch, 0xFF, s.m.xsize * sizeof(float), s.m.ysize, stream));
    }
    // Seeded entries in [-1, 1): element i of the matrix (row-major) is the draw at offset + i.
    static void draw(const StudentMatrix& s, uint64_t seed, uint64_t offset, cudaStream_t stream) {
        if (usable(s))
            fill_uniform_pitched(static_cast<float*>(s.m.ptr), s.m.pitch, s.m.xsize, s.m.ysize, seed, offset, -1, 1, stream);
    }

    int M_, N_, K_, bw_, bh_;
    uint64_t sample_seed_;
    bool yardsticks_timed_;
    cudaStream_t stream_ = nullptr;
    Operands plain_, pitched_;
    StudentMatrix At_, T_, X_;
    const StudentMatrix* C_written_ = nullptr;  // the C the last matmul part wrote (null: cuBLAS's)
    PinnedFloats copy_source_, copy_result_;
    DeviceBuffer<float> dA_, dB_, dC_, copy_from_, copy_to_;
    std::unique_ptr<CublasHandle> cublas_;
};

}  // namespace

LabInfo lab2() {
    LabInfo lab;
    lab.name = LAB_NAME;
    lab.summary = "Runs the parts of pitched.cu on one case, checks them against a CPU reference and times them "
                  "beside cuBLAS (multiplies), the faster of a device-to-device cudaMemcpy2D and a copy kernel "
                  "(transpose) and pinned cudaMemcpy (copies).";
    lab.parts = {"copies", "plain_naive", "pitched_naive", "naive_at", "plain_tiled", "pitched_tiled", "transpose"};
    lab.metrics = {{"GFLOP/s", "gflops", 1e9, Metric::Bound::fp32_flops}, {"GB/s", "gbps", 1e9, Metric::Bound::memory_bytes}};
    // cuBLAS for the multiplies; for the transpose the faster of a device-to-device
    // cudaMemcpy2D and a plain copy kernel (on an H100 or H200 cudaMemcpy2D moves about half of
    // what the kernel does, so the kernel is the one the transpose is held to there); flat
    // pinned cudaMemcpy both ways for the copies part.
    lab.yardsticks = {{"cublas", "cuBLAS"},
                      {"copy2d", "cudaMemcpy2D device to device"},
                      {"copykernel", "a copy kernel"},
                      {"memcpy", "pinned cudaMemcpy there and back"}};
    lab.config_columns = {"bw", "bh"};
    lab.declare_options = [](ArgParser& args) {
        args.option("m", "M", "1000", "rows of A and C");
        args.option("n", "N", "1000", "columns of B and C");
        args.option("k", "K", "1000", "columns of A, rows of B");
        args.option("block-width", "W", "32", "threads per block along x (columns) for the naive parts");
        args.option("block-height", "H", "32", "threads per block along y (rows): naive parts; tiled parts take 16 or 32");
    };
    lab.make_case = make_case_of<PitchedCase>;
    return lab;
}
