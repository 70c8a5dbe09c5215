// Lab 0 reference solution: z = a x + y, one thread an element and grid-stride.
#include <algorithm>

#include "axpy.h"

namespace {

// One thread an element: thread i of the whole grid computes z[i]; the last block's threads
// past the end do nothing.
__global__ void axpy_kernel(float a, const float* x, const float* y, float* z, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = a * x[i] + y[i];
}

// Each thread from its index in the grid, a whole grid of threads at a step: any grid covers
// every element.
__global__ void axpy_grid_stride_kernel(float a, const float* x, const float* y, float* z, int n) {
    const int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) z[i] = a * x[i] + y[i];
}

}  // namespace

void axpy_one_per_thread(const Axpy& p, Launcher& launch) {
    const int grid = (p.n + p.block - 1) / p.block;
    launch(axpy_kernel, grid, p.block, 0, p.a, p.x, p.y, p.z, p.n);
}

void axpy_grid_stride(const Axpy& p, Launcher& launch) {
    const int grid = std::min(4 * p.sms, (p.n + p.block - 1) / p.block);
    launch(axpy_grid_stride_kernel, grid, p.block, 0, p.a, p.x, p.y, p.z, p.n);
}
