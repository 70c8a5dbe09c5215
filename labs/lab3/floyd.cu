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
    // TODO 1b: block * block threads a block (the seed's blocksize squared), enough blocks for
    //          n * n elements, and for (int k = 0; k < n; ++k) launch(fw_1d_kernel, grid,
    //          threads, 0, dist, n, k); (launches on one stream run in order: no sync needed).
    (void)dist, (void)n, (void)block, (void)launch;
}

// ---------------------------------------------------------------------------------
// TODO 2: the same with a 2D grid of block x block 2D blocks.
__global__ void fw_2d_kernel(int* dist, int n, int k) {
    // TODO 2a: column j from the x indices, row i from the y indices (which one makes a warp
    //          read consecutive ints? handout, question 2); threads outside the matrix do
    //          nothing. The seed went on to a flat index ij = i * n + j and back to i and j:
    //          handout, question 3 asks what that bought.
}

void fw_2d(int* dist, int n, int block, Launcher& launch) {
    // TODO 2b: dim3 threads(block, block) and a grid that covers every row and column (round
    //          up: n need not be a multiple of block); one launch per k.
    (void)dist, (void)n, (void)block, (void)launch;
}

// ---------------------------------------------------------------------------------
// TODO 3: the blocked Floyd-Warshall. The matrix is cut into T x T tiles (T = 32 to start:
// one block of 32 x 32 threads per tile, one element each). For each round r (the diagonal
// tile (r, r)), with k running over the T values of that tile:
//   phase 1: tile (r, r) alone, in shared memory: for each k, every element, then a barrier
//            (step k + 1 reads what step k wrote);
//   phase 2: the tiles of row r and of column r, one block each: the diagonal tile and the
//            block's own tile in shared memory, the same k loop (a row tile (r, j) takes
//            dist[i][k] from the diagonal tile and dist[k][j] from itself; a column tile the
//            other way round);
//   phase 3: every other tile (i, j): dist[i][k] from tile (i, r) and dist[k][j] from tile
//            (r, j), both final after phase 2; load them into shared memory, one barrier, and
//            the k loop needs no barrier at all (the own tile is only ever read by its thread).
// Three launches per round, in order. Elements outside the matrix (n is not a multiple of T):
// load FW_INF there, so they change nothing, and never store them. Then: more outputs per
// thread in phase 3 (handout, section 3.5).
void fw_blocked(int* dist, int n, Launcher& launch) {
    // TODO 3: for (int round = 0; round < ceil(n / T); ++round) { phase 1; phase 2; phase 3; }
    (void)dist, (void)n, (void)launch;
}

// ---------------------------------------------------------------------------------
// TODO 4: the diameter: the largest entry of dist below FW_INF (unreachable pairs left out).
// A max reduction in shared memory, block * block threads a block:
//   each thread loads one element (or a value that cannot win where it has none, or where the
//   element is FW_INF) into shared memory; a barrier; then a loop that halves the number of
//   active threads each step (blockDim.x / 2 of them, then a quarter, ... down to 1), each
//   keeping the larger of its value and the one s places further, with a barrier after every
//   step (outside the if: every thread of the block must reach it; handout, question 4 is
//   about the seed's loop); thread 0 writes the block's maximum to partial[blockIdx.x];
// then a final pass, one block on the GPU, reduces the partial maxima into *result (each
// thread first takes the maximum of several partials if there are more than threads).
__global__ void diameter_kernel(const int* dist, int n, int* partial) {
    // TODO 4a (extern __shared__ int values[]; its size is the launch's dynamic shared bytes)
}

void diameter(const int* dist, int n, int block, const DiameterBuffers& buffers, Launcher& launch) {
    // TODO 4b: launch(diameter_kernel, blocks, threads, threads * sizeof(int), dist, n,
    //          buffers.partial); then the final pass into buffers.result.
    (void)dist, (void)n, (void)block, (void)buffers, (void)launch;
}
