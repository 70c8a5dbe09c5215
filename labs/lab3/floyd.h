// Lab 3 interface between the trusted driver (lab3.cu) and the file you edit (floyd.cu).
// Do not change this file: the grader builds your floyd.cu against the original.
//
// The graph is an N x N matrix of ints on the GPU, row-major: dist[i * n + j] is the length of
// the shortest path from i to j known so far. The driver fills it with the arcs' weights
// (FW_INF where there is no arc, 0 on the diagonal); your Floyd-Warshall parts turn it, in
// place, into the lengths of the shortest paths. Results are exact: the checker compares every
// element with the CPU's, with no tolerance.
//
// Unreachable is FW_INF = 2^30 - 1. Why that value: a relaxation adds two entries, and
// FW_INF + FW_INF = 2^31 - 2 still fits in an int, so min(dist[i][j], dist[i][k] + dist[k][j])
// never overflows, whatever is unreachable, and an unreachable pair stays exactly FW_INF (the
// min keeps it). The driver keeps every real path below FW_INF: weights are >= 0 and
// (N - 1) x the largest weight < FW_INF. N is at most 46340, so N * N < 2^31 and an int
// index (i * n + j) never overflows either.
//
// A part launches its kernels through `launch` instead of <<< >>>:
//     launch(kernel, grid, block, dynamic_shared_bytes, kernel arguments...);
// It refuses a configuration that breaks a limit of this GPU, with the limit's name and value,
// and records the launch: a part that launches nothing shows "not implemented". A part must
// not synchronise: the driver times it with CUDA events on launch.stream().
#pragma once
#include <cuda_runtime.h>

#include "launcher.cuh"

constexpr int FW_INF = 0x3FFFFFFF;  // 2^30 - 1: unreachable

// --- Part 1 (TODO 1 of floyd.cu) -----------------------------------------------------------
// One thread per element of the matrix in 1D blocks of block * block threads (block is --block,
// a power of two from 1 to 64; the handout's experiment uses 8, 16 and 32, so 64, 256 or 1024
// threads; 64 x 64 = 4096 is more than a block may have, and the launcher refuses it), and one
// launch per k: n launches.
void fw_1d(int* dist, int n, int block, Launcher& launch);

// --- Part 2 (TODO 2) -----------------------------------------------------------------------
// The same with a 2D grid of block x block 2D blocks: one thread per element, n launches.
void fw_2d(int* dist, int n, int block, Launcher& launch);

// --- Part 3 (TODO 3) -----------------------------------------------------------------------
// The blocked (tiled) Floyd-Warshall: for each diagonal tile in turn, (1) the dependent tile on
// the diagonal, (2) the tiles of its row and of its column, (3) every other tile; each phase's
// tiles in shared memory. Your choice of tile size and threads per block.
void fw_blocked(int* dist, int n, Launcher& launch);

// --- Part 4 (TODO 4) -----------------------------------------------------------------------
// The diameter: the longest of the shortest paths, that is the largest entry of `dist` below
// FW_INF (unreachable pairs are left out; the diagonal's zeros count, so a graph where no
// vertex reaches another has diameter 0). `dist` is a finished distance matrix (the driver's
// own). A max reduction in shared memory: each block of block * block threads writes the
// maximum of its elements to partial[blockIdx.x], then a final pass reduces the partial
// maxima into *result, on the GPU.
struct DiameterBuffers {
    int* partial;            // room for partial_capacity ints
    size_t partial_capacity; // ceil(n * n / (block * block)): one per block of block * block threads,
                             // one element each, for every --block the driver accepts
    int* result;             // one int: the diameter
};
void diameter(const int* dist, int n, int block, const DiameterBuffers& buffers, Launcher& launch);
