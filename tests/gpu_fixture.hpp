// The GPU of a test binary's [gpu] cases: device 0 and one stream, made at first use (a run
// that filters the [gpu] cases out never touches CUDA) and kept for the whole run.
#pragma once
#include <cuda_runtime.h>

#include "catch.hpp"
#include "gpu.hpp"

struct TestGpu {
    GpuInfo info = require_gpu(0);
    cudaStream_t stream{};
    TestGpu() { REQUIRE(cudaStreamCreate(&stream) == cudaSuccess); }
    ~TestGpu() { cudaStreamDestroy(stream); }
};

inline TestGpu& gpu() {
    static TestGpu g;
    return g;
}
