// Lab 3: Floyd-Warshall, the reference solution (same interface as labs/lab3/floyd.cu).
//
// fw_1d and fw_2d: one thread per element, one launch per k, the plain kernels of the student report
// (every element read and written at every step: bound by memory bandwidth; storing only the
// improvements is faster, and left to the students to measure). fw_blocked: 64 x 64 tiles, 16 x 16
// threads a block and 4 x 4 elements a thread; phase 3 (almost all the work) keeps its 16
// elements in registers and reads, for each k, four values of the column tile and four of the row
// tile with one 16-byte shared load each: 16 relaxations for 2 loads. The diameter: a grid-stride
// pass with 16-byte loads, a shared-memory tree in each block, then one block over the partials.
//
// LAB3_DPX (default 1): the relaxation min(a + b, c) goes through Hopper's DPX intrinsic
// __viaddmin_s32 where the GPU has it (sm_90 and later), else the plain add and min. Build with
// -DLAB3_DPX=0 to time the plain code (handout, section 3.5 (More results per thread, and
// min-plus on Hopper); measured in section 12 (Results)).
#include "floyd.h"

#ifndef LAB3_DPX
#define LAB3_DPX 1
#endif

namespace {

// min(a + b, c): never overflows for entries of the matrix or FW_INF (floyd.h).
__device__ __forceinline__ int add_min(int a, int b, int c) {
#if LAB3_DPX && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    return __viaddmin_s32(a, b, c);
#else
    return min(a + b, c);
#endif
}

}  // namespace

// ---------------------------------------------------------------------------------
// Part 1: 1D blocks, one thread per element, as the student report wrote it. Row k and column k do not
// change in step k (dist[k][k] = 0): their threads have nothing to do, and skipping them means
// no thread writes what another reads in the same step.
__global__ void fw_1d_kernel(int* dist, int n, int k) {
    const unsigned index = blockIdx.x * blockDim.x + threadIdx.x;
    if (index >= unsigned(n) * unsigned(n)) return;
    const int i = int(index / unsigned(n)), j = int(index % unsigned(n));
    if (i == k || j == k) return;
    dist[index] = min(dist[index], dist[i * n + k] + dist[k * n + j]);
}

void fw_1d(int* dist, int n, int block, Launcher& launch) {
    const unsigned threads = unsigned(block) * unsigned(block);
    const unsigned blocks = ceil_div(unsigned(n) * unsigned(n), threads);
    for (int k = 0; k < n; ++k) launch(fw_1d_kernel, dim3(blocks), dim3(threads), 0, dist, n, k);
}

// ---------------------------------------------------------------------------------
// Part 2: 2D blocks; j from x, so a warp reads and writes consecutive ints of one row.
__global__ void fw_2d_kernel(int* dist, int n, int k) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= n || j >= n || i == k || j == k) return;
    dist[i * n + j] = min(dist[i * n + j], dist[i * n + k] + dist[k * n + j]);
}

void fw_2d(int* dist, int n, int block, Launcher& launch) {
    const dim3 threads{unsigned(block), unsigned(block)};
    const dim3 grid(ceil_div(unsigned(n), unsigned(block)), ceil_div(unsigned(n), unsigned(block)));
    for (int k = 0; k < n; ++k) launch(fw_2d_kernel, grid, threads, 0, dist, n, k);
}

