// Every part of the reference solution on a GPU against the CPU reference, exactly: awkward sizes
// (1, 2, primes, sizes that are not multiples of the block or of the blocked part's tile),
// every block size, disconnected graphs, zero weights, the sample files; and the whole driver
// (lab3.hpp) on the same, which also checks its yardsticks. Fresh data each run: the seed is
// printed on failure so it can be replayed.
#include <cuda_runtime.h>

#include <random>
#include <string>
#include <vector>

#include "catch.hpp"
#include "gpu_fixture.hpp"
#include "device_buffer.hpp"
#include "exit_codes.hpp"
#include "floyd.h"
#include "gpu.hpp"
#include "graph.hpp"
#include "lab3.hpp"
#include "lab_main.hpp"
#include "random_data.hpp"
#include "reference.hpp"
#include "run_graph.hpp"

namespace {

const std::vector<int> awkward_sizes = {1, 2, 3, 7, 31, 37, 63, 64, 65, 97, 128, 131, 193};

std::vector<int> random_adjacency(int n, double density, int components, uint64_t seed) {
    RandomGraphSpec spec;
    spec.n = n;
    spec.density = density;
    spec.min_weight = 0;
    spec.max_weight = 50;
    spec.components = components;
    return adjacency_matrix(random_graph(spec, seed));
}

// The number of elements where a part's matrix differs from the reference (0: exact).
template <typename Part>
size_t wrong_elements(const std::vector<int>& adjacency, int n, Part&& part, size_t* launches) {
    std::vector<int> expected = adjacency;
    floyd_warshall_cpu(expected.data(), n);
    DeviceBuffer<int> dist(size_t(n) * n);
    dist.upload(adjacency);
    Launcher launch(gpu().info.prop, gpu().stream);
    part(dist.get(), launch);
    REQUIRE(cudaStreamSynchronize(gpu().stream) == cudaSuccess);
    *launches = launch.launches().size();
    std::vector<int> got = dist.download();
    size_t wrong = 0;
    for (size_t i = 0; i < got.size(); ++i) wrong += got[i] != expected[i];
    return wrong;
}

int run_driver(std::vector<std::string> args) {
    args.insert(args.begin(), "lab3");
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    return run_lab(lab3(), int(argv.size()), argv.data());
}

}  // namespace

TEST_CASE("fw_1d and fw_2d match the CPU exactly on awkward sizes, every block, one launch per k", "[gpu][lab3]") {
    const uint64_t seed = std::random_device{}();
    for (int block : {8, 16, 32})
        for (int n : awkward_sizes)
            for (int components : {1, 3}) {
                if (components > n) continue;
                INFO("n " << n << ", block " << block << ", components " << components << ", seed " << seed);
                std::vector<int> adjacency = random_adjacency(n, 0.08, components, seed + n);
                size_t launches = 0;
                CHECK(wrong_elements(adjacency, n, [&](int* d, Launcher& l) { fw_1d(d, n, block, l); }, &launches) == 0);
                CHECK(launches == size_t(n));
                CHECK(wrong_elements(adjacency, n, [&](int* d, Launcher& l) { fw_2d(d, n, block, l); }, &launches) == 0);
                CHECK(launches == size_t(n));
            }
}

TEST_CASE("fw_blocked matches the CPU exactly on awkward sizes, dense and sparse, connected or not", "[gpu][lab3]") {
    const uint64_t seed = std::random_device{}();
    std::vector<int> sizes = awkward_sizes;
    sizes.insert(sizes.end(), {255, 256, 257, 400, 513});
    for (int n : sizes)
        for (double density : {0.01, 0.1, 0.6})
            for (int components : {1, 4}) {
                if (components > n) continue;
                INFO("n " << n << ", density " << density << ", components " << components << ", seed " << seed);
                std::vector<int> adjacency = random_adjacency(n, density, components, seed + n);
                size_t launches = 0;
                CHECK(wrong_elements(adjacency, n, [&](int* d, Launcher& l) { fw_blocked(d, n, l); }, &launches) == 0);
                CHECK(launches > 0);
            }
}

