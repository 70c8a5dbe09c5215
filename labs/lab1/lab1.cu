// Lab 1 trusted driver: only what is about matrices. Seeded matrices A and B (drawn afresh
// for every run, on the GPU), the CPU
// reference of C = A B with its error bound (common/reference/matmul_reference.hpp), the
// parts of matmul.cu (matmul_parts(), lab1.hpp) and cuBLAS SGEMM as the yardstick. Options,
// checking, timing, tables and result files are the shared driver core's (common/lab_main.hpp).
#include <string>
#include <vector>

#include "cublas_sgemm.hpp"
#include "device_buffer.hpp"
#include "lab1.hpp"
#include "lab_main.hpp"
#include "part_table.hpp"
#include "random_data.hpp"
#include "random_fill.hpp"
#include "reference/matmul_reference.hpp"
#include "reference_hook.hpp"

const std::vector<MatmulPart>& matmul_parts() {
    static const std::vector<MatmulPart> parts = {
        {"naive", true, false, [](const MatmulProblem& p, int tile, int, Launcher& l) { matmul_naive(p, tile, l); }},
        {"tiled", true, false, [](const MatmulProblem& p, int tile, int, Launcher& l) { matmul_tiled(p, tile, l); }},
        {"dynamic", true, true, matmul_dynamic},
        {"coarse2", false, false, [](const MatmulProblem& p, int, int, Launcher& l) { matmul_coarse2(p, l); }},
        {"regblock", false, false, [](const MatmulProblem& p, int, int, Launcher& l) { matmul_regblock(p, l); }},
    };
    return parts;
}

namespace {

// Up to this many multiply-adds (1024^3) --check auto compares every element of C.
constexpr double full_check_macs = double(1ull << 30);

class MatmulCase : public LabCase {
public:
    MatmulCase(const ArgParser& args, const DriverOptions& options)
        : M_(int(args.integer("m", 1, max_side))), N_(int(args.integer("n", 1, max_side))),
          K_(int(args.integer("k", 1, max_side))), tile_(int(args.integer("tile", 1, 1 << 20))),
          depth_(int(args.integer("depth", 1, 1024))), sample_seed_(options.sample_seed) {
        // The kernels index with int.
        for (auto [name, count] : {std::pair<const char*, long long>{"A (M x K)", 1ll * M_ * K_},
                                   {"B (K x N)", 1ll * K_ * N_}, {"C (M x N)", 1ll * M_ * N_}})
            if (count > (1ll << 31) - 1)
                fail(exit_code::bad_usage, std::string(name) + " would have " + std::to_string(count) +
                                               " elements; the kernels index with int, so at most 2^31 - 1");
    }

    void setup(const GpuInfo*, cudaStream_t stream) override {
        stream_ = stream;
        require_device_memory((size_t(M_) * K_ + size_t(K_) * N_ + size_t(M_) * N_) * sizeof(float));
        dA_ = DeviceBuffer<float>(size_t(M_) * K_);
        dB_ = DeviceBuffer<float>(size_t(K_) * N_);
        dC_ = DeviceBuffer<float>(size_t(M_) * N_);
    }

    // Entries uniform in [-1, 1), drawn on the GPU: A first, then B.
    void load_inputs(const std::string&, uint64_t seed, cudaStream_t stream) override {
        fill_uniform(dA_.get(), dA_.count(), seed, 0, -1, 1, stream);
        fill_uniform(dB_.get(), dB_.count(), seed, dA_.count(), -1, 1, stream);
    }

    std::string describe() const override {
        return "C(" + dims(M_, N_) + ") = A(" + dims(M_, K_) + ") * B(" + dims(K_, N_) + "), --tile " +
               std::to_string(tile_) + " --depth " + std::to_string(depth_);
    }
    std::vector<std::pair<std::string, std::string>> settings() const override {
        return {{"m", std::to_string(M_)}, {"n", std::to_string(N_)}, {"k", std::to_string(K_)}};
    }
    double work() const override { return 2.0 * M_ * N_ * K_; }

