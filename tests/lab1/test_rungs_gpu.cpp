// Every part of the reference solution against the CPU reference on awkward shapes, on a
// GPU. Fresh data each run (the seed is printed on failure so it can be replayed), the
// output poisoned with NaN before each run, every element compared.
#include <cuda_runtime.h>

#include <random>
#include <string>
#include <vector>

#include "catch.hpp"
#include "gpu_fixture.hpp"
#include "compare.hpp"
#include "device_buffer.hpp"
#include "gpu.hpp"
#include "launcher.cuh"
#include "lab1.hpp"
#include "part_table.hpp"
#include "random_data.hpp"
#include "reference/matmul_reference.hpp"

namespace {

struct Shape {
    int M, N, K;
};

// 1x1x1, primes, a column, not multiples of any tile, rectangular both ways, larger than one
// tile (of 32 and of the 128-wide register blocks) in each dimension, and K over several
// slabs of the double-buffered rung.
const std::vector<Shape> awkward_shapes = {
    {1, 1, 1},   {37, 41, 43},  {1000, 1, 1}, {1, 1000, 1}, {1, 1, 1000},    {33, 65, 17},   {33, 65, 300},
    {17, 300, 129}, {129, 33, 7}, {257, 131, 513}, {200, 264, 96}, {131, 257, 64}, {64, 64, 64}, {130, 129, 33},
};

// Runs one part once on fresh data; returns the comparison with the CPU reference.
Comparison run_and_compare(const MatmulPart& part, const Shape& s, int tile, int depth, uint64_t seed) {
    SeededRandom random(seed);
    std::vector<float> A(size_t(s.M) * s.K), B(size_t(s.K) * s.N);
    for (float& a : A) a = random.uniform(-1, 1);
    for (float& b : B) b = random.uniform(-1, 1);
    DeviceBuffer<float> dA(A.size()), dB(B.size()), dC(size_t(s.M) * s.N);
    dA.upload(A);
    dB.upload(B);
    dC.fill_bytes(0xFF, gpu().stream);  // NaN everywhere

    Launcher launch(gpu().info.prop, gpu().stream);
    part.run(MatmulProblem{dA.get(), dB.get(), dC.get(), s.M, s.N, s.K}, tile, depth, launch);
    REQUIRE(!launch.launches().empty());
    REQUIRE(cudaStreamSynchronize(gpu().stream) == cudaSuccess);
    std::vector<float> C = dC.download();

    MatmulReference ref = matmul_reference(A.data(), B.data(), s.M, s.N, s.K);
    std::vector<double> got(C.begin(), C.end());
    return compare_values(got.data(), ref.value.data(), ref.bound.data(), got.size());
}

uint64_t fresh_seed() { return std::random_device{}(); }

}  // namespace

TEST_CASE("every solution part matches the CPU reference on awkward shapes", "[gpu][lab1]") {
    for (const MatmulPart& part : matmul_parts()) {
        std::vector<int> tiles = part.uses_tile ? std::vector<int>{8, 16, 32} : std::vector<int>{0};
        std::vector<int> depths = part.uses_depth ? std::vector<int>{1, 3, 8} : std::vector<int>{1};
        for (int tile : tiles)
            for (int depth : depths)
                for (const Shape& s : awkward_shapes) {
                    uint64_t seed = fresh_seed();
                    INFO("part " << part.name << ", tile " << tile << ", depth " << depth << ", M N K = " << s.M << " "
                                 << s.N << " " << s.K << ", seed " << seed);
                    Comparison c = run_and_compare(part, s, tile, depth, seed);
                    if (!c.ok())
                        INFO("first mismatch at " << c.first[0].position << ": " << c.first[0].got << " vs " << c.first[0].want);
                    CHECK(c.ok());
                }
    }
}

TEST_CASE("the launcher refuses a block over the thread limit before the GPU sees it", "[gpu][lab1]") {
    const MatmulPart& naive = part_named(matmul_parts(), "naive");
    DeviceBuffer<float> d(64 * 64);
    Launcher launch(gpu().info.prop, gpu().stream);
    MatmulProblem p{d.get(), d.get(), d.get(), 64, 64, 1};
    REQUIRE_THROWS_WITH(naive.run(p, 64, 1, launch), LAB_CONTAINS("4096 threads exceeds this GPU's limit of " +
                                                                  std::to_string(gpu().info.prop.maxThreadsPerBlock)));
    CHECK(launch.launches().empty());
    CHECK(cudaGetLastError() == cudaSuccess);  // nothing reached the hardware
}

TEST_CASE("the launcher refuses a dynamic part deeper than the shared memory allows", "[gpu][lab1]") {
    DeviceBuffer<float> d(64 * 64);
    Launcher launch(gpu().info.prop, gpu().stream);
    MatmulProblem p{d.get(), d.get(), d.get(), 64, 64, 64};
    // 2 x 32 x (64 x 32) floats = 512 KB: more than any GPU's opt-in maximum.
    const MatmulPart& dynamic = part_named(matmul_parts(), "dynamic");
    REQUIRE_THROWS_WITH(dynamic.run(p, 32, 64, launch), LAB_CONTAINS("sharedMemPerBlockOptin"));
    CHECK(launch.launches().empty());
}