// ---------------------------------------------------------------------------------
// Part 3: blocked Floyd-Warshall. Tiles of T x T, blocks of S x S threads, each thread R x R
// elements of its tile.
namespace {

constexpr int T = 64, S = 16, R = T / S;
// Phases 1 and 2 keep tiles in shared memory with rows of T + 16 ints: a warp (16 columns of
// two consecutive rows) then touches 32 different banks.
constexpr int P = T + 16;
// Phase 3's column tile is stored transposed, rows of T + 4 ints: 16-byte aligned for the vector
// loads, and the transposing stores are 4-way bank conflicts rather than 32-way.
constexpr int AT = T + 4;

// An element of the matrix, or FW_INF outside it: padding that changes nothing, since
// FW_INF + FW_INF still fits in an int and never wins a min. The k loops below run over whole
// tiles, padding included.
__device__ __forceinline__ int load_or_inf(const int* dist, int n, int row, int col) {
    return row < n && col < n ? dist[row * n + col] : FW_INF;
}

// Phase 1: the diagonal tile (round, round) alone, one block. Each thread keeps its elements in
// registers and stores an improvement to shared memory, where step k + 1 reads it after the
// barrier. Row k and column k never improve in step k (dist[k][k] is 0, or FW_INF in the padding),
// so what a step reads is never written in that step.
__global__ void __launch_bounds__(S * S) phase1_kernel(int* dist, int n, int round) {
    __shared__ int D[T][P];
    const int tx = threadIdx.x, ty = threadIdx.y, base = round * T;
    int mine[R][R];
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
        for (int c = 0; c < R; ++c) {
            mine[r][c] = load_or_inf(dist, n, base + ty + S * r, base + tx + S * c);
            D[ty + S * r][tx + S * c] = mine[r][c];
        }
    __syncthreads();
    for (int k = 0; k < T; ++k) {
        int d_kj[R], d_ik[R];
#pragma unroll
        for (int c = 0; c < R; ++c) d_kj[c] = D[k][tx + S * c];
#pragma unroll
        for (int r = 0; r < R; ++r) d_ik[r] = D[ty + S * r][k];
#pragma unroll
        for (int r = 0; r < R; ++r)
#pragma unroll
            for (int c = 0; c < R; ++c) {
                const int via_k = d_ik[r] + d_kj[c];
                if (via_k < mine[r][c]) {
                    mine[r][c] = via_k;
                    D[ty + S * r][tx + S * c] = via_k;
                }
            }
        __syncthreads();  // step k + 1 reads row and column k + 1 as step k left them
    }
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
        for (int c = 0; c < R; ++c) {
            const int row = base + ty + S * r, col = base + tx + S * c;
            if (row < n && col < n) dist[row * n + col] = mine[r][c];
        }
}

// Phase 2: the tiles of row `round` (blockIdx.y = 0) and of column `round` (blockIdx.y = 1), one
// block each, against the finished diagonal tile. A row tile (round, t) takes dist[i][k] from the
// diagonal tile and dist[k][j] from itself; a column tile (t, round) the other way round.
__global__ void __launch_bounds__(S * S) phase2_kernel(int* dist, int n, int round) {
    const int t = blockIdx.x;
    if (t == round) return;
    const bool row_tile = blockIdx.y == 0;
    __shared__ int Diag[T][P];
    __shared__ int Own[T][P];
    const int tx = threadIdx.x, ty = threadIdx.y, base = round * T;
    const int i0 = row_tile ? base : t * T, j0 = row_tile ? t * T : base;
    int mine[R][R];
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
        for (int c = 0; c < R; ++c) {
            const int i = ty + S * r, j = tx + S * c;
            Diag[i][j] = load_or_inf(dist, n, base + i, base + j);
            mine[r][c] = load_or_inf(dist, n, i0 + i, j0 + j);
            Own[i][j] = mine[r][c];
        }
    __syncthreads();
    const int(*A)[P] = row_tile ? Diag : Own;  // A[i][k]
    const int(*B)[P] = row_tile ? Own : Diag;  // B[k][j]
    for (int k = 0; k < T; ++k) {
        int d_kj[R], d_ik[R];
#pragma unroll
        for (int c = 0; c < R; ++c) d_kj[c] = B[k][tx + S * c];
#pragma unroll
        for (int r = 0; r < R; ++r) d_ik[r] = A[ty + S * r][k];
#pragma unroll
        for (int r = 0; r < R; ++r)
#pragma unroll
            for (int c = 0; c < R; ++c) {
                const int via_k = d_ik[r] + d_kj[c];
                if (via_k < mine[r][c]) {
                    mine[r][c] = via_k;
                    Own[ty + S * r][tx + S * c] = via_k;
                }
            }
        __syncthreads();
    }
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
        for (int c = 0; c < R; ++c) {
            const int row = i0 + ty + S * r, col = j0 + tx + S * c;
            if (row < n && col < n) dist[row * n + col] = mine[r][c];
        }
}

// Phase 3: every tile (i, j) outside row and column `round`, from the finished tiles (i, round)
// and (round, j). This thread's elements are rows 4 ty .. 4 ty + 3 and columns 4 tx .. 4 tx + 3 of
// the tile, in registers; for each k one 16-byte load brings their four dist[i][k] (the column
// tile is stored transposed) and one their four dist[k][j]. Nothing in shared memory changes
// after the barrier, so the k loop needs none.
__global__ void __launch_bounds__(S * S) phase3_kernel(int* dist, int n, int round) {
    const int tile_j = blockIdx.x, tile_i = blockIdx.y;
    if (tile_i == round || tile_j == round) return;  // phases 1 and 2 did these
    __shared__ __align__(16) int At[T][AT];  // At[k][i] = dist[i][k], column tile (tile_i, round)
    __shared__ __align__(16) int B[T][T];    // B[k][j] = dist[k][j], row tile (round, tile_j)
    const int k0 = round * T, i0 = tile_i * T, j0 = tile_j * T;
    const int thread = threadIdx.y * S + threadIdx.x;
    for (int e = thread; e < T * T; e += S * S) {  // a warp reads 32 consecutive ints of a row
        const int r = e / T, c = e % T;
        At[c][r] = load_or_inf(dist, n, i0 + r, k0 + c);
        B[r][c] = load_or_inf(dist, n, k0 + r, j0 + c);
    }
    const int ti = threadIdx.y * R, tj = threadIdx.x * R;
    int d[R][R];
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
        for (int c = 0; c < R; ++c) d[r][c] = load_or_inf(dist, n, i0 + ti + r, j0 + tj + c);
    __syncthreads();
#pragma unroll 16
    for (int k = 0; k < T; ++k) {
        const int4 a = *reinterpret_cast<const int4*>(&At[k][ti]);
        const int4 b = *reinterpret_cast<const int4*>(&B[k][tj]);
        const int a_k[R] = {a.x, a.y, a.z, a.w}, b_k[R] = {b.x, b.y, b.z, b.w};
#pragma unroll
        for (int r = 0; r < R; ++r)
#pragma unroll
            for (int c = 0; c < R; ++c) d[r][c] = add_min(a_k[r], b_k[c], d[r][c]);
    }
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
        for (int c = 0; c < R; ++c) {
            const int row = i0 + ti + r, col = j0 + tj + c;
            if (row < n && col < n) dist[row * n + col] = d[r][c];
        }
}

}  // namespace

