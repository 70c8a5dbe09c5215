// The launcher, on a GPU: every launch of a part is recorded (a part may launch several
// kernels: a reduction's two passes, a sort's many steps), and host work counts as done.
#include <vector>

#include "catch.hpp"
#include "device_buffer.hpp"
#include "gpu.hpp"
#include "launcher.cuh"

namespace {
__global__ void add_one(int* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1;
}
}  // namespace

TEST_CASE("the launcher records every launch of a part, in order", "[gpu][launcher]") {
    GpuInfo gpu = require_gpu(0);
    DeviceBuffer<int> x(100);
    x.upload(std::vector<int>(100, 0));
    Launcher launch(gpu.prop, nullptr);
    launch(add_one, dim3(4), dim3(32), 0, x.get(), 100);
    launch(add_one, dim3(1), dim3(128), 0, x.get(), 100);
    launch(add_one, dim3(2), dim3(64), 0, x.get(), 100);
    REQUIRE(cudaStreamSynchronize(nullptr) == cudaSuccess);
    CHECK(x.download() == std::vector<int>(100, 3));
    REQUIRE(launch.launches().size() == 3);
    CHECK(launch.launches()[1].block.x == 128);
    CHECK(launch.launches()[2].grid.x == 2);
    launch.note_host_work();
    CHECK(launch.launches().size() == 4);
    CHECK(launch.launches()[3].block.x == 0);  // host work: no block
    launch.forget_launches();
    CHECK(launch.launches().empty());
}
