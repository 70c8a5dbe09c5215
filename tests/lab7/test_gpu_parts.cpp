// Every GPU part of the reference solution against the CPU reference on awkward sizes and
// every tile, on a GPU: matrices in the memory each part is meant for (mapped, device with
// copies, managed), outputs poisoned with NaN before each run, every element compared; the
// streaming part copies exactly, for counts that are and are not multiples of its vector width.
#include <cuda_runtime.h>

#include <cstring>
#include <random>
#include <vector>

#include "catch.hpp"
#include "gpu_fixture.hpp"
#include "compare.hpp"
#include "device_buffer.hpp"
#include "gpu.hpp"
#include "lab7.hpp"
#include "random_data.hpp"
#include "reference/matmul_reference.hpp"

namespace {

const std::vector<int> awkward_sizes = {1, 2, 7, 17, 31, 33, 37, 64, 65, 100, 129, 257};

// The three matrices of one part, in that part's memory, freed at the end.
struct Matrices {
    float *A = nullptr, *B = nullptr, *C = nullptr;           // host-side addresses
    float *dA = nullptr, *dB = nullptr, *dC = nullptr;        // what kernels use
    std::vector<void*> host_frees, device_frees;
    ~Matrices() {
        for (void* p : host_frees) cudaFreeHost(p);
        for (void* p : device_frees) cudaFree(p);
    }
};

void allocate(Matrices& m, Memory memory, size_t count) {
    if (memory == Memory::mapped) {
        m.A = alloc_mapped(count, &m.dA);
        m.B = alloc_mapped(count, &m.dB);
        m.C = alloc_mapped(count, &m.dC);
        m.host_frees = {m.A, m.B, m.C};
    } else if (memory == Memory::managed) {
        m.A = m.dA = alloc_managed(count);
        m.B = m.dB = alloc_managed(count);
        m.C = m.dC = alloc_managed(count);
        m.device_frees = {m.A, m.B, m.C};
    } else {  // device copies: pinned host ends, device buffers
        for (float** p : {&m.A, &m.B, &m.C}) REQUIRE(cudaMallocHost(reinterpret_cast<void**>(p), count * 4) == cudaSuccess);
        for (float** p : {&m.dA, &m.dB, &m.dC}) REQUIRE(cudaMalloc(reinterpret_cast<void**>(p), count * 4) == cudaSuccess);
        m.host_frees = {m.A, m.B, m.C};
        m.device_frees = {m.dA, m.dB, m.dC};
    }
    REQUIRE(m.A);
    REQUIRE(m.B);
    REQUIRE(m.C);
}

Comparison run_and_compare(const ZeroCopyPart& part, int n, int tile, uint64_t seed) {
    const size_t count = size_t(n) * n;
    Matrices m;
    allocate(m, part.memory, count);
    SeededRandom random(seed);
    for (size_t i = 0; i < count; ++i) m.A[i] = random.uniform(-1, 1);
    for (size_t i = 0; i < count; ++i) m.B[i] = random.uniform(-1, 1);
    std::memset(m.C, 0xFF, count * 4);  // NaN: an element never written fails
    if (m.dC != m.C) REQUIRE(cudaMemset(m.dC, 0xFF, count * 4) == cudaSuccess);

    Launcher launch(gpu().info.prop, gpu().stream);
    if (part.memory == Memory::device_copies)
        part.copy(CopyMatmul{m.A, m.B, m.C, m.dA, m.dB, m.dC, n}, tile, launch);
    else
        part.gpu(GpuMatmul{m.dA, m.dB, m.dC, n}, tile, launch);
    REQUIRE(!launch.launches().empty());
    REQUIRE(cudaStreamSynchronize(gpu().stream) == cudaSuccess);

    MatmulReference ref = matmul_reference(m.A, m.B, n, n, n);
    std::vector<double> got(m.C, m.C + count);
    return compare_values(got.data(), ref.value.data(), ref.bound.data(), got.size());
}

uint64_t fresh_seed() { return std::random_device{}(); }

}  // namespace

TEST_CASE("every GPU matmul part of the solution matches the CPU reference on awkward sizes", "[gpu][lab7]") {
    for (const ZeroCopyPart& part : zerocopy_parts()) {
        if (part.memory == Memory::host || part.memory == Memory::stream) continue;
        for (int tile : {8, 16, 32})
            for (int n : awkward_sizes) {
                uint64_t seed = fresh_seed();
                INFO("part " << part.name << ", tile " << tile << ", n " << n << ", seed " << seed);
                Comparison c = run_and_compare(part, n, tile, seed);
                CHECK(c.checked == size_t(n) * n);
                CHECK(c.bad == 0);
            }
    }
}

TEST_CASE("a tile the kernels are not compiled for is refused, not run", "[gpu][lab7]") {
    Matrices m;
    allocate(m, Memory::mapped, 16);
    Launcher launch(gpu().info.prop, gpu().stream);
    CHECK_THROWS_AS(zc_tiled(GpuMatmul{m.dA, m.dB, m.dC, 4}, 12, launch), LaunchRefused);
}

TEST_CASE("the streaming part copies mapped memory exactly, whatever the count", "[gpu][lab7]") {
    for (size_t count : {size_t(1), size_t(3), size_t(4), size_t(5), size_t(1023), size_t(1000003),
                         size_t(4096) * 256 * 4 * 4 + 7}) {
        INFO("count " << count);
        float* device_src = nullptr;
        float* src = alloc_mapped(count, &device_src);
        REQUIRE(src);
        for (size_t i = 0; i < count; ++i) src[i] = float(i % 999983) + 0.25f;
        DeviceBuffer<float> dst(count);
        dst.fill_bytes(0xFF, gpu().stream);
        Launcher launch(gpu().info.prop, gpu().stream);
        stream_mapped(StreamCopy{device_src, dst.get(), count}, launch);
        REQUIRE(cudaStreamSynchronize(gpu().stream) == cudaSuccess);
        std::vector<float> got = dst.download();
        size_t bad = 0;
        for (size_t i = 0; i < count; ++i) bad += std::memcmp(&got[i], &src[i], 4) != 0;
        CHECK(bad == 0);
        cudaFreeHost(src);
    }
}

TEST_CASE("alloc_mapped and alloc_managed return the kind of memory the driver checks for", "[gpu][lab7]") {
    float* device = nullptr;
    float* host = alloc_mapped(100, &device);
    cudaPointerAttributes a{};
    REQUIRE(cudaPointerGetAttributes(&a, host) == cudaSuccess);
    CHECK(a.type == cudaMemoryTypeHost);
    CHECK(a.devicePointer == device);
    cudaFreeHost(host);
    float* managed = alloc_managed(100);
    REQUIRE(cudaPointerGetAttributes(&a, managed) == cudaSuccess);
    CHECK(a.type == cudaMemoryTypeManaged);
    cudaFree(managed);
}
