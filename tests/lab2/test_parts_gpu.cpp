// Every part of the reference solution on awkward shapes and block shapes, on a GPU, through
// the lab's own driver (lab2.hpp): it allocates through the solution's host side, poisons
// every output, and compares every element with the CPU reference (exactly, for the copies
// and the transpose). Fresh data each run: the seed is printed on failure so it can be replayed.
#include <random>
#include <string>
#include <vector>

#include "catch.hpp"
#include "exit_codes.hpp"
#include "lab2.hpp"
#include "lab_main.hpp"
#include "pitched.h"

namespace {

int run_driver(std::vector<std::string> args) {
    args.insert(args.begin(), "lab2");
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    return run_lab(lab2(), int(argv.size()), argv.data());
}

}  // namespace

TEST_CASE("every part of the solution matches the CPU reference on awkward shapes", "[gpu]") {
    struct Shape {
        int M, N, K, block_width, block_height;
    };
    // 1, primes, a column and a row, widths that cudaMallocPitch pads and one it does not,
    // K over several tiles, block widths that are and are not multiples of the warp.
    const std::vector<Shape> shapes = {
        {1, 1, 1, 32, 32},     {37, 41, 43, 32, 16},  {1000, 1, 1, 24, 16}, {1, 1000, 3, 10, 32},
        {33, 65, 70, 24, 16},  {17, 300, 257, 32, 16}, {97, 203, 61, 10, 32}, {129, 33, 7, 16, 16},
        {256, 128, 1024, 32, 32}, {300, 7, 129, 10, 16},
    };
    const unsigned seed = std::random_device{}();
    for (const Shape& s : shapes) {
        std::vector<std::string> args = {"--m", std::to_string(s.M), "--n", std::to_string(s.N), "--k", std::to_string(s.K),
                                         "--block-width", std::to_string(s.block_width), "--block-height",
                                         std::to_string(s.block_height), "--seed", std::to_string(seed), "--reps", "2",
                                         "--warmup", "1", "--check", "full"};
        INFO("lab2 " << s.M << " x " << s.N << " x " << s.K << ", block " << s.block_width << " x " << s.block_height
                     << ", --seed " << seed);
        CHECK(run_driver(args) == exit_code::ok);
    }
}

TEST_CASE("a pitched allocation pads its rows, a plain one does not", "[gpu]") {
    for (int cols : {1, 37, 1000, 1024}) {
        cudaPitchedPtr pitched = allocate_device_matrix(3, cols, true), plain = allocate_device_matrix(3, cols, false);
        INFO(cols << " columns: pitch " << pitched.pitch);
        CHECK(pitched.pitch >= cols * sizeof(float));
        CHECK(pitched.pitch % 128 == 0);  // rows start on a boundary of the memory's transactions
        CHECK(plain.pitch == cols * sizeof(float));
        CHECK((pitched.xsize == size_t(cols) && pitched.ysize == 3u));
        free_device_matrix(pitched);
        free_device_matrix(plain);
    }
}

// A checked timed run's reference (--check sample, the grader's --data-seed runs) samples the
// copies and the transpose as it samples the product: the solution passes on every shape, so
// the sampled positions name the elements they claim (a transposed index, the second copy).
TEST_CASE("a sampled check of the copies and the transpose passes the solution", "[gpu]") {
    const unsigned seed = std::random_device{}();
    for (const std::vector<std::string>& shape : std::vector<std::vector<std::string>>{
             {"--m", "1", "--n", "1", "--k", "1"}, {"--m", "97", "--n", "5", "--k", "203"}, {"--m", "300", "--n", "7", "--k", "129"}}) {
        std::vector<std::string> args = shape;
        for (const char* a : {"--reps", "2", "--warmup", "0", "--check", "sample", "--sample-seed"}) args.push_back(a);
        args.push_back(std::to_string(seed + 1));
        args.insert(args.end(), {"--seed", std::to_string(seed)});
        INFO("lab2 " << shape[1] << " x " << shape[3] << " x " << shape[5] << " --check sample, --seed " << seed);
        CHECK(run_driver(args) == exit_code::ok);
    }
}
