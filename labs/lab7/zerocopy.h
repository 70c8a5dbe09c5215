// Lab 7 interface between the trusted driver (lab7.cu) and the file you edit
// (zerocopy.cu). Do not change this file: the grader builds your zerocopy.cu against the
// original.
//
// Every matmul part computes C = A * B for N x N row-major float matrices: element (row, col)
// of A at A[row * n + col]. Any n >= 1 must work, including sizes that are not multiples of
// the tile. The driver makes A and B (new ones for every run, untimed), checks C and times every
// part; where the matrices live differs from part to part, and that difference is the lesson.
//
// GPU parts launch their kernels through `launch` instead of <<< >>>:
//     launch(kernel, grid, block, dynamic_shared_bytes, kernel arguments...);
// and put copies and prefetches on launch.stream() (asynchronous calls only: the driver times
// the stream with CUDA events and must not be made to wait inside your function). CPU parts
// compute on the host and then call launch.note_host_work(). A part that does neither is
// reported as "not implemented".
#pragma once
#include <cstddef>

#include "launcher.cuh"

// ---- CPU parts (OpenMP) -------------------------------------------------------------------
struct HostMatmul {
    const float* A;  // host memory, n x n
    const float* B;  // host memory, n x n
    float* C;        // host memory, n x n; its old contents are garbage (NaN), overwrite them
    int n;
    int threads;     // OpenMP threads to use: --threads (default: every core); the driver runs
                     // the part on exactly that many CPUs, so more threads buy nothing
};
void matmul_cpu_ijk(const HostMatmul& p, Launcher& launch);  // loops i, j, k
void matmul_cpu_ikj(const HostMatmul& p, Launcher& launch);  // loops i, k, j

// ---- Memory the GPU reads in place ------------------------------------------------------
// Called once per case, before any GPU part runs and untimed. Each returns the host address of
// `count` floats, or nullptr where not implemented (the parts using it then show "not
// implemented"). The driver fills them, checks what kind of memory they are
// (cudaPointerGetAttributes) and frees them (cudaFreeHost, cudaFree).
//
// Pinned host memory mapped into the GPU's address space (zero-copy); *device receives the
// address kernels use for it.
float* alloc_mapped(size_t count, float** device);
// Managed (unified) memory: one address for host and device; the driver moves it to the host
// before every run, so each run starts with the data where the other parts' data is.
float* alloc_managed(size_t count);

// ---- GPU parts ------------------------------------------------------------------------
// Pointers a kernel can dereference (mapped, device or managed), n x n each.
struct GpuMatmul {
    const float* A;
    const float* B;
    float* C;  // garbage (NaN) before every run
    int n;
};
// Zero-copy: A, B and C are mapped host memory (alloc_mapped's device pointers); every load
// a kernel makes crosses PCIe. `tile` is --tile: 8, 16 or 32, blocks of tile x tile threads.
void zc_naive(const GpuMatmul& mapped, int tile, Launcher& launch);
void zc_tiled(const GpuMatmul& mapped, int tile, Launcher& launch);

// Explicit copies: the same kernels on device memory; the copies are part of the part's time.
struct CopyMatmul {
    const float* hA;  // pinned host memory (cudaMallocHost), n x n
    const float* hB;
    float* hC;        // the result goes here, on the host
    float* dA;        // device memory, n x n each
    float* dB;
    float* dC;
    int n;
};
void copy_naive(const CopyMatmul& p, int tile, Launcher& launch);
void copy_tiled(const CopyMatmul& p, int tile, Launcher& launch);

// Managed memory (alloc_managed's pointers), starting on the host: prefetch, multiply with the
// tiled kernel, prefetch C back.
void managed_tiled(const GpuMatmul& managed, int tile, Launcher& launch);

// ---- Streaming ------------------------------------------------------------------------
// Read `count` floats of mapped host memory once and store them in device memory, as fast as
// PCIe allows (the driver times a pinned cudaMemcpy of the same bytes beside it).
struct StreamCopy {
    const float* src;  // mapped host memory (alloc_mapped's device pointer)
    float* dst;        // device memory; garbage before every run
    size_t count;
};
void stream_mapped(const StreamCopy& p, Launcher& launch);
