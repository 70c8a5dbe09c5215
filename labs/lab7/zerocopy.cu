// Lab 7: zero-copy vs OpenMP. THIS is the file you edit.
//
// The same N x N float matrix product C = A * B (row-major) on the CPU with OpenMP and on
// the GPU reading host memory directly, then on device memory and managed memory for
// comparison, and a kernel that streams mapped memory once. `make lab7` checks every part
// against a CPU reference and times it beside a trusted OpenMP run and a pinned cudaMemcpy.
// A part that does nothing shows "not implemented". Interface and rules: zerocopy.h.
// Handout: handouts/lab7-zero-copy-openmp.md. Every n >= 1 must work, not only multiples of
// the tile. Do the TODOs in order: the GPU parts need TODO 2 first.
#include <omp.h>

#include "zerocopy.h"

// ---------------------------------------------------------------------------------
// 1. CPU parts, with OpenMP (the build adds -fopenmp).

void matmul_cpu_ijk(const HostMatmul& p, Launcher& launch) {
    // TODO 1a: C[i][j] = sum over k of A[i][k] * B[k][j], loops in the order i, j, k, the
    //          outer loop shared among p.threads threads:
    //              #pragma omp parallel for num_threads(p.threads)
    //          Which variables must be private to a thread, and why may no two threads add into
    //          the same accumulator? (handout, question 1 (In your `parallel for`))
    // TODO 1b: then say the work is done: launch.note_host_work();
    (void)p, (void)launch;
}

void matmul_cpu_ikj(const HostMatmul& p, Launcher& launch) {
    // TODO 1c: the same product, loops in the order i, k, j: row i of C starts at 0, then
    //          gets A[i][k] * (row k of B) added for every k. Why is it faster? (question 2 (Why is i-k-j faster))
    // TODO 1d: launch.note_host_work();
    (void)p, (void)launch;
}

// ---------------------------------------------------------------------------------
// 2. Memory the GPU reads in place. Return nullptr until done: the parts show "not implemented".

float* alloc_mapped(size_t count, float** device) {
    // TODO 2a: check that the GPU can map host memory (cudaDeviceGetAttribute with
    //          cudaDevAttrCanMapHostMemory; if not, throw std::runtime_error with a clear
    //          message), then cudaSetDeviceFlags(cudaDeviceMapHost),
    //          cudaHostAlloc(&host, count * sizeof(float), cudaHostAllocMapped) and
    //          cudaHostGetDevicePointer(device, host, 0). Check every call (CUDA_CHECK).
    (void)count, (void)device;
    return nullptr;
}

float* alloc_managed(size_t count) {
    // TODO 2b: cudaMallocManaged.
    (void)count;
    return nullptr;
}

// ---------------------------------------------------------------------------------
// 3. Kernels: the same two serve the zero-copy, explicit-copy and managed parts.

__global__ void naive_kernel(const float* A, const float* B, float* C, int n) {
    // TODO 3a: one thread per element of C (row from the y indices, column from x); threads
    //          outside C do nothing. Keep the sum in a register and store C once: the student report's
    //          kernel did `C[...] += ...` inside the loop, which needs a zeroed C and, with
    //          mapped memory, reads and writes host memory over PCIe at every step.
}

template <int T>
__global__ void tiled_kernel(const float* A, const float* B, float* C, int n) {
    // TODO 3b: T x T tiles of A and B in shared memory, ceil(n / T) tiles along k (the report
    //          looped n / T times and so dropped the last, partial tile): load one element of
    //          each tile (0 outside the matrix), barrier, T multiply-adds, barrier.
}

// ---------------------------------------------------------------------------------
// 4. GPU parts.

void zc_naive(const GpuMatmul& mapped, int tile, Launcher& launch) {
    // TODO 4a: tile x tile blocks, enough to cover C:
    //          launch(naive_kernel, grid, block, 0, mapped.A, mapped.B, mapped.C, mapped.n);
    (void)mapped, (void)tile, (void)launch;
}

void zc_tiled(const GpuMatmul& mapped, int tile, Launcher& launch) {
    // TODO 4b: the instantiation for --tile chosen at run time:
    //          switch (tile) { case 8: launch(tiled_kernel<8>, ...); break; case 16: ... case 32: ... }
    //          and for any other tile: throw LaunchRefused("... tiles 8, 16 and 32 only");
    (void)mapped, (void)tile, (void)launch;
}

void copy_naive(const CopyMatmul& p, int tile, Launcher& launch) {
    // TODO 4c: cudaMemcpyAsync A and B to the device on launch.stream(), launch the naive
    //          kernel on p.dA, p.dB, p.dC, cudaMemcpyAsync C back to p.hC. The copies count in
    //          the time: that is the price zero-copy avoids.
    (void)p, (void)tile, (void)launch;
}

void copy_tiled(const CopyMatmul& p, int tile, Launcher& launch) {
    // TODO 4d: the same with the tiled kernel.
    (void)p, (void)tile, (void)launch;
}

void managed_tiled(const GpuMatmul& managed, int tile, Launcher& launch) {
    // TODO 4e: cudaMemPrefetchAsync A, B (and C) to this GPU (a cudaMemLocation of type
    //          cudaMemLocationTypeDevice, id from cudaGetDevice) on launch.stream(), the tiled
    //          kernel, then C back to the host (cudaMemLocationTypeHost).
    (void)managed, (void)tile, (void)launch;
}

// ---------------------------------------------------------------------------------
// 5. Streaming: read p.count floats of mapped memory once, store them in p.dst.

void stream_mapped(const StreamCopy& p, Launcher& launch) {
    // TODO 5: a kernel that copies p.src to p.dst (every element, count need not be a multiple
    //         of anything), then make it fast: the goal is 85% of the pinned cudaMemcpy's GB/s
    //         in the same table. Think about bytes in flight (handout, "Streaming").
    (void)p, (void)launch;
}
