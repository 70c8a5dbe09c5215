// The common helpers every driver relies on: statistics, seeded data, comparison,
// tables, the argument parser's non-fatal paths, and the launch-limit checks (against a
// made-up GPU, so they run without one).
#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <utility>
#include <vector>

#include "args.hpp"
#include "catch.hpp"
#include "compare.hpp"
#include "cpu_affinity.hpp"
#include "driver_options.hpp"
#include "gpu.hpp"
#include "launch_limits.hpp"
#include "parallel_ranges.hpp"
#include "part_status.hpp"
#include "random_data.hpp"
#include "stats.hpp"
#include "table.hpp"

TEST_CASE("parallel_ranges covers every item once, in ranges no smaller than asked", "[parallel]") {
    for (size_t count : {size_t(0), size_t(1), size_t(7), size_t(1000), size_t(4099)}) {
        for (size_t min_per_range : {size_t(1), size_t(3), size_t(5000)}) {
            INFO("count " << count << ", at least " << min_per_range << " a range");
            std::vector<int> seen(count, 0);
            std::vector<std::pair<size_t, size_t>> ranges;
            std::mutex lock;
            parallel_ranges(count, min_per_range, [&](size_t begin, size_t end) {
                for (size_t i = begin; i < end; ++i) ++seen[i];  // disjoint ranges: no race
                std::lock_guard<std::mutex> hold(lock);
                ranges.emplace_back(begin, end);
            });
            CHECK(std::count(seen.begin(), seen.end(), 1) == std::ptrdiff_t(count));
            CHECK(ranges.size() <= size_t(std::max(1, usable_cpus())));
            if (ranges.size() > 1)
                for (const auto& range : ranges) CHECK(range.second - range.first >= min_per_range);
        }
    }
    CHECK(items_per_range(1) == 100000);
    CHECK(items_per_range(2048) == 48);
    CHECK(items_per_range(1e9) == 1);
}

TEST_CASE("median of odd and even counts, order does not matter", "[stats]") {
    CHECK(median({3, 1, 2}) == 2);
    CHECK(median({4, 1, 3, 2}) == 2.5);
    CHECK(median({7}) == 7);
    CHECK(median({5, 100, 5, 5, 1}) == 5);  // one outlier does not move it
    CHECK_THROWS(median({}));
}

TEST_CASE("quartiles interpolate between the sorted values", "[stats]") {
    CHECK(quantile({4, 1, 3, 2}, 0.25) == 1.75);
    CHECK(quantile({4, 1, 3, 2}, 0.75) == 3.25);
    CHECK(quantile({5}, 0.25) == 5);
    CHECK(quantile({1, 2, 3}, 0) == 1);
    CHECK(quantile({1, 2, 3}, 1) == 3);
}

TEST_CASE("a part's status has one spelling, read back as written", "[status]") {
    for (PartStatus s : {PartStatus::ran, PartStatus::not_implemented, PartStatus::refused, PartStatus::crashed,
                         PartStatus::timeout, PartStatus::error, PartStatus::skipped}) {
        PartStatus back = PartStatus::ran;
        CHECK(parse_status(status_name(s), back));
        CHECK(back == s);
    }
    PartStatus unused = PartStatus::ran;
    CHECK(std::string(status_name(PartStatus::not_implemented)) == "not implemented");
    CHECK_FALSE(parse_status("not_implemented", unused));  // no second spelling
    CHECK_FALSE(parse_status("PASS", unused));
}

TEST_CASE("--part picks known parts in the order given", "[args]") {
    const std::vector<std::string> known = {"naive", "tiled", "dynamic"};
    CHECK(select_parts("all", known) == known);
    CHECK(select_parts("dynamic,naive", known) == std::vector<std::string>{"dynamic", "naive"});
}

TEST_CASE("the roofline's two ceilings come from the GPU's properties", "[roofline]") {
    GpuInfo h200;  // as an H200 reports itself
    h200.prop.major = 9, h200.prop.minor = 0, h200.prop.multiProcessorCount = 132, h200.prop.memoryBusWidth = 6144;
    h200.sm_clock_khz = 1980000, h200.memory_clock_khz = 3201000;
    CHECK(fp32_lanes_per_sm(h200) == 128);
    CHECK(peak_fp32_gflops(h200) == Approx(66908.16));
    CHECK(peak_memory_gbps(h200) == Approx(4916.736));  // 2 x 3201 MHz x 6144 bits / 8
    GpuInfo a100 = h200;
    a100.prop.major = 8;  // the A100 has half the FP32 lanes per SM
    CHECK(fp32_lanes_per_sm(a100) == 64);
}

