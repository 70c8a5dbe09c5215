// Lab 4 reference solution: the interface of labs/lab4/stencil.h.
//
// Every part is memory-bound, and the benchmark goals are against a copy kernel of the same
// bytes (the 1D stencil at n = 2^26: 90% of it; the shared-memory convolution at 8192 x 8192,
// r = 2: 70%). What a kernel must do to get there is what a copy does: move 16 bytes per load
// and store, keep enough loads in flight per SM, and touch each byte of DRAM once; whatever it
// computes must fit in the time the memory takes.
#include <algorithm>
#include <cmath>
#include <string>

#include "cuda_check.hpp"
#include "stencil.h"

namespace {

// ---------------------------------------------------------------------------------
// The 1D stencil. A thread computes 4 consecutive outputs B[i..i+3] (i a multiple of 4) from
// A[i..i+7]: two float4 loads and one float4 store. 16-byte accesses make a warp's request 512
// contiguous bytes, and 4 outputs a thread a quarter as many threads, each with 32 bytes in
// flight. A and B come from cudaMalloc (256-byte aligned) and i is a multiple of 4, so every
// float4 is aligned. The second load overlaps the next thread's first: it is served from L1,
// so DRAM sees each byte of A once.
constexpr int per_thread = 4;

__device__ __forceinline__ float stencil(float a0, float a1, float a2, float a3, float a4) {
    return (a0 * a0 + 2.f * (a1 * a1) + a2 * a2 - 3.f * (a3 * a3) + 5.f * (a4 * a4)) / 24.f;
}

__device__ __forceinline__ float4 stencil4(float4 lo, float4 hi) {
    return make_float4(stencil(lo.x, lo.y, lo.z, lo.w, hi.x), stencil(lo.y, lo.z, lo.w, hi.x, hi.y),
                       stencil(lo.z, lo.w, hi.x, hi.y, hi.z), stencil(lo.w, hi.x, hi.y, hi.z, hi.w));
}

__global__ void stencil_global_kernel(const float* __restrict__ A, float* __restrict__ B, int n) {
    const long long first = (blockIdx.x * (long long)blockDim.x + threadIdx.x) * per_thread;
    if (first >= n) return;
    const int i = int(first);
    if (i + per_thread <= n) {  // A[i .. i+7] lies within A's n + 4 values
        const float4* A4 = reinterpret_cast<const float4*>(A);
        reinterpret_cast<float4*>(B)[i / 4] = stencil4(A4[i / 4], A4[i / 4 + 1]);
    } else {  // the last thread: fewer than 4 outputs left
        for (int j = i; j < n; ++j) B[j] = stencil(A[j], A[j + 1], A[j + 2], A[j + 3], A[j + 4]);
    }
}

// A block of T threads owns 4T consecutive outputs, B[base .. base + 4T), and loads the tile
// they read, A[base .. base + 4T + 4): its own 4T values plus the halo, 2 on each side of the
// outputs' centres. T + 1 float4 of shared memory: thread t loads float4 t, thread 0 the halo.
__global__ void stencil_shared_kernel(const float* __restrict__ A, float* __restrict__ B, int n) {
    extern __shared__ float4 tile4[];
    float* tile = reinterpret_cast<float*>(tile4);
    const int span = per_thread * blockDim.x, base = blockIdx.x * span, t = threadIdx.x;
    // The same branch for every thread of the block: whole tile or last tile.
    if (base + span <= n) {
        const float4* A4 = reinterpret_cast<const float4*>(A + base);
        for (int k = t; k <= int(blockDim.x); k += blockDim.x) tile4[k] = A4[k];
    } else {  // the last, partial tile: floats, and zeros past A's end (never used)
        for (int k = t; k < span + 4; k += blockDim.x) tile[k] = base + k < n + 4 ? A[base + k] : 0.f;
    }
    __syncthreads();  // reached by every thread: the whole tile is loaded before anyone reads it
    const int i = base + per_thread * t;
    if (i + per_thread <= n) {
        reinterpret_cast<float4*>(B)[i / 4] = stencil4(tile4[t], tile4[t + 1]);
    } else {
        for (int j = i; j < n; ++j) {
            const int k = j - base;
            B[j] = stencil(tile[k], tile[k + 1], tile[k + 2], tile[k + 3], tile[k + 4]);
        }
    }
}

int stencil_blocks(int n, int block) { return int((n + 1ll * per_thread * block - 1) / (1ll * per_thread * block)); }

}  // namespace