TEST_CASE("the diameter matches the CPU on awkward sizes, every block, unreachable pairs left out", "[gpu][lab3]") {
    const uint64_t seed = std::random_device{}();
    for (int n : {1, 2, 3, 7, 37, 65, 131, 1000, 1500})
        for (int components : {1, 5}) {
            if (components > n) continue;
            std::vector<int> dist = random_adjacency(n, 0.05, components, seed + n);
            floyd_warshall_cpu(dist.data(), n);
            const size_t count = size_t(n) * n;
            const int expected = diameter_cpu(dist.data(), count);
            DeviceBuffer<int> d(count), result(1);
            d.upload(dist);
            for (int block : {1, 2, 4, 8, 16, 32}) {
                INFO("n " << n << ", block " << block << ", components " << components << ", seed " << seed);
                const size_t capacity = diameter_partial_capacity(n, block);
                DeviceBuffer<int> partial(capacity);
                result.fill_bytes(0xFF, gpu().stream);
                Launcher launch(gpu().info.prop, gpu().stream);
                diameter(d.get(), n, block, DiameterBuffers{partial.get(), capacity, result.get()}, launch);
                REQUIRE(cudaStreamSynchronize(gpu().stream) == cudaSuccess);
                CHECK(result.download()[0] == expected);
                CHECK(launch.launches().size() >= 1);
            }
        }
}

TEST_CASE("the GPU draws each run's graph exactly as the host twin the reference uses", "[gpu][lab3]") {
    for (int n : {1, 2, 37, 131, 2048})
        for (int components : {1, 3}) {
            if (components > n) continue;
            RandomGraphSpec spec;
            spec.n = n;
            spec.density = 0.1;
            spec.min_weight = 0;
            spec.max_weight = 1000;
            spec.components = components;
            const PairDraws draws = pair_draws(spec);
            const uint64_t seed = uint64_t(7498740943941341866ull);
            DeviceBuffer<int> d(size_t(n) * n);
            draw_adjacency_on_gpu(d.get(), draws, seed, gpu().stream);
            REQUIRE(cudaStreamSynchronize(gpu().stream) == cudaSuccess);
            INFO("n " << n << ", components " << components);
            CHECK(d.download() == drawn_adjacency(draws, seed));
        }
    for (const char* file : {"labs/lab3/graphs/tiny.txt", "labs/lab3/graphs/grid-20x20.gr", "labs/lab3/graphs/selfloops.gr"}) {
        INFO(file);
        Graph g = read_graph(file);
        const std::vector<int> a = adjacency_matrix(g);
        const WeightJitter jitter = weight_jitter(a, g.n);
        DeviceBuffer<int> original(a.size()), d(a.size());
        original.upload(a);
        jitter_adjacency_on_gpu(d.get(), original.get(), a.size(), jitter, uint64_t(2296860483407129496ull), gpu().stream);
        REQUIRE(cudaStreamSynchronize(gpu().stream) == cudaSuccess);
        CHECK(d.download() == jittered_adjacency(a, jitter, uint64_t(2296860483407129496ull)));
    }
}

TEST_CASE("the driver passes every part and yardstick on awkward cases and the sample files", "[gpu][lab3]") {
    const std::string seed = std::to_string(std::random_device{}() % 1000000);
    const std::vector<std::vector<std::string>> cases = {
        {"--n", "1"},
        {"--n", "2", "--density", "0.5"},
        {"--n", "37", "--block", "8"},
        {"--n", "70", "--block", "16"},
        {"--n", "70", "--block", "1", "--part", "diameter"},
        {"--n", "37", "--block", "2", "--part", "fw_1d,fw_2d,diameter"},
        {"--n", "37", "--block", "4"},
        {"--n", "131", "--block", "32", "--components", "3", "--density", "0.05"},
        {"--n", "61", "--min-weight", "0", "--max-weight", "3", "--block", "8"},
        {"--graph", "labs/lab3/graphs/tiny.txt"},
        {"--graph", "labs/lab3/graphs/islands.gr", "--block", "8"},
        {"--graph", "labs/lab3/graphs/grid-20x20.gr", "--block", "32"},
        {"--graph", "labs/lab3/graphs/selfloops.gr"},
    };
    for (std::vector<std::string> args : cases) {
        args.insert(args.end(), {"--seed", seed, "--reps", "2", "--warmup", "1", "--check", "full"});
        std::string text;
        for (const std::string& a : args) text += a + " ";
        INFO("lab3 " << text);
        CHECK(run_driver(args) == exit_code::ok);
    }
}

TEST_CASE("above --check auto's limit the driver checks rows by Dijkstra, and still passes", "[gpu][lab3]") {
    CHECK(run_driver({"--n", "2100", "--part", "fw_2d,fw_blocked", "--reps", "1", "--warmup", "0", "--cpu-max-n", "0"}) ==
          exit_code::ok);
}
