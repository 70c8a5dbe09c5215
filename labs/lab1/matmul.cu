// Lab 1: matrix multiplication with tiling. THIS is the file you edit.
//
// Each rung computes C = A * B (row-major floats, A is M x K, B is K x N, C is M x N) and
// launches its kernel through `launch(kernel, grid, block, dynamic_shared_bytes, args...)`
// (see matmul.h). `make lab1` checks every rung against a CPU reference and times it
// against cuBLAS. A rung whose host function launches nothing shows "not implemented".
// Handout: handouts/lab1-matmul-tiling.md. Every size must work: M, N, K >= 1, not only
// multiples of the tile.
#include "matmul.h"

// ---------------------------------------------------------------------------------
// Rung 1: naive. One thread per element of C.
__global__ void naive_kernel(const float* A, const float* B, float* C, int M, int N, int K) {
    // TODO 1a: compute this thread's row and column of C. Matrix element [i][j] is
    //          CUDA position (y, x): the row comes from the y indices.
    // TODO 1b: threads outside C must do nothing (the grid is rounded up).
    // TODO 1c: C[row][col] = sum over k of A[row][k] * B[k][col].
}

void matmul_naive(const MatmulProblem& p, int tile, Launcher& launch) {
    // TODO 1d: blocks of tile x tile threads, enough blocks to cover all of C, then
    //          launch(naive_kernel, grid, block, 0, p.A, p.B, p.C, p.M, p.N, p.K);
    (void)p, (void)tile, (void)launch;
}

// ---------------------------------------------------------------------------------
// Rung 2: shared-memory tiles, the tile size T a template parameter.
template <int T>
__global__ void tiled_kernel(const float* A, const float* B, float* C, int M, int N, int K) {
    // TODO 2a: declare T x T shared arrays for a tile of A and a tile of B.
    // TODO 2b: loop over ALL tiles along K, ceil(K / T) of them (the last may be partial):
    //          each thread loads one element of each tile (0 outside the matrix),
    //          waits for the whole tile, accumulates T products, and waits again before
    //          the tile is overwritten. Which barrier is which, and why both are needed,
    //          is question 4 (The two barriers) of the handout.
    // TODO 2c: store the result if the thread is inside C.
}

void matmul_tiled(const MatmulProblem& p, int tile, Launcher& launch) {
    // TODO 2d: choose the instantiation at run time, for tiles 8, 16 and 32 (the sweep
    //          uses all three):
    //          switch (tile) { case 8: launch(tiled_kernel<8>, ...); break; case 16: ... }
    //          and for any other tile:
    //          throw LaunchRefused("the tiled rung is compiled for tiles 8, 16 and 32 only");
    (void)p, (void)tile, (void)launch;
}

// ---------------------------------------------------------------------------------
// Rung 3: tiles in dynamically allocated shared memory (extern __shared__ float s[];),
// its size given at launch time as the 4th launch argument. The tile side T is a template
// parameter, as in rung 2; the depth is a run-time argument.
template <int T>
__global__ void dynamic_kernel(const float* A, const float* B, float* C, int M, int N, int K, int depth) {
    // TODO 3a: the tiled kernel with its shared arrays carved out of one dynamic buffer.
    //          Dynamic memory lets the size be a run-time choice: stage `depth` tiles of K
    //          per barrier (a T x depth*T strip of A and a depth*T x T strip of B; handout,
    //          rung 3) and measure what it buys (make lab1 ARGS="--depth 4").
}

void matmul_dynamic(const MatmulProblem& p, int tile, int depth, Launcher& launch) {
    // TODO 3b: launch with the number of bytes of shared memory the kernel needs, choosing
    //          the instantiation as in TODO 2d: launch(dynamic_kernel<8>, grid, block, bytes,
    //          ..., depth) for tile 8, and so on for 16 and 32; LaunchRefused for any other.
    //          The driver checks that this rung asks for dynamic shared memory.
    (void)p, (void)tile, (void)depth, (void)launch;
}

// ---------------------------------------------------------------------------------
// Rung 4: thread coarsening. A 32 x 16 block computes a 32 x 32 tile of C; each thread
// computes C[i][j] and C[i + 16][j].
__global__ void coarse2_kernel(const float* A, const float* B, float* C, int M, int N, int K) {
    // TODO 4a: each thread loads two elements of each tile and keeps two sums.
}

void matmul_coarse2(const MatmulProblem& p, Launcher& launch) {
    // TODO 4b: dim3 block(32, 16); one block per 32 x 32 tile of C.
    (void)p, (void)launch;
}

// ---------------------------------------------------------------------------------
// Rung 5: register blocking. Each thread computes a small block of C (for example 8 x 8)
// held in registers, from fragments of A and B read from shared memory once per k.
__global__ void regblock_kernel(const float* A, const float* B, float* C, int M, int N, int K) {
    // TODO 5a: see the handout, rung 5: register blocking first, then warp tiling and
    //          double buffering, measuring each step.
}

void matmul_regblock(const MatmulProblem& p, Launcher& launch) {
    // TODO 5b: launch it.
    (void)p, (void)launch;
}