void stencil_global(const Stencil1D& s, int block, Launcher& launch) {
    launch(stencil_global_kernel, dim3(stencil_blocks(s.n, block)), dim3(block), 0, s.A, s.B, s.n);
}

void stencil_shared(const Stencil1D& s, int block, Launcher& launch) {
    launch(stencil_shared_kernel, dim3(stencil_blocks(s.n, block)), dim3(block), (size_t(block) + 1) * sizeof(float4),
           s.A, s.B, s.n);
}

// ---------------------------------------------------------------------------------
// The maximum: each block reduces a grid-stride share of the input (float4 loads) to one
// value per thread, then the block's values in shared memory by halving (for any block size,
// not only powers of two), and writes its partial maximum; the same kernel on one block then
// reduces the partial maxima. -INFINITY, not 0 or a "small" number, starts every running
// maximum: B may be all negative. fmaxf is exact, so the result is one of B's floats.
namespace {

__global__ void max_kernel(const float* __restrict__ in, int count, float* __restrict__ out) {
    extern __shared__ float best[];
    const int t = threadIdx.x, stride = gridDim.x * blockDim.x, quads = count / 4;
    float m = -INFINITY;
    const float4* in4 = reinterpret_cast<const float4*>(in);
    for (int i = blockIdx.x * blockDim.x + t; i < quads; i += stride) {
        const float4 v = in4[i];
        m = fmaxf(m, fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)));
    }
    for (int i = 4 * quads + blockIdx.x * blockDim.x + t; i < count; i += stride) m = fmaxf(m, in[i]);
    best[t] = m;
    __syncthreads();
    int s = 1;
    while (2 * s < int(blockDim.x)) s *= 2;  // the largest power of two below blockDim.x (1 for 1 or 2)
    for (; s > 0; s >>= 1) {
        if (t < s && t + s < int(blockDim.x)) best[t] = fmaxf(best[t], best[t + s]);
        __syncthreads();  // outside the branch: every thread reaches every barrier
    }
    if (t == 0) out[blockIdx.x] = best[0];
}

}  // namespace

void max_reduce(const MaxReduction& m, int block, Launcher& launch) {
    // Enough blocks to cover B with one float4 a thread, but no more than about a million
    // threads in all: the grid-stride loop gives each several, and the final pass stays small.
    const long long wanted = (m.n + 4ll * block - 1) / (4ll * block), cap = std::max(1, (1 << 20) / block);
    const int blocks = int(std::min(wanted, cap));
    const size_t shared = size_t(block) * sizeof(float);
    if (blocks == 1) {
        launch(max_kernel, dim3(1), dim3(block), shared, m.B, m.n, m.result);
        return;
    }
    launch(max_kernel, dim3(blocks), dim3(block), shared, m.B, m.n, m.partial);
    launch(max_kernel, dim3(1), dim3(block), shared, static_cast<const float*>(m.partial), blocks, m.result);
}

// ---------------------------------------------------------------------------------
// The convolution. The filter lives in constant memory: every thread of a warp reads the
// same tap at the same time, which the constant cache serves as one broadcast, and with a
// radius known at compile time the taps become operands of the multiply-adds themselves.
namespace {

__constant__ float filter_taps[max_filter_taps];

}  // namespace

void upload_filter(const float* filter, int radius) {
    const int side = 2 * radius + 1;
    CUDA_CHECK(cudaMemcpyToSymbol(filter_taps, filter, size_t(side) * side * sizeof(float)));
}

namespace {

// Global memory: one output a thread, the taps that fall outside the image skipped (zero
// padding). Neighbouring threads read overlapping windows, which L1 serves.
__global__ void conv_global_kernel(const float* __restrict__ in, float* __restrict__ out, int width, int height,
                                   int radius) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= height || col >= width) return;
    const int side = 2 * radius + 1;
    float sum = 0;
    for (int ik = -radius; ik <= radius; ++ik) {
        const int y = row + ik;
        if (y < 0 || y >= height) continue;
        for (int jk = -radius; jk <= radius; ++jk) {
            const int x = col + jk;
            if (x >= 0 && x < width) sum += in[size_t(y) * width + x] * filter_taps[(ik + radius) * side + jk + radius];
        }
    }
    out[size_t(row) * width + col] = sum;
}

