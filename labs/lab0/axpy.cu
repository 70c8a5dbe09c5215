// Lab 0: z = a x + y on the GPU. This is the file you edit (handouts/lab0-first-steps.md).
//
// Part one_per_thread is written, with one mistake left in: run `make lab0` first and watch its
// check fail, then fix it (TODO 1). Part grid_stride is yours to write (TODO 2).
#include "axpy.h"

namespace {

// One thread an element: thread i of the whole grid computes z[i].
__global__ void axpy_kernel(float a, const float* x, const float* y, float* z, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    // TODO 1b: once the grid is rounded up (TODO 1a), the last block has threads past the end of
    // the arrays: they must not read x and y or write z there. Test i against n.
    z[i] = a * x[i] + y[i];
}

}  // namespace

void axpy_one_per_thread(const Axpy& p, Launcher& launch) {
    // TODO 1a: n / block rounds down, so when the block does not divide n the last n % block
    // elements get no thread and z keeps its garbage there (the check says which element).
    // Round up: (n + block - 1) / block blocks.
    const int grid = p.n / p.block;
    launch(axpy_kernel, grid, p.block, 0, p.a, p.x, p.y, p.z, p.n);
}

void axpy_grid_stride(const Axpy& p, Launcher& launch) {
    // TODO 2: a kernel in which each thread starts at its index in the grid, blockIdx.x *
    // blockDim.x + threadIdx.x, and steps by the number of threads in the grid, gridDim.x *
    // blockDim.x, while it is below n: any grid then covers every element. Launch it here with
    // p.block threads a block and a grid of at most 4 * p.sms blocks, and fewer when n needs
    // fewer: min(4 * p.sms, (n + block - 1) / block).
    (void)p;
    (void)launch;
}
