// The typed device buffer every driver keeps its data in, on a GPU: linear and pitched
// (cudaMallocPitch, the rows of lab 2), round trips, filling and device-to-device copies.
#include <cstdint>
#include <vector>

#include "catch.hpp"
#include "device_buffer.hpp"
#include "gpu.hpp"

namespace {
void need_gpu() {
    static GpuInfo gpu = require_gpu(0);
    (void)gpu;
}
}  // namespace

TEST_CASE("a linear buffer round-trips, fills and copies", "[gpu][buffer]") {
    need_gpu();
    std::vector<int32_t> host = {1, -2, 3, 2147483647, 5};
    DeviceBuffer<int32_t> a(host.size()), b(host.size());
    a.upload(host);
    CHECK(a.download() == host);
    b.fill_bytes(0xFF, nullptr);
    REQUIRE(cudaStreamSynchronize(nullptr) == cudaSuccess);
    CHECK(b.download() == std::vector<int32_t>(host.size(), -1));
    b.copy_from(a, nullptr);
    REQUIRE(cudaStreamSynchronize(nullptr) == cudaSuccess);
    CHECK(b.download() == host);
    CHECK(a.pitch_bytes() == host.size() * sizeof(int32_t));
}

TEST_CASE("a pitched buffer pads its rows and round-trips without the padding", "[gpu][buffer]") {
    need_gpu();
    const size_t width = 1000, height = 7;  // an earlier course saw a pitch of 4096 bytes here
    std::vector<int32_t> host(width * height);
    for (size_t i = 0; i < host.size(); ++i) host[i] = int32_t(i * 7 - 3);
    DeviceBuffer<int32_t> a = DeviceBuffer<int32_t>::pitched(width, height);
    INFO("pitch " << a.pitch_bytes() << " bytes for rows of " << width * sizeof(int32_t));
    CHECK(a.pitch_bytes() >= width * sizeof(int32_t));
    CHECK(a.pitch_bytes() % 128 == 0);
    CHECK(a.count() == host.size());
    CHECK(a.bytes_allocated() == a.pitch_bytes() * height);
    a.upload(host);
    CHECK(a.download() == host);
    DeviceBuffer<int32_t> b = DeviceBuffer<int32_t>::pitched(width, height);
    b.fill_bytes(0, nullptr);
    b.copy_from(a, nullptr);
    REQUIRE(cudaStreamSynchronize(nullptr) == cudaSuccess);
    CHECK(b.download() == host);
}

TEST_CASE("a buffer moved from frees nothing twice", "[gpu][buffer]") {
    need_gpu();
    DeviceBuffer<float> a(16);
    float* p = a.get();
    DeviceBuffer<float> b(std::move(a));
    CHECK(b.get() == p);
    CHECK(a.get() == nullptr);
}
