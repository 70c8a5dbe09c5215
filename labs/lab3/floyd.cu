// Lab 3: Floyd-Warshall. THIS is the file you edit.
//
// `make lab3` runs every part on one graph, checks it exactly against the CPU's triple loop and
// times it beside the CPU (fw_1d, fw_2d), the plain 2D kernel (fw_blocked) and the CPU's loop
// over the matrix (diameter). A part that launches nothing shows "not implemented".
// Handout: handouts/lab3-floyd-warshall.md; the interface and FW_INF: floyd.h.
// Every N must work: 1, 2, primes, sizes that are not multiples of the block or of your tile,
// and graphs where some vertices cannot reach others (FW_INF).
//
// Floyd-Warshall, for k = 0 .. n-1 in order, for every i and j:
//     dist[i][j] = min(dist[i][j], dist[i][k] + dist[k][j])
// Step k may update every (i, j) at once: row k and column k do not change in step k
// (dist[k][k] = 0), so no thread needs a value another thread writes in the same step. Step
// k + 1 needs all of step k: on the GPU, that is one launch per k (parts 1 and 2), or the
// blocked algorithm's phases (part 3).
#include "floyd.h"

// ---------------------------------------------------------------------------------
// TODO 1: one thread per element, 1D blocks, one launch per k.
__global__ void fw_1d_kernel(int* dist, int n, int k) {
    // TODO 1a: the thread's element from its global index (blockIdx.x * blockDim.x +
    //          threadIdx.x): row i, column j. Threads past the n * n elements do nothing.
    //          Then the relaxation of dist[i][j] through k. FW_INF + FW_INF fits in an int.
}

void fw_1d(int* dist, int n, int block, Launcher& launch) {
    // TODO 1b: block * block threads a block (--block squared), enough blocks for
    //          n * n elements, and for (int k = 0; k < n; ++k) launch(fw_1d_kernel, grid,
    //          threads, 0, dist, n, k); (launches on one stream run in order: no sync needed).
    (void)dist, (void)n, (void)block, (void)launch;
}

// ---------------------------------------------------------------------------------
// TODO 2: the same with a 2D grid of block x block 2D blocks.
__global__ void fw_2d_kernel(int* dist, int n, int k) {
    // TODO 2a: column j from the x indices, row i from the y indices (which one makes a warp
    //          read consecutive ints? handout, question 2 (Which index goes along x)); threads outside the matrix do
    //          nothing. The student report this lab quotes went on to a flat index
    //          ij = i * n + j and back to i and j: handout, question 3 (The report's index detour) asks what that bought.
}

void fw_2d(int* dist, int n, int block, Launcher& launch) {
    // TODO 2b: dim3 threads(block, block) and a grid that covers every row and column (round
    //          up: n need not be a multiple of block); one launch per k.
    (void)dist, (void)n, (void)block, (void)launch;
}

// ---------------------------------------------------------------------------------
// TODO 3: the blocked Floyd-Warshall (handout, section 3.4 (The blocked algorithm)). The matrix is cut into T x T tiles;
// to start, one block of T x T threads per tile and one element a thread. Round r handles
// k = r * T .. r * T + T - 1, in three launches, in this order:
//   phase 1: the diagonal tile (r, r) alone;
//   phase 2: the other tiles of row r and of column r;
//   phase 3: every other tile.
// Elements outside the matrix (n need not be a multiple of T): load FW_INF there, so that they
// change nothing (FW_INF + FW_INF fits in an int), and never store them. Once it passes, make
// phase 3 fast (handout, section 3.5 (More results per thread) and task 4): tiles of 64, several elements a thread in
// registers; change T and the stubs as you need.
constexpr int T = 32;  // the tile's side

// TODO 3a: phase 1, one block of T x T threads for the diagonal tile (round, round).
// __shared__ int tile[T][T]; each thread loads its element (row round * T + threadIdx.y, column
// round * T + threadIdx.x; FW_INF outside the matrix); a barrier; then for k = 0 .. T - 1: relax
// tile[ty][tx] through tile[ty][k] + tile[k][tx], and a barrier (step k + 1 reads row and column
// k + 1, which step k may have just improved); finally store the element if it is inside the
// matrix.
__global__ void phase1_kernel(int* dist, int n, int round) {
}

