// Lab 0 trusted driver: z = a x + y. Seeded x and y, uniform in [-1, 1), drawn afresh on the GPU
// for every run of a part; the CPU reference and its bound through their hook
// (reference.hpp, left out of the grader's builds); and the yardstick, a copy kernel
// (common/copy_yardstick.cuh) moving the part's bytes, timed in the same run.
#include <algorithm>
#include <string>
#include <vector>

#include "axpy.h"
#include "copy_yardstick.cuh"
#include "device_buffer.hpp"
#include "lab0.hpp"
#include "lab_main.hpp"
#include "random_data.hpp"
#include "random_fill.hpp"
#include "reference.hpp"
#include "reference_hook.hpp"
#include "table.hpp"

namespace {

// `count` floats uniform in [-1, 1) from `seed`, the draws at positions offset .. offset + count:
// what fill_uniform puts on the GPU, for the CPU reference.
std::vector<float> host_draws(uint64_t seed, uint64_t offset, size_t count) {
    std::vector<float> values(count);
    fill_uniform_host(values.data(), count, seed, offset, -1, 1);
    return values;
}

class AxpyCase : public LabCase {
public:
    AxpyCase(const ArgParser& args, const DriverOptions& options)
        : n_(int(args.integer("n", 1, max_axpy_n))), block_(int(args.integer("block", 1, 1 << 16))),
          a_(float(args.number("a", -1e6, 1e6))) {}

    void setup(const GpuInfo* gpu, cudaStream_t stream) override {
        stream_ = stream;
        sms_ = gpu ? gpu->prop.multiProcessorCount : 1;
        // x, y, z and the copy's two buffers of 3n / 2 floats each.
        require_device_memory((3 * size_t(n_) + 2 * copy_count()) * sizeof(float));
        x_ = DeviceBuffer<float>(size_t(n_));
        y_ = DeviceBuffer<float>(size_t(n_));
        z_ = DeviceBuffer<float>(size_t(n_));
        copy_from_ = DeviceBuffer<float>(copy_count());
        copy_to_ = DeviceBuffer<float>(copy_count());
        copy_from_.fill_bytes(0, stream);  // what the copy moves does not matter, but it is defined
    }

    std::string describe() const override {
        return "z = a x + y, n = " + std::to_string(n_) + ", a = " + format_fixed(a_, 2) + ", --block " +
               std::to_string(block_) + " (x, y uniform in [-1, 1))";
    }
    std::vector<std::pair<std::string, std::string>> settings() const override {
        return {{"n", std::to_string(n_)}, {"block_size", std::to_string(block_)}};
    }
    // The bytes a part must move at least once: x and y read, z written.
    double work() const override { return 12.0 * n_; }

    std::vector<std::string> notes() const override {
        return {"bytes  " + format_fixed(work() / 1e6, 2) + " MB a run (x and y read, z written); `copy` moves as many"};
    }

    PartRun part(const std::string& name) override {
        void (*axpy)(const Axpy&, Launcher&) = name == "one_per_thread" ? axpy_one_per_thread : axpy_grid_stride;
        PartRun run;
        run.output = "z";
        run.run = [this, axpy](Launcher& launch) {
            axpy(Axpy{a_, x_.get(), y_.get(), z_.get(), n_, block_, sms_}, launch);
        };
        // The launch at the end of the row: how many blocks of how many threads covered n.
        run.note = [](const PartResult& r) {
            std::string text;
            for (const LaunchConfig& c : *r.launches)
                text += "<<<" + std::to_string(c.grid.x) + ", " + std::to_string(c.block.x) + ">>> ";
            return text;
        };
        return run;
    }

    // A copy kernel of 3n / 2 floats each way: the 12n bytes a part moves.
    PartRun yardstick(const std::string&) override {
        PartRun run;
        run.output = "yardstick";
        run.checked = false;
        run.run = [this](Launcher&) { yardstick_copy_floats(copy_to_.get(), copy_from_.get(), copy_count(), stream_); };
        return run;
    }

    void poison(const std::string& output, cudaStream_t stream) override {
        if (output == "z") z_.fill_bytes(0xFF, stream);
    }
    // A run's x and y, drawn on the GPU from its seed (x the draws 0 .. n, y the next n). Only z
    // holds an answer, and it is poisoned before every run.
    void load_inputs(const std::string& part, uint64_t seed, cudaStream_t stream) override {
        if (part == "copy") return;
        fill_uniform(x_.get(), x_.count(), seed, 0, -1, 1, stream);
        fill_uniform(y_.get(), y_.count(), seed, uint64_t(n_), -1, 1, stream);
    }
    OutputArray download(const std::string&) override {
        const std::vector<float> z = z_.download();
        return OutputArray{DType::f32, std::vector<double>(z.begin(), z.end()), {}};
    }
    OutputShape output_shape(const std::string&) const override { return {DType::f32, size_t(n_)}; }

    // Every element, whatever `full` says: n is at most 2^26.
    Reference reference(const std::string&, uint64_t seed, bool) override {
        const std::vector<float> x = host_draws(seed, 0, size_t(n_)), y = host_draws(seed, uint64_t(n_), size_t(n_));
        AxpyReference computed = ReferenceHook<AxpyReferenceFunction>::get()(a_, x.data(), y.data(), size_t(n_));
        Reference r;
        r.value = std::move(computed.value);
        r.bound = std::move(computed.bound);
        r.how = "every element";
        r.bound_name = "gamma_2 (|a x_i| + |y_i|)";
        return r;
    }
    std::string element_name(const std::string&, size_t index) const override {
        return "z[" + std::to_string(index) + "]";
    }

private:
    size_t copy_count() const { return (3 * size_t(n_) + 1) / 2; }

    int n_, block_;
    float a_;
    int sms_ = 1;
    cudaStream_t stream_ = nullptr;
    DeviceBuffer<float> x_, y_, z_, copy_from_, copy_to_;
};

}  // namespace

LabInfo lab0() {
    LabInfo lab;
    lab.name = LAB_NAME;
    lab.summary = "Runs the two parts of axpy.cu (z = a x + y) on one case, checks every element against a CPU "
                  "reference and times each beside a copy kernel that moves the same bytes.";
    lab.parts = {"one_per_thread", "grid_stride"};
    lab.metrics = {{"GB/s", "gbps", 1e9, Metric::Bound::memory_bytes}};
    lab.yardsticks = {{"copy", "copy"}};  // "% copy": a copy kernel moving the same bytes
    lab.declare_options = [](ArgParser& args) {
        args.option("n", "N", "1000000", "how many elements (1 to 2^26)");
        args.option("block", "B", "256", "threads per block");
        args.option("a", "A", "1.5", "the scalar a");
    };
    lab.make_case = make_case_of<AxpyCase>;
    return lab;
}
