// Every rung of the reference solution on a GPU: awkward sizes (1, 2, primes, blockDim x 8 +- 1,
// sizes that are not a multiple of the grid-stride rung's stride) with every block size, each
// run twice from a restored input into a poisoned result, against the exact sum within
// gamma_n sum|x|; the driver's own input for every repetition, drawn on the GPU as on the host;
// the textbook's rungs do overwrite their input and the others do not. Fresh data each run: the seed is printed on
// failure so it can be replayed.
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "catch.hpp"
#include "gpu_fixture.hpp"
#include "device_buffer.hpp"
#include "exit_codes.hpp"
#include "gpu.hpp"
#include "lab5.hpp"
#include "lab_main.hpp"
#include "part_table.hpp"
#include "reference.hpp"

namespace {

// One problem's device memory, as the driver lays it out.
struct Buffers {
    DeviceBuffer<double> data, partial, partial2, result;
    DeviceBuffer<unsigned int> counter;
    size_t n;
    explicit Buffers(size_t count)
        : data(count), partial(partial_capacity(count)), partial2(partial2_capacity(count)), result(1), counter(1), n(count) {
        counter.upload({0u});
    }
    ReduceProblem problem(int block) {
        return ReduceProblem{data.get(), n, block, partial.get(), partial2.get(), counter.get(), result.get()};
    }
};

struct Run {
    double sum;
    unsigned int counter;
    std::vector<LaunchConfig> launches;
};

// Restores the input, poisons the result, runs the part once and waits.
Run run_once(const ReducePart& part, Buffers& b, const std::vector<double>& x, int block) {
    b.data.upload(x);
    b.result.fill_bytes(0xFF, gpu().stream);
    Launcher launch(gpu().info.prop, gpu().stream);
    part.run(b.problem(block), launch);
    REQUIRE(cudaStreamSynchronize(gpu().stream) == cudaSuccess);
    return Run{b.result.download().at(0), b.counter.download().at(0), launch.launches()};
}

int run_driver(std::vector<std::string> args) {
    args.insert(args.begin(), "lab5");
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    return run_lab(lab5(), int(argv.size()), argv.data());
}

}  // namespace

TEST_CASE("every rung of the solution sums every awkward size right, with every block size", "[gpu][lab5]") {
    // 1 and 2; fewer than a warp and a block; blockDim x 8 - 1, + 1 for blocks of 512; primes;
    // several passes over partial sums at blocks of 64; and grid-stride sizes that are neither
    // even nor a multiple of a full grid's stride.
    const std::vector<size_t> sizes = {1,     2,      3,      31,      64,      65,      97,       4095,
                                       4097,  24581,  65537,  1000003, 3000017, 4194305, 16777217};
    const unsigned seed = std::random_device{}();
    for (size_t n : sizes) {
        std::vector<double> x = reduce_input(n, seed + n);
        SumReference ref = sum_reference(x.data(), n);
        Buffers buffers(n);
        for (int block : {64, 128, 256, 512, 1024})
            for (const ReducePart& part : reduce_parts()) {
                INFO("part " << part.name << ", n " << n << ", block " << block << ", data seed " << seed + n);
                for (int repetition = 0; repetition < 2; ++repetition) {  // the second finds the scratch as the first left it
                    Run r = run_once(part, buffers, x, block);
                    REQUIRE(!r.launches.empty());
                    CHECK(std::fabs(r.sum - ref.value) <= ref.bound);  // NaN (never written) fails too
                    CHECK(r.counter == 0u);
                }
            }
    }
}

TEST_CASE("the textbook's rungs overwrite their input and the others only read it", "[gpu][lab5]") {
    const size_t n = 100003;
    std::vector<double> x = reduce_input(n, 11);
    SumReference ref = sum_reference(x.data(), n);
    Buffers b(n);
    for (const ReducePart& part : reduce_parts()) {
        INFO("part " << part.name);
        Run first = run_once(part, b, x, 256);
        CHECK(std::fabs(first.sum - ref.value) <= ref.bound);
        CHECK((b.data.download() != x) == part.in_place);
        // Run again on what the first run left, without a new input: the in-place rungs now sum
        // their own partial results, which is why the driver puts an input in place before every run.
        Launcher launch(gpu().info.prop, gpu().stream);
        part.run(b.problem(256), launch);
        REQUIRE(cudaStreamSynchronize(gpu().stream) == cudaSuccess);
        double again = b.result.download().at(0);
        CHECK((std::fabs(again - ref.value) <= ref.bound) == !part.in_place);
    }
}

TEST_CASE("the GPU draws every run's input exactly as the host does", "[gpu][lab5]") {
    for (size_t n : {size_t(1), size_t(2), size_t(97), size_t(1000003), size_t(1) << 24})
        for (uint64_t seed : {uint64_t(512), uint64_t(2416195946297469962ull), uint64_t(14415643070810569935ull)}) {
            INFO("n " << n << ", seed " << seed);
            DeviceBuffer<double> x(n);
            draw_reduce_input(x.get(), n, seed, gpu().stream);
            REQUIRE(cudaStreamSynchronize(gpu().stream) == cudaSuccess);
            CHECK(x.download() == reduce_input(n, seed));
        }
}

TEST_CASE("the driver puts each run's input in place, and CUB and the CPU row agree", "[gpu][lab5]") {
    // 5 timed runs after 2 warm-ups of every rung, two of the timed runs' sums checked against
    // their own inputs' as well as the first: an in-place rung passes only if each run's input
    // was put in place before it.
    for (const char* block : {"64", "512"}) {
        INFO("block " << block);
        CHECK(run_driver({"--n", "100003", "--block", block, "--reps", "5", "--warmup", "2", "--check", "full",
                          "--seed", "21"}) == exit_code::ok);
    }
}

TEST_CASE("the passes and the one launch have the grids the lab describes", "[gpu][lab5]") {
    const size_t n = 1 << 20;
    std::vector<double> x = reduce_input(n, 3);
    Buffers b(n);
    // neighbored at 512: 2048 blocks, then 4, then 1; unrolling8: 256 blocks, then 1.
    Run neighbored = run_once(part_named(reduce_parts(), "neighbored"), b, x, 512);
    REQUIRE(neighbored.launches.size() == 3);
    CHECK(neighbored.launches[0].grid.x == 2048);
    CHECK(neighbored.launches[2].grid.x == 1);
    Run unrolling8 = run_once(part_named(reduce_parts(), "unrolling8"), b, x, 512);
    REQUIRE(unrolling8.launches.size() == 2);
    CHECK(unrolling8.launches[0].grid.x == 256);
    Run grid_stride = run_once(part_named(reduce_parts(), "grid_stride"), b, x, 512);
    REQUIRE(grid_stride.launches.size() == 1);
    CHECK(grid_stride.launches[0].grid.x >= unsigned(gpu().info.prop.multiProcessorCount));
    CHECK(grid_stride.launches[0].grid.x <= partial_capacity(n));
}

TEST_CASE("complete_unroll refuses a block it has no instantiation for", "[gpu][lab5]") {
    Buffers b(1000);
    Launcher launch(gpu().info.prop, gpu().stream);
    CHECK_THROWS_AS(reduce_complete_unroll(b.problem(96), launch), LaunchRefused);
    CHECK(launch.launches().empty());
}