TEST_CASE("giga_per_second converts a count and milliseconds", "[stats]") {
    CHECK(giga_per_second(2e9, 1000) == Approx(2.0));
    CHECK(giga_per_second(1e9, 0.5) == Approx(2000.0));
    CHECK(giga_per_second(1e9, 0) == 0);
}

TEST_CASE("seeded data is reproducible, seed-dependent, in range and not constant", "[data]") {
    auto a = random_floats(1000, 42), b = random_floats(1000, 42), c = random_floats(1000, 43);
    CHECK(a == b);
    CHECK(a != c);
    float lo = 1, hi = -1;
    for (float x : a) {
        lo = std::min(lo, x);
        hi = std::max(hi, x);
    }
    CHECK(lo >= -1.0f);
    CHECK(hi < 1.0f);
    CHECK(hi - lo > 1.5f);  // spread over the range, not a constant
    // Fixed values, so a change of generator (which would change every graded case) fails here.
    SeededRandom r(1);
    CHECK(r.next() == 0x910a2dec89025cc1ull);
}

TEST_CASE("fill_uniform_host draws what SeededRandom draws, from any offset", "[data]") {
    // Lab 7's CPU parts get every run's matrices this way: A from draw 0, B from draw n^2.
    SeededRandom r(77);
    std::vector<float> sequential(1000);
    for (float& x : sequential) x = r.uniform(-1, 1);
    std::vector<float> a(600), b(400);
    fill_uniform_host(a.data(), a.size(), 77, 0, -1, 1);
    fill_uniform_host(b.data(), b.size(), 77, 600, -1, 1);
    CHECK(std::equal(a.begin(), a.end(), sequential.begin()));
    CHECK(std::equal(b.begin(), b.end(), sequential.begin() + 600));
    std::vector<float> other(600);
    fill_uniform_host(other.data(), other.size(), 78, 0, -1, 1);
    CHECK(other != a);
}

TEST_CASE("compare_values: allowance, NaN, infinities and the first mismatches", "[compare]") {
    double want[] = {1.0, 2.0, 3.0, INFINITY, 5.0};
    double allowed[] = {0.1, 0.1, 0.1, 0.0, 0.1};
    SECTION("within the allowance passes") {
        double got[] = {1.05, 1.95, 3.0, INFINITY, 5.1};
        Comparison c = compare_values(got, want, allowed, 5);
        CHECK(c.ok());
        CHECK(c.checked == 5);
    }
    SECTION("beyond the allowance fails, and the first mismatch is kept") {
        double got[] = {1.0, 2.2, 3.0, INFINITY, 4.0};
        Comparison c = compare_values(got, want, allowed, 5);
        CHECK_FALSE(c.ok());
        CHECK(c.bad == 2);
        REQUIRE(c.first.size() == 2);
        CHECK(c.first[0].position == 1);
        CHECK(c.first[0].got == 2.2);
        CHECK(c.first[1].position == 4);
    }
    SECTION("NaN never passes, even with a huge allowance") {
        double got[] = {NAN, 2.0, 3.0, INFINITY, 5.0};
        double huge[] = {1e300, 1e300, 1e300, 1e300, 1e300};
        CHECK_FALSE(compare_values(got, want, huge, 5).ok());
    }
    SECTION("a finite value against infinity fails") {
        double got[] = {1.0, 2.0, 3.0, 1e30, 5.0};
        CHECK_FALSE(compare_values(got, want, allowed, 5).ok());
    }
    SECTION("null allowance means exact") {
        double got[] = {1.0, 2.0, 3.0, INFINITY, 5.0000001};
        CHECK(compare_values(got, want, nullptr, 5).bad == 1);
    }
    SECTION("nothing compared is not a pass") { CHECK_FALSE(compare_values(want, want, nullptr, 0).ok()); }
}

TEST_CASE("CSV fields are quoted only when they must be", "[table]") {
    CHECK(csv_field("naive") == "naive");
    CHECK(csv_field("a,b") == "\"a,b\"");
    CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
    CHECK(csv_row({"1", "x,y", ""}) == "1,\"x,y\",");
    CHECK(format_fixed(3.14159, 2) == "3.14");
    CHECK(format_general(2) == "2");
    CHECK(format_general(1.15) == "1.15");
    CHECK(format_general(0.5) == "0.5");
}