// Shared memory, tuned for 8192 x 8192 at r = 2. A block of 32 x 8 threads computes a tile of
// 32 x 64 outputs: thread (x, y) the 8 outputs of column x, rows 8y .. 8y + 7. It loads the
// tile's inputs with a halo of R on every side, (64 + 2R) x (32 + 2R) floats, zeros outside the
// image, then walks down its column: each input row it reads (2R + 1 floats from shared
// memory, into registers) serves every one of its 8 outputs whose filter row covers it, so it
// reads (8 + 2R)(2R + 1) floats for 8 outputs: 7.5 a output at R = 2 instead of 25. Why this
// shape:
//   - a warp is one row of 32 threads: its shared reads are 32 consecutive floats (no bank
//     conflict) and its global loads and stores whole 128-byte lines;
//   - 8 outputs a thread cut the shared reads (the limit of a one-output-a-thread tile) below
//     what memory takes, and make the halo rows cheap: 68 rows loaded for 64 at R = 2;
//   - the tile of 9.8 KB at R = 2 (15 KB at R = 8) leaves room for 8 blocks, 2048 threads, on
//     an SM, so that some blocks load while others compute;
//   - R is a template parameter (0 .. 8, dispatched below): the loops unroll completely, the
//     8 sums and the row of inputs stay in registers and every tap is a constant operand.
constexpr int conv_bx = 32, conv_by = 8, conv_rows = 8;
constexpr int conv_tile_w = conv_bx, conv_tile_h = conv_by * conv_rows;

template <int R>
__global__ void __launch_bounds__(conv_bx* conv_by) conv_shared_kernel(const float* __restrict__ in, float* __restrict__ out,
                                                                      int width, int height) {
    constexpr int S = 2 * R + 1, SW = conv_tile_w + 2 * R, SH = conv_tile_h + 2 * R;
    constexpr int threads = conv_bx * conv_by, loads = (SW * SH + threads - 1) / threads;
    __shared__ float tile[SH][SW];
    const int x0 = blockIdx.x * conv_tile_w, y0 = blockIdx.y * conv_tile_h;
    const int tid = threadIdx.y * conv_bx + threadIdx.x;
    // A fixed number of loads a thread, all issued before any is used.
#pragma unroll
    for (int l = 0; l < loads; ++l) {
        const int k = tid + l * threads;
        if (k < SW * SH) {
            const int sy = k / SW, sx = k - sy * SW, gy = y0 - R + sy, gx = x0 - R + sx;
            tile[sy][sx] = gy >= 0 && gy < height && gx >= 0 && gx < width ? in[size_t(gy) * width + gx] : 0.f;
        }
    }
    __syncthreads();  // every thread reaches it: the tile is complete before anyone reads it

    const int tx = threadIdx.x, ty = threadIdx.y * conv_rows;
    float sum[conv_rows];
#pragma unroll
    for (int o = 0; o < conv_rows; ++o) sum[o] = 0.f;
#pragma unroll
    for (int r = 0; r < conv_rows + 2 * R; ++r) {  // input row ty + r of the tile
        float v[S];
#pragma unroll
        for (int jk = 0; jk < S; ++jk) v[jk] = tile[ty + r][tx + jk];
#pragma unroll
        for (int o = 0; o < conv_rows; ++o) {
            const int ik = r - o;  // the filter row that input row r is for output o
            if (ik >= 0 && ik < S) {
#pragma unroll
                for (int jk = 0; jk < S; ++jk) sum[o] += v[jk] * filter_taps[ik * S + jk];
            }
        }
    }
    const int x = x0 + tx;
#pragma unroll
    for (int o = 0; o < conv_rows; ++o) {
        const int y = y0 + ty + o;
        if (y < height && x < width) out[size_t(y) * width + x] = sum[o];
    }
}

template <int R>
void launch_conv_shared(const Convolution2D& c, Launcher& launch) {
    if (c.radius != R) {
        if constexpr (R < max_radius) return launch_conv_shared<R + 1>(c, launch);
        throw LaunchRefused("conv_shared is compiled for radius 0 to " + std::to_string(max_radius) + ", not " +
                            std::to_string(c.radius));
    }
    const dim3 grid(ceil_div(c.width, conv_tile_w), ceil_div(c.height, conv_tile_h));
    launch(conv_shared_kernel<R>, grid, dim3(conv_bx, conv_by), 0, c.in, c.out, c.width, c.height);
}

}  // namespace

void conv_global(const Convolution2D& c, Launcher& launch) {
    const dim3 block(32, 8), grid(ceil_div(c.width, block.x), ceil_div(c.height, block.y));
    launch(conv_global_kernel, grid, block, 0, c.in, c.out, c.width, c.height, c.radius);
}

void conv_shared(const Convolution2D& c, Launcher& launch) { launch_conv_shared<0>(c, launch); }
