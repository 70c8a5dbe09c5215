// Every rung of the reference solution against the CPU reference on awkward shapes, on a
// GPU. Fresh data each run (the seed is printed on failure so it can be replayed), the
// output poisoned with NaN before each run, every element compared.
#include <cuda_runtime.h>

#include <random>
#include <string>
#include <vector>

#include "catch.hpp"
#include "compare.hpp"
#include "gpu.hpp"
#include "launcher.cuh"
#include "random_data.hpp"
#include "reference.hpp"
#include "rungs.hpp"

namespace {

struct Shape {
    int M, N, K;
};

// 1x1x1, primes, a column, not multiples of any tile, rectangular both ways, and larger
// than one tile (of 32 and of the 128-wide register blocks) in each dimension.
const std::vector<Shape> awkward_shapes = {
    {1, 1, 1},   {37, 41, 43},  {1000, 1, 1}, {1, 1000, 1}, {1, 1, 1000},    {33, 65, 17},
    {17, 300, 129}, {129, 33, 7}, {257, 131, 513}, {200, 264, 96}, {131, 257, 64}, {64, 64, 64},
};

struct Gpu {
    GpuInfo info = require_gpu(0);
    cudaStream_t stream{};
    Gpu() { REQUIRE(cudaStreamCreate(&stream) == cudaSuccess); }
    ~Gpu() { cudaStreamDestroy(stream); }
};

Gpu& gpu() {
    static Gpu g;
    return g;
}

// Runs one rung once on fresh data; returns the comparison with the CPU reference.
Comparison run_and_compare(const Rung& rung, const Shape& s, int tile, uint64_t seed) {
    SeededRandom random(seed);
    std::vector<float> A(size_t(s.M) * s.K), B(size_t(s.K) * s.N), C(size_t(s.M) * s.N);
    for (float& a : A) a = random.uniform(-1, 1);
    for (float& b : B) b = random.uniform(-1, 1);
    float *dA, *dB, *dC;
    REQUIRE(cudaMalloc(&dA, A.size() * 4) == cudaSuccess);
    REQUIRE(cudaMalloc(&dB, B.size() * 4) == cudaSuccess);
    REQUIRE(cudaMalloc(&dC, C.size() * 4) == cudaSuccess);
    REQUIRE(cudaMemcpy(dA, A.data(), A.size() * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    REQUIRE(cudaMemcpy(dB, B.data(), B.size() * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    REQUIRE(cudaMemset(dC, 0xFF, C.size() * 4) == cudaSuccess);  // NaN everywhere

    Launcher launch(gpu().info.prop, gpu().stream);
    rung.run(MatmulProblem{dA, dB, dC, s.M, s.N, s.K}, tile, launch);
    REQUIRE(launch.launches() > 0);
    REQUIRE(cudaStreamSynchronize(gpu().stream) == cudaSuccess);
    REQUIRE(cudaMemcpy(C.data(), dC, C.size() * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    cudaFree(dA), cudaFree(dB), cudaFree(dC);

    MatmulReference ref = matmul_reference(A.data(), B.data(), s.M, s.N, s.K);
    std::vector<double> got(C.begin(), C.end());
    return compare_values(got.data(), ref.value.data(), ref.bound.data(), got.size());
}

uint64_t fresh_seed() { return std::random_device{}(); }

}  // namespace

TEST_CASE("every solution rung matches the CPU reference on awkward shapes", "[gpu][lab1]") {
    for (const Rung& rung : all_rungs()) {
        std::vector<int> tiles = rung.uses_tile ? std::vector<int>{8, 16, 32} : std::vector<int>{0};
        for (int tile : tiles)
            for (const Shape& s : awkward_shapes) {
                uint64_t seed = fresh_seed();
                INFO("rung " << rung.name << ", tile " << tile << ", M N K = " << s.M << " " << s.N << " " << s.K
                             << ", seed " << seed);
                Comparison c = run_and_compare(rung, s, tile, seed);
                if (!c.ok()) INFO("first mismatch at " << c.first[0].position << ": " << c.first[0].got << " vs " << c.first[0].want);
                CHECK(c.ok());
            }
    }
}

TEST_CASE("the launcher refuses a block over the thread limit before the GPU sees it", "[gpu][lab1]") {
    const Rung& naive = all_rungs().front();
    float* d;
    REQUIRE(cudaMalloc(&d, 64 * 64 * 4) == cudaSuccess);
    Launcher launch(gpu().info.prop, gpu().stream);
    MatmulProblem p{d, d, d, 64, 64, 1};
    REQUIRE_THROWS_WITH(naive.run(p, 64, launch), LAB_CONTAINS("4096 threads exceeds this GPU's limit of " +
                                                               std::to_string(gpu().info.prop.maxThreadsPerBlock)));
    CHECK(launch.launches() == 0);
    CHECK(cudaGetLastError() == cudaSuccess);  // nothing reached the hardware
    cudaFree(d);
}
