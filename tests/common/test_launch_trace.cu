// The launch trace, on a GPU (common/launch_trace.hpp): a launch is counted however it is
// spelled, the trusted driver's own are not, and nothing the program sets in its environment
// turns the trace off. A submission's code runs before main (static initialisers) and could set
// LD_PRELOAD or CUDA_INJECTION64_PATH, which once meant "a CUDA tool is attached": only
// compute-sanitizer as the process's parent does now.
#include <cstdlib>

#include "catch.hpp"
#include "device_buffer.hpp"
#include "gpu.hpp"
#include "launch_trace.hpp"

namespace {
__global__ void add_one(int* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1;
}
}  // namespace

TEST_CASE("the launch trace counts a <<< >>> launch, whatever the environment says", "[gpu][launch-trace]") {
    GpuInfo gpu = require_gpu(0);
    (void)gpu;
    REQUIRE(setenv("LD_PRELOAD", "libm.so.6", 1) == 0);  // the loader read it at the start: harmless now
    INFO("why the trace is off: " << launch_trace_off_reason());
    REQUIRE(start_launch_trace(LaunchTraceMode::automatic));
    DeviceBuffer<int> x(32);
    const LaunchCounts before = counted_launches();
    add_one<<<1, 32>>>(x.get(), 32);
    REQUIRE(cudaGetLastError() == cudaSuccess);
    CHECK(counted_launches().kernels == before.kernels + 1);
    {
        TrustedLaunches driver_work;
        add_one<<<1, 32>>>(x.get(), 32);
    }
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(counted_launches().kernels == before.kernels + 1);
    unsetenv("LD_PRELOAD");
}
