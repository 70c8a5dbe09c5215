// The CPU half of lab 7, without a GPU: the solution's OpenMP loops and the driver's OpenMP
// yardstick against the CPU reference (gamma_n bound, every element) on awkward sizes, with one
// thread and with more threads than rows, and each CPU part marks its work as done.
#include <cmath>
#include <limits>
#include <vector>

#include "catch.hpp"
#include "compare.hpp"
#include "lab7.hpp"
#include "openmp_yardstick.hpp"
#include "part_table.hpp"
#include "random_data.hpp"
#include "reference/matmul_reference.hpp"

namespace {

const std::vector<int> awkward_sizes = {1, 2, 3, 17, 31, 37, 64, 100, 129};
const std::vector<int> thread_counts = {1, 3, 8};

struct Inputs {
    std::vector<float> A, B;
    MatmulReference ref;
};

Inputs make_inputs(int n, uint64_t seed) {
    SeededRandom random(seed);
    Inputs in;
    in.A.resize(size_t(n) * n);
    in.B.resize(size_t(n) * n);
    for (float& a : in.A) a = random.uniform(-1, 1);
    for (float& b : in.B) b = random.uniform(-1, 1);
    in.ref = matmul_reference(in.A.data(), in.B.data(), n, n, n);
    return in;
}

Comparison compare(const std::vector<float>& C, const MatmulReference& ref) {
    std::vector<double> got(C.begin(), C.end());
    return compare_values(got.data(), ref.value.data(), ref.bound.data(), got.size());
}

}  // namespace

TEST_CASE("the solution's CPU parts match the CPU reference on awkward sizes", "[lab7]") {
    for (const ZeroCopyPart& part : zerocopy_parts()) {
        if (part.memory != Memory::host) continue;
        for (int n : awkward_sizes)
            for (int threads : thread_counts) {
                INFO("part " << part.name << ", n " << n << ", threads " << threads);
                Inputs in = make_inputs(n, 700 + n);
                std::vector<float> C(size_t(n) * n, std::numeric_limits<float>::quiet_NaN());
                cudaDeviceProp no_gpu{};
                Launcher launch(no_gpu, nullptr);
                part.cpu(HostMatmul{in.A.data(), in.B.data(), C.data(), n, threads}, launch);
                CHECK(launch.launches().size() == 1);  // note_host_work: the driver counts it as done
                Comparison c = compare(C, in.ref);
                CHECK(c.checked == C.size());
                CHECK(c.bad == 0);
            }
    }
}

TEST_CASE("the OpenMP yardstick matches the CPU reference on awkward sizes", "[lab7]") {
    for (int n : awkward_sizes)
        for (int threads : thread_counts) {
            INFO("n " << n << ", threads " << threads);
            Inputs in = make_inputs(n, 900 + n);
            std::vector<float> C(size_t(n) * n, std::numeric_limits<float>::quiet_NaN());
            openmp_yardstick_ikj(in.A.data(), in.B.data(), C.data(), n, threads);
            CHECK(compare(C, in.ref).bad == 0);
        }
}

TEST_CASE("the bound catches one product too many or too few", "[lab7]") {
    // The check above could not fail if the bound were loose: a C missing the last product of
    // its sums (the student report's dropped tail) must fail it.
    const int n = 37;
    Inputs in = make_inputs(n, 42);
    std::vector<float> C(size_t(n) * n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            float sum = 0;
            for (int k = 0; k < n - 1; ++k) sum += in.A[i * n + k] * in.B[k * n + j];
            C[i * n + j] = sum;
        }
    CHECK(compare(C, in.ref).bad > size_t(n) * n / 2);
}

TEST_CASE("lab 7's parts are the manifest's, CPU parts first", "[lab7]") {
    CHECK(part_names(zerocopy_parts()) == std::vector<std::string>{"cpu_ijk", "cpu_ikj", "zc_naive", "zc_tiled",
                                                                   "copy_naive", "copy_tiled", "managed_tiled", "stream"});
    CHECK(zerocopy_host_part_names() == std::vector<std::string>{"cpu_ijk", "cpu_ikj"});
}
