// Every part of the reference solution on a GPU, on every awkward case: lengths 1, 2, 32, 64
// (the register steps alone), 128 .. 1024 (the shared-memory steps), 2048 (the first global
// step), 4096 .. 2^20 (one, two and three strides a global pass, then several passes); batches
// of 1, a few (a last, partial tile) and many; both directions; keys with many ties and keys over
// the whole 32-bit range. Each run twice from the same input, checked by the driver's validator.
// Then the driver itself: the GPU draws exactly the host's pairs, every run sorts pairs of its
// own, the one-block parts sit out above 1024 pairs with their reason, CUB and Thrust agree.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "gpu_fixture.hpp"
#include "device_buffer.hpp"
#include "exit_codes.hpp"
#include "gpu.hpp"
#include "lab6.hpp"
#include "lab_main.hpp"
#include "part_table.hpp"
#include "random_data.hpp"

namespace {

struct Run {
    std::vector<uint32_t> keys, values;
    size_t launches;
};

Run run_once(const SortPart& part, const SortInput& in, unsigned batch, unsigned length, bool ascending) {
    DeviceBuffer<uint32_t> keys(in.keys.size()), values(in.values.size());
    keys.upload(in.keys);
    values.upload(in.values);
    Launcher launch(gpu().info.prop, gpu().stream);
    part.run(SortProblem{keys.get(), values.get(), batch, length, ascending}, launch);
    REQUIRE(cudaStreamSynchronize(gpu().stream) == cudaSuccess);
    return Run{keys.download(), values.download(), launch.launches().size()};
}

int run_driver(std::vector<std::string> args) {
    args.insert(args.begin(), "lab6");
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    return run_lab(lab6(), int(argv.size()), argv.data());
}

}  // namespace

TEST_CASE("every part of the solution sorts every awkward case exactly", "[gpu][lab6]") {
    struct Case {
        unsigned length, batch;
    };
    const std::vector<Case> cases = {{1, 1},    {1, 5},     {2, 1},    {2, 7},    {4, 3},     {32, 5},
                                     {64, 1},   {64, 3},    {128, 9},  {256, 4},  {512, 33},  {1024, 1},
                                     {1024, 3}, {1024, 64}, {2048, 1}, {2048, 2}, {4096, 37}, {8192, 3},
                                     {16384, 2}, {65536, 3}, {262144, 1}, {1048576, 2}};
    for (const Case& c : cases)
        for (bool up : {true, false})
            for (uint64_t key_range : {uint64_t(16), uint64_t(1) << 32}) {
                SortInput in = sort_input(c.batch, c.length, key_range, c.length + c.batch);
                for (const SortPart& part : sort_parts()) {
                    if (part.one_block && c.length > shared_size_limit) continue;
                    INFO("part " << part.name << ", length " << c.length << ", batch " << c.batch << ", "
                                 << (up ? "up" : "down") << ", keys below " << key_range);
                    for (int repetition = 0; repetition < 2; ++repetition) {
                        Run r = run_once(part, in, c.batch, c.length, up);
                        CHECK(r.launches > 0);
                        SortVerdict v = validate_sort(in.keys, in.values, r.keys, r.values, c.batch, c.length, up);
                        INFO(v.message);
                        CHECK(v.ok);
                    }
                }
            }
}

TEST_CASE("the reference's bitonic sorts tiles of 8192 and merges each longer size in two passes", "[gpu][lab6]") {
    // Length 2^20 = 2^13 x 2^7: one pass sorts the runs of 8192 in shared memory; each of the 7
    // longer sizes takes one pass for its strides of 8192 and up, one for 4096 .. 1: 15 launches.
    SortInput in = sort_input(1, 1 << 20, 65536, 5);
    CHECK(run_once(part_named(sort_parts(), "bitonic"), in, 1, 1 << 20, true).launches == 1 + 2 * 7);
    // The odd-even sort: the presort, then one launch per stride (11 + 12 + ... + 20).
    CHECK(run_once(part_named(sort_parts(), "oddeven"), in, 1, 1 << 20, true).launches == 1 + 155);
}

TEST_CASE("the GPU draws the pairs sort_input draws on the host, float keys too", "[gpu][lab6]") {
    struct Draw {
        unsigned batch, length;
        uint64_t key_range, seed;
    };
    for (const Draw& d : {Draw{1, 1, 65536, 1}, Draw{3, 1024, 16, 604}, Draw{5, 4096, uint64_t(1) << 32, 7},
                          Draw{1, 1 << 20, 65536, uint64_t(13385038117606291906ull)}}) {
        INFO("batch " << d.batch << ", length " << d.length << ", keys below " << d.key_range << ", seed " << d.seed);
        const size_t n = size_t(d.batch) * d.length;
        DeviceBuffer<uint32_t> keys(n), values(n);
        DeviceBuffer<float> float_keys(n);
        draw_sort_input(keys.get(), values.get(), float_keys.get(), d.batch, d.length, d.key_range, d.seed, gpu().stream);
        REQUIRE(cudaStreamSynchronize(gpu().stream) == cudaSuccess);
        SortInput in = sort_input(d.batch, d.length, d.key_range, d.seed);
        CHECK(keys.download() == in.keys);
        CHECK(values.download() == in.values);
        CHECK(float_keys.download() == std::vector<float>(in.keys.begin(), in.keys.end()));
    }
}

TEST_CASE("the driver sorts fresh pairs in every run and checks the kept ones; CUB and Thrust agree", "[gpu][lab6]") {
    for (const char* dir : {"up", "down"}) {
        INFO("--dir " << dir);
        CHECK(run_driver({"--length", "4096", "--batch", "5", "--dir", dir, "--reps", "4", "--warmup", "2", "--check",
                          "full", "--seed", "21"}) == exit_code::ok);
        CHECK(run_driver({"--length", "8192", "--batch", "1", "--dir", dir, "--reps", "3", "--warmup", "1", "--seed",
                          "22"}) == exit_code::ok);
    }
}

TEST_CASE("above 1024 pairs the one-block parts sit out, recorded as skipped with the reason", "[gpu][lab6]") {
    char dir[] = "/tmp/lab6-skip-XXXXXX";
    REQUIRE(mkdtemp(dir) != nullptr);
    CHECK(run_driver({"--length", "2048", "--batch", "2", "--reps", "1", "--warmup", "0", "--out", dir,
                      "--no-yardstick"}) == exit_code::ok);
    // The record of each part: its line of results.tsv (fields in any order, tab-separated).
    auto record = [&](const std::string& part) {
        std::ifstream file(std::string(dir) + "/results.tsv");
        std::string line;
        while (std::getline(file, line))
            if (("\t" + line + "\t").find("\tpart=" + part + "\t") != std::string::npos) return line;
        return std::string();
    };
    for (const char* part : {"bitonic_shared", "oddeven_shared"}) {
        INFO(record(part));
        CHECK(record(part).find("status=skipped") != std::string::npos);
        CHECK(record(part).find("message=one block sorts at most 1024 pairs, and --length is 2048") != std::string::npos);
    }
    for (const char* part : {"bitonic", "oddeven"}) CHECK(record(part).find("status=ran") != std::string::npos);
    std::remove((std::string(dir) + "/results.tsv").c_str());
}