void fw_blocked(int* dist, int n, Launcher& launch) {
    const int tiles = (n + T - 1) / T;
    const dim3 threads(S, S);
    for (int round = 0; round < tiles; ++round) {
        launch(phase1_kernel, dim3(1), threads, 0, dist, n, round);
        if (tiles == 1) continue;  // one tile: phase 1 was everything
        launch(phase2_kernel, dim3(tiles, 2), threads, 0, dist, n, round);
        launch(phase3_kernel, dim3(tiles, tiles), threads, 0, dist, n, round);
    }
}

// ---------------------------------------------------------------------------------
// Part 4: the diameter.
namespace {

// The largest `value` of the block's threads, for blockDim.x a power of two; every thread of the
// block must call it. Each step halves the threads at work; the barrier after each step is
// outside the if, where every thread reaches it.
__device__ int block_max(int value, int* shared) {
    const unsigned tid = threadIdx.x;
    shared[tid] = value;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) shared[tid] = max(shared[tid], shared[tid + s]);
        __syncthreads();
    }
    return shared[0];
}

// 0 cannot win wrongly: every distance is >= 0 and the diagonal's zeros count anyway.
__device__ __forceinline__ int finite_or_zero(int d) { return d < FW_INF ? d : 0; }

// Pass 1: a grid-stride loop over the matrix, four ints a load, then each block's maximum into
// partial[blockIdx.x].
__global__ void diameter_partial_kernel(const int* dist, size_t count, int* partial) {
    extern __shared__ int values[];
    const size_t stride = size_t(gridDim.x) * blockDim.x, first = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const int4* quads = reinterpret_cast<const int4*>(dist);  // cudaMalloc's memory: 16-byte aligned
    int best = 0;
    for (size_t q = first; q < count / 4; q += stride) {
        const int4 v = quads[q];
        best = max(best, max(max(finite_or_zero(v.x), finite_or_zero(v.y)), max(finite_or_zero(v.z), finite_or_zero(v.w))));
    }
    for (size_t i = count / 4 * 4 + first; i < count; i += stride) best = max(best, finite_or_zero(dist[i]));
    best = block_max(best, values);
    if (threadIdx.x == 0) partial[blockIdx.x] = best;
}

// Pass 2: one block over the partial maxima.
__global__ void diameter_final_kernel(const int* partial, int count, int* result) {
    extern __shared__ int values[];
    int best = 0;
    for (int i = threadIdx.x; i < count; i += blockDim.x) best = max(best, partial[i]);
    best = block_max(best, values);
    if (threadIdx.x == 0) *result = best;
}

}  // namespace

void diameter(const int* dist, int n, int block, const DiameterBuffers& buffers, Launcher& launch) {
    const unsigned threads = unsigned(block) * unsigned(block);
    const size_t count = size_t(n) * size_t(n);
    // Enough blocks to fill the GPU many times over, each thread then reading several quads; never
    // more than there is room for partial maxima.
    size_t blocks = (count / 4 + threads - 1) / threads;
    if (blocks > 2048) blocks = 2048;
    if (blocks > buffers.partial_capacity) blocks = buffers.partial_capacity;
    if (blocks < 1) blocks = 1;
    const size_t shared = threads * sizeof(int);
    launch(diameter_partial_kernel, dim3(unsigned(blocks)), dim3(threads), shared, dist, count, buffers.partial);
    launch(diameter_final_kernel, dim3(1), dim3(threads), shared, buffers.partial, int(blocks), buffers.result);
}