// TODO 3b: phase 2, a grid of (tiles, 2) blocks of T x T threads. blockIdx.y == 0: the row tile
// (round, blockIdx.x), which takes dist[i][k] from the diagonal tile and dist[k][j] from itself;
// blockIdx.y == 1: the column tile (blockIdx.x, round), which takes dist[i][k] from itself and
// dist[k][j] from the diagonal tile. The block with blockIdx.x == round (the diagonal tile, done
// in phase 1) returns at once, all its threads together. Both tiles in shared memory, the same
// k loop as phase 1, a barrier after every k (the tile's own row or column k is read by all its
// threads while it may change).
__global__ void phase2_kernel(int* dist, int n, int round) {
}

// TODO 3c: phase 3, a grid of (tiles, tiles) blocks of T x T threads: block (x, y) is tile
// (i, j) = (blockIdx.y, blockIdx.x); the blocks of row and column `round` return at once. Load
// tile (i, round) (for dist[i][k]) and tile (round, j) (for dist[k][j]) into shared memory and
// the thread's own element into a register; one barrier; then the k loop with no barrier at all:
// nothing in shared memory changes any more, and the own element is only read by its thread.
// Store the element if it is inside the matrix.
__global__ void phase3_kernel(int* dist, int n, int round) {
}

void fw_blocked(int* dist, int n, Launcher& launch) {
    // TODO 3d: the number of tiles a side rounds UP, const int tiles = (n + T - 1) / T (an int
    //          division n / T rounds down and skips the last, partial tile whenever T does not
    //          divide n); then for (int round = 0; round < tiles; ++round) the three launches:
    //          launch(phase1_kernel, dim3(1), dim3(T, T), 0, dist, n, round);
    //          launch(phase2_kernel, dim3(tiles, 2), dim3(T, T), 0, dist, n, round);
    //          launch(phase3_kernel, dim3(tiles, tiles), dim3(T, T), 0, dist, n, round);
    (void)dist, (void)n, (void)launch, (void)T;
}

// ---------------------------------------------------------------------------------
// TODO 4: the diameter: the largest entry of dist below FW_INF (unreachable pairs left out).
// A max reduction in shared memory, block * block threads a block:
//   each thread loads one element (or a value that cannot win where it has none, or where the
//   element is FW_INF) into shared memory; a barrier; then a loop that halves the number of
//   active threads each step (blockDim.x / 2 of them, then a quarter, ... down to 1), each
//   keeping the larger of its value and the one s places further, with a barrier after every
//   step (outside the if: every thread of the block must reach it; handout, question 4 (A reduction loop that never ends) is
//   about a version of this loop that never ends); thread 0 writes the block's maximum to
//   partial[blockIdx.x];
// then a final pass, one block on the GPU, reduces the partial maxima into *result.
__global__ void diameter_partial_kernel(const int* dist, int n, int* partial) {
    // TODO 4a (extern __shared__ int values[]; its size is the launch's dynamic shared bytes)
}

// TODO 4c: the final pass, one block of blockDim.x threads over the `count` partial maxima: each
// thread first takes the maximum of partial[threadIdx.x], partial[threadIdx.x + blockDim.x], ...
// (0 where it has none: count may be larger or smaller than the block), then the same
// reduction as 4a; thread 0 writes *result.
__global__ void diameter_final_kernel(const int* partial, int count, int* result) {
    // (extern __shared__ int values[], as in 4a)
}

void diameter(const int* dist, int n, int block, const DiameterBuffers& buffers, Launcher& launch) {
    // TODO 4b: threads = block * block; blocks = ceil(n * n / threads) (in size_t: n * n may not
    //          fit an int); launch(diameter_partial_kernel, blocks, threads, threads *
    //          sizeof(int), dist, n, buffers.partial); then launch(diameter_final_kernel, 1,
    //          threads, threads * sizeof(int), buffers.partial, int(blocks), buffers.result).
    //          buffers.partial has room for buffers.partial_capacity ints: one per block of this
    //          launch.
    (void)dist, (void)n, (void)block, (void)buffers, (void)launch;
}
