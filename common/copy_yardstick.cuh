// The copy-kernel yardstick of the memory-bound labs (lab 2's transpose, lab 4's stencils):
// what one pass over memory costs when a kernel, not the copy engine, does it. A grid-stride
// loop of 16-byte loads and stores (a warp moves 512 bytes an instruction), 256 threads a
// block and at most 4096 blocks, which keeps enough bytes in flight to saturate HBM on the
// GPUs the course targets (lab 2, H200: 3 925 GB/s on a 256 MB matrix). One header, included
// by each trusted driver that times it; a student file may not use it (the labs' `forbidden`
// pattern names it).
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "cuda_check.hpp"

namespace {

// to[i] = from[i] for i < count floats: float4 in the loop, the last count % 4 floats after it.
// Both pointers 16-byte aligned (cudaMalloc and cudaMallocPitch give 256 or more).
__global__ void yardstick_copy_kernel(float* __restrict__ to, const float* __restrict__ from, size_t count) {
    const size_t quads = count / 4, start = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
    const size_t stride = size_t(blockDim.x) * gridDim.x;
    float4* to4 = reinterpret_cast<float4*>(to);
    const float4* from4 = reinterpret_cast<const float4*>(from);
    for (size_t i = start; i < quads; i += stride) to4[i] = from4[i];
    if (start < count % 4) to[4 * quads + start] = from[4 * quads + start];
}

// Puts one copy of `count` floats on `stream`; nothing for count 0.
inline void yardstick_copy_floats(float* to, const float* from, size_t count, cudaStream_t stream) {
    if (count == 0) return;
    constexpr unsigned threads = 256, max_blocks = 4096;
    const size_t blocks = std::min<size_t>((count / 4 + threads - 1) / threads, max_blocks);
    yardstick_copy_kernel<<<unsigned(std::max<size_t>(blocks, 1)), threads, 0, stream>>>(to, from, count);
    CUDA_CHECK(cudaGetLastError());
}

}  // namespace
