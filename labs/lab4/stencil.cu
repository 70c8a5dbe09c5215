// Lab 4: stencils. THIS is the file you edit.
//
// `make lab4` runs every part on one case, checks it against a CPU reference and times it
// beside a copy kernel that moves the same bytes (the table's "%" column) and an empty kernel
// (row `launch`: the least any launch costs). A part that launches nothing shows "not
// implemented". The interface, and what each array holds, is in stencil.h; the handout is
// handouts/lab4-stencil.md. Every size must work: n = 1, primes, sizes that are not a
// multiple of the block or of 4, a 1 x 1 image, a single row or column, radius 0 to 8.
#include "cuda_check.hpp"  // CUDA_CHECK(call): stops with the runtime's message when a call fails
#include "stencil.h"

// ---------------------------------------------------------------------------------
// TODO 1: the stencil, reading A from global memory.
//     B[i] = (A[i]^2 + 2 A[i+1]^2 + A[i+2]^2 - 3 A[i+3]^2 + 5 A[i+4]^2) / 24,  0 <= i < n.
// Start with one output a thread: i from the block and thread indices, and threads with i >= n
// do nothing (the grid is rounded up). Read A (never B: the student report's global kernel read
// B), and square (the report used fifth powers: pow(x, 5)). x * x is a square; so is pow(x, 2),
// slower. Then, for the speed the grade expects, 4 outputs a thread (handout, task 7).
__global__ void stencil_global_kernel(const float* A, float* B, int n) {
    // TODO 1a
}

void stencil_global(const Stencil1D& s, int block, Launcher& launch) {
    // TODO 1b: enough blocks of `block` threads to cover n outputs, then
    //          launch(stencil_global_kernel, grid, block, 0, s.A, s.B, s.n);
    (void)s, (void)block, (void)launch;
}

// ---------------------------------------------------------------------------------
// TODO 2: the same stencil through shared memory. A block of T threads computing outputs
// B[base .. base + T) needs the tile A[base .. base + T + 4): its own T values plus a halo of
// 2 on each side of the outputs' centres. Load the tile (the last threads also load the 4 halo
// values; past A's n + 4 values load nothing or 0), wait at a barrier, then compute from the
// tile. Index the tile with the index INSIDE the block (the report used the global index: out of
// the tile's bounds in every block but the first), and put the barrier where EVERY thread of
// the block reaches it (the report put __syncthreads() inside `if (i < n)`).
__global__ void stencil_shared_kernel(const float* A, float* B, int n) {
    // TODO 2a: extern __shared__ float tile[];   (its size is the launch's dynamic_shared_bytes)
}

void stencil_shared(const Stencil1D& s, int block, Launcher& launch) {
    // TODO 2b: launch(stencil_shared_kernel, grid, block, (block + 4) * sizeof(float), s.A, s.B, s.n);
    (void)s, (void)block, (void)launch;
}

// ---------------------------------------------------------------------------------
// TODO 3: the maximum of m.B (n floats, mixed signs) into m.result[0], exactly.
// First pass: each block reduces its share of B in shared memory (halve the active threads
// each step, `for (s = ...; s > 0; s >>= 1)`, with a barrier after each step, outside any
// branch) and writes its maximum to m.partial[blockIdx.x]. Final pass: one block reduces the
// partial maxima into m.result. Start every running maximum at -INFINITY: B may be all
// negative. Handle any n and any block size, including ones that are not powers of two.
__global__ void max_kernel(const float* in, int count, float* out) {
    // TODO 3a: extern __shared__ float best[];
}

void max_reduce(const MaxReduction& m, int block, Launcher& launch) {
    // TODO 3b: launch(max_kernel, blocks, block, block * sizeof(float), m.B, m.n, m.partial);
    //          launch(max_kernel, 1, block, block * sizeof(float), m.partial, blocks, m.result);
    (void)m, (void)block, (void)launch;
}

// ---------------------------------------------------------------------------------
// TODO 4: the filter in constant memory, declared here for you. The declaration stays inside
// this unnamed namespace: the grader refuses a C-like name (one outside any namespace) that a
// submission defines. [[maybe_unused]] only silences the compiler until a kernel reads it.
namespace {
[[maybe_unused]] __constant__ float filter_taps[max_filter_taps];
}

void upload_filter(const float* filter, int radius) {
    // TODO 4: copy the (2 radius + 1)^2 floats of `filter` into filter_taps:
    //         CUDA_CHECK(cudaMemcpyToSymbol(filter_taps, filter, bytes));
    (void)filter, (void)radius;
}

// ---------------------------------------------------------------------------------
// TODO 5: the convolution, reading the image from global memory (the course slides' loop):
//     tmp = 0; for (ik = -r..r) for (jk = -r..r) tmp += in[i+ik][j+jk] * filter[ik+r][jk+r];
// where in[][] outside the image is 0: skip those taps. One output a thread; 2D blocks (32 x 8,
// say), x along the columns. filter[a][b] is filter_taps[a * (2r + 1) + b].
__global__ void conv_global_kernel(const float* in, float* out, int width, int height, int radius) {
    // TODO 5a
}

void conv_global(const Convolution2D& c, Launcher& launch) {
    // TODO 5b: launch(conv_global_kernel, grid, block, 0, c.in, c.out, c.width, c.height, c.radius);
    (void)c, (void)launch;
}

// ---------------------------------------------------------------------------------
// TODO 6: the convolution through a shared tile. A block computing a BH x BW tile of outputs
// loads the (BH + 2r) x (BW + 2r) inputs around it (zeros outside the image) into shared
// memory, waits at a barrier, and computes from the tile. Dynamic shared memory sized from the
// radius, or a template on the radius (switch (c.radius) { case 0: ... }) with a static tile.
// Handout, section 3.7 (The convolution: border rule, tile and halo): several outputs a thread,
// for the goal at 8192 x 8192, r = 2 (task 9).
__global__ void conv_shared_kernel(const float* in, float* out, int width, int height, int radius) {
    // TODO 6a
}

void conv_shared(const Convolution2D& c, Launcher& launch) {
    // TODO 6b
    (void)c, (void)launch;
}
