// Every part of the reference solution on awkward sizes, on a GPU, through the lab's own driver
// (lab4.hpp): it uploads the filter through the solution's upload_filter, poisons every output,
// and compares every element with the CPU reference (exactly, for the maximum). Fresh data each
// run: the seed is printed on failure so it can be replayed. And the max part's B, made on the GPU.
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "catch.hpp"
#include "device_buffer.hpp"
#include "exit_codes.hpp"
#include "gpu_fixture.hpp"
#include "lab4.hpp"
#include "lab_main.hpp"
#include "random_data.hpp"

namespace {

int run_driver(std::vector<std::string> args) {
    args.insert(args.begin(), "lab4");
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    return run_lab(lab4(), int(argv.size()), argv.data());
}

}  // namespace

TEST_CASE("every part of the solution matches the CPU reference on awkward sizes", "[gpu]") {
    struct Shape {
        int n, block, width, height, radius;
    };
    // n = 1, 2, 3, primes, one more than a tile, exact tiles; blocks of 1, 32, 127 (neither a
    // power of two nor a multiple of the warp), 256, 1024; images of 1 x 1, one row, one
    // column, a filter wider than the image, every radius from 0 to 8.
    const std::vector<Shape> shapes = {
        {1, 256, 1, 1, 0},       {2, 512, 4099, 1, 1},   {3, 32, 1, 3001, 8},     {1009, 127, 37, 41, 3},
        {5003, 256, 70, 150, 2}, {4097, 1024, 300, 200, 8}, {1031, 1, 65, 129, 0}, {65537, 32, 257, 63, 5},
        {16384, 256, 64, 128, 4}, {1000003, 512, 1000, 999, 6}, {7, 3, 2, 3, 7},    {262147, 100, 33, 1025, 2},
    };
    const unsigned seed = std::random_device{}();
    for (const Shape& s : shapes) {
        std::vector<std::string> args = {"--n", std::to_string(s.n), "--block", std::to_string(s.block), "--width",
                                         std::to_string(s.width), "--height", std::to_string(s.height), "--radius",
                                         std::to_string(s.radius), "--seed", std::to_string(seed), "--reps", "2",
                                         "--warmup", "1", "--check", "full"};
        INFO("lab4 --n " << s.n << " --block " << s.block << " --width " << s.width << " --height " << s.height
                         << " --radius " << s.radius << " --seed " << seed);
        CHECK(run_driver(args) == exit_code::ok);
    }
}

TEST_CASE("the benchmark's sizes pass too: n = 2^26, an 8192 x 8192 image at r = 2", "[gpu]") {
    CHECK(run_driver({"--n", "67108864", "--width", "8192", "--height", "8192", "--radius", "2", "--reps", "2",
                      "--warmup", "1", "--check", "sample"}) == exit_code::ok);
}

TEST_CASE("the max's B made on the GPU is the host's float stencil of the same A, bit for bit", "[gpu]") {
    // Index 0 keeps the case's seed: the max part of every committed case reduces the floats it
    // reduced when the driver computed them on the host (case `one`: seed 419, a negative B[0]).
    for (auto [seed, n] : {std::pair<uint64_t, size_t>{419, 1}, {402, 1009}, {409, 1 << 20}}) {
        SeededRandom random(seed);
        std::vector<float> A(n + 4);
        for (float& a : A) a = random.uniform(-1, 1);
        DeviceBuffer<float> B(n);
        max_input_on_gpu(B.get(), n, seed, gpu().stream);
        REQUIRE(cudaStreamSynchronize(gpu().stream) == cudaSuccess);
        INFO("seed " << seed << ", n = " << n);
        CHECK(B.download() == stencil_in_float(A));
    }
}