TEST_CASE("argument parser: values, defaults, both spellings, flags", "[args]") {
    ArgParser p("prog", "test");
    p.option("m", "M", "10", "rows");
    p.option("name", "TEXT", "x", "a name");
    p.option("ratio", "F", "0.5", "a number");
    p.flag("csv", "csv output");
    const char* argv[] = {"prog", "--m", "42", "--name=abc", "--csv"};
    p.parse(5, argv);
    CHECK(p.integer("m", 1, 100) == 42);
    CHECK(p.text("name") == "abc");
    CHECK(p.number("ratio", 0, 1) == 0.5);
    CHECK(p.is_set("csv"));
    CHECK(p.usage().find("--m M") != std::string::npos);
    CHECK(p.usage().find("(default 10)") != std::string::npos);
    CHECK(split_list("naive,,tiled") == std::vector<std::string>{"naive", "tiled"});
    CHECK(split_list("").empty());
    CHECK(join_list({"naive", "tiled"}, ", ") == "naive, tiled");
    CHECK(join_list({"naive"}, ",") == "naive");
    CHECK(join_list({}, ",").empty());
}

// The grader puts a lab's grading.args before a case's own: the case's value must win.
TEST_CASE("argument parser: an option given twice keeps the last value", "[args]") {
    ArgParser p("prog", "test");
    p.option("threads", "P", "0", "threads");
    const char* argv[] = {"prog", "--threads", "4", "--threads=1"};
    p.parse(4, argv);
    CHECK(p.integer("threads", 0, 64) == 1);
}

namespace {
cudaDeviceProp hopper_like() {
    cudaDeviceProp p{};
    p.maxThreadsPerBlock = 1024;
    p.maxThreadsDim[0] = 1024, p.maxThreadsDim[1] = 1024, p.maxThreadsDim[2] = 64;
    p.maxGridSize[0] = 2147483647, p.maxGridSize[1] = 65535, p.maxGridSize[2] = 65535;
    p.regsPerBlock = 65536;
    p.sharedMemPerBlock = 48 * 1024;
    p.sharedMemPerBlockOptin = 227 * 1024;
    return p;
}
std::string refusal(const LaunchConfig& c, KernelResources k = {32, 0, 1024}) {
    try {
        check_launch_limits(hopper_like(), k, c);
    } catch (const LaunchRefused& e) {
        return e.what();
    }
    return "";
}
}  // namespace

TEST_CASE("launch limits: each broken limit is named with its value", "[launch]") {
    CHECK(refusal({dim3(10, 10), dim3(32, 32), 0}).empty());
    CHECK(refusal({dim3(1), dim3(64, 32), 0}).find("2048 threads exceeds this GPU's limit of 1024 threads per block") !=
          std::string::npos);
    CHECK(refusal({dim3(1), dim3(1, 1, 128), 0}).find("block.z = 128 exceeds") != std::string::npos);
    CHECK(refusal({dim3(1), dim3(2048, 1), 0}).find("maxThreadsDim[0]") != std::string::npos);
    CHECK(refusal({dim3(1, 70000), dim3(32, 32), 0}).find("maxGridSize[1]") != std::string::npos);
    CHECK(refusal({dim3(0, 1), dim3(32, 32), 0}).find("grid.x is 0") != std::string::npos);
    CHECK(refusal({dim3(1), dim3(256), 0}, {255, 0, 256}).empty());
    CHECK(refusal({dim3(1), dim3(512), 0}, {255, 0, 256}).find("regsPerBlock") != std::string::npos);
    CHECK(refusal({dim3(1), dim3(256), 300 * 1024}).find("sharedMemPerBlockOptin") != std::string::npos);
    CHECK(refusal({dim3(1), dim3(256), 40 * 1024}, {32, 16 * 1024, 1024}).empty());
}

TEST_CASE("launch limits: more than 48 KB of dynamic shared memory needs the opt-in", "[launch]") {
    CHECK_FALSE(check_launch_limits(hopper_like(), {32, 0, 1024}, {dim3(1), dim3(256), 48 * 1024}));
    CHECK(check_launch_limits(hopper_like(), {32, 0, 1024}, {dim3(1), dim3(256), 64 * 1024}));
}