    PartRun part(const std::string& name) override {
        const MatmulPart& p = part_named(matmul_parts(), name);
        PartRun run;
        run.output = "C";
        run.run = [this, &p](Launcher& launch) { p.run(problem(), tile_, depth_, launch); };
        run.config = {p.uses_tile ? std::to_string(tile_) : "-", p.uses_depth ? std::to_string(depth_) : "-"};
        if (p.uses_depth)
            run.launch_rule = [](const std::vector<LaunchConfig>& launches) -> std::string {
                for (const LaunchConfig& c : launches)
                    if (c.dynamic_shared_bytes > 0) return "";
                return "the dynamic part launched without dynamic shared memory (the 4th launch argument is 0): its "
                       "tiles must live in an extern __shared__ array sized at launch";
            };
        return run;
    }

    PartRun yardstick(const std::string&) override {
        cublas_ = std::make_unique<CublasHandle>(stream_);
        PartRun run;
        run.output = "C";
        run.run = [this](Launcher&) { cublas_->sgemm_row_major(dA_.get(), dB_.get(), dC_.get(), M_, N_, K_); };
        return run;
    }

    void poison(const std::string&, cudaStream_t stream) override { dC_.fill_bytes(0xFF, stream); }
    OutputArray download(const std::string&) override {
        std::vector<float> C = dC_.download();
        return OutputArray{DType::f32, std::vector<double>(C.begin(), C.end()), {}};
    }
    OutputShape output_shape(const std::string&) const override { return {DType::f32, size_t(M_) * N_}; }

    bool full_reference_is_cheap() const override { return double(M_) * N_ * K_ <= full_check_macs; }
    Reference reference(const std::string&, uint64_t seed, bool full) override {
        // The same entries on the host, as SeededRandom draws them.
        SeededRandom random(seed);
        std::vector<float> A(size_t(M_) * K_), B(size_t(K_) * N_);
        for (float& a : A) a = random.uniform(-1, 1);
        for (float& b : B) b = random.uniform(-1, 1);
        Reference r;
        MatmulReference m = ReferenceHook<MatmulReferenceFunction>::get()(A.data(), B.data(), M_, N_, K_, full,
                                                                            sample_seed_, r.positions);
        r.how = full ? "every element"
                     : std::to_string(r.positions.size()) + " elements (first and last rows and columns, and a random sample)";
        r.value = std::move(m.value);
        r.bound = std::move(m.bound);
        r.bound_name = "gamma_K (|A||B|)_ij";
        return r;
    }
    std::string element_name(const std::string&, size_t index) const override {
        return "C[" + std::to_string(index / N_) + "][" + std::to_string(index % N_) + "]";
    }

private:
    static constexpr int max_side = 1 << 16;
    static std::string dims(int rows, int cols) { return std::to_string(rows) + "x" + std::to_string(cols); }
    MatmulProblem problem() { return MatmulProblem{dA_.get(), dB_.get(), dC_.get(), M_, N_, K_}; }

    int M_, N_, K_, tile_, depth_;
    uint64_t sample_seed_;
    cudaStream_t stream_ = nullptr;
    DeviceBuffer<float> dA_, dB_, dC_;
    std::unique_ptr<CublasHandle> cublas_;
};

}  // namespace

LabInfo lab1() {
    LabInfo lab;
    lab.name = LAB_NAME;
    lab.summary = "Runs the parts of matmul.cu on one case, checks them against a CPU reference and times them beside cuBLAS.";
    lab.parts = part_names(matmul_parts());
    lab.metrics = {{"GFLOP/s", "gflops", 1e9, Metric::Bound::fp32_flops}};
    lab.yardsticks = {{"cublas", "cuBLAS"}};
    lab.config_columns = {"tile", "depth"};
    lab.declare_options = [](ArgParser& args) {
        args.option("m", "M", "1000", "rows of A and C");
        args.option("n", "N", "1000", "columns of B and C");
        args.option("k", "K", "1000", "columns of A, rows of B");
        args.option("tile", "T", "32", "tile side for naive, tiled and dynamic: blocks of T x T threads");
        args.option("depth", "D", "8", "tiles of K the dynamic part stages per barrier");
    };
    lab.make_case = make_case_of<MatmulCase>;
    return lab;
}
