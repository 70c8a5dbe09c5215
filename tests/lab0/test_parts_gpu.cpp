// Both parts of the reference solution on a GPU: through the lab's own driver on awkward sizes
// and blocks (1, a prime, sizes no block divides, a block of 1 and one of 96), every element
// against the CPU reference; the grids each part launches; and a block past the GPU's limit
// refused with the limit's name. Fresh data each run: the seed is printed on failure.
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "axpy.h"
#include "catch.hpp"
#include "device_buffer.hpp"
#include "exit_codes.hpp"
#include "gpu_fixture.hpp"
#include "lab0.hpp"
#include "lab_main.hpp"
#include "random_data.hpp"
#include "reference.hpp"

namespace {

int run_driver(std::vector<std::string> args) {
    args.insert(args.begin(), "lab0");
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    return run_lab(lab0(), int(argv.size()), argv.data());
}

}  // namespace

TEST_CASE("both parts of the solution match the CPU reference on awkward sizes", "[gpu]") {
    struct Shape {
        int n, block;
    };
    const std::vector<Shape> shapes = {{1, 256}, {2, 1}, {31, 32}, {97, 96}, {1000, 96}, {257, 128},
                                       {4097, 1024}, {1000003, 256}, {1000003, 100}, {67108864, 256}};
    const unsigned seed = std::random_device{}();
    for (const Shape& s : shapes) {
        INFO("lab0 --n " << s.n << " --block " << s.block << " --seed " << seed);
        CHECK(run_driver({"--n", std::to_string(s.n), "--block", std::to_string(s.block), "--seed", std::to_string(seed),
                          "--reps", "2", "--warmup", "1", "--check", "full"}) == exit_code::ok);
    }
}

TEST_CASE("one_per_thread launches a block per block of elements, grid_stride at most 4 per SM", "[gpu]") {
    const int n = 1000003, block = 128;
    const std::vector<float> x = random_floats(n, 21), y = random_floats(n, 22);
    AxpyReference r = axpy_reference(-2.5f, x.data(), y.data(), n);
    DeviceBuffer<float> dx(n), dy(n), dz(n);
    dx.upload(x);
    dy.upload(y);
    // One SM's worth of grid (4 blocks) for grid_stride: each thread then loops about 2000 times.
    for (int sms : {1, gpu().info.prop.multiProcessorCount}) {
        for (auto part : {axpy_one_per_thread, axpy_grid_stride}) {
            INFO("sms " << sms << ", part " << (part == axpy_one_per_thread ? "one_per_thread" : "grid_stride"));
            dz.fill_bytes(0xFF, gpu().stream);
            Launcher launch(gpu().info.prop, gpu().stream);
            part(Axpy{-2.5f, dx.get(), dy.get(), dz.get(), n, block, sms}, launch);
            REQUIRE(cudaStreamSynchronize(gpu().stream) == cudaSuccess);
            REQUIRE(launch.launches().size() == 1);
            const unsigned grid = launch.launches()[0].grid.x;
            CHECK(launch.launches()[0].block.x == unsigned(block));
            if (part == axpy_one_per_thread) CHECK(grid == unsigned((n + block - 1) / block));
            else CHECK(grid == unsigned(4 * sms));
            const std::vector<float> z = dz.download();
            size_t wrong = 0;
            for (size_t i = 0; i < z.size(); ++i) wrong += !(std::fabs(double(z[i]) - r.value[i]) <= r.bound[i]);
            CHECK(wrong == 0);
        }
    }
}

TEST_CASE("a block past the GPU's limit is refused, with the limit named", "[gpu]") {
    CHECK(run_driver({"--n", "1000", "--block", "2048", "--reps", "0"}) == exit_code::bad_usage);
}
