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

// Shared memory, tuned for 8192 x 8192 at r = 2 on an H200. The first version of this kernel
// (32 x 8 threads, 8 outputs down one column a thread, scalar loads and scalar shared reads)
// reached 52% of the copy kernel, and only 68% at r = 0: it was bound by instruction issue and
// the shared-memory pipe, not by DRAM (35% of peak). Every choice below cuts those two costs;
// this one reaches 94% (0.145 ms against the copy's 0.136 ms), 99% at r = 1, 104% at r = 0.
//
// Shape. A block of 16 x BY threads computes 64 x (BY ROWS) outputs: thread (tx, ty) the 4
// consecutive columns x0 + 4tx .. x0 + 4tx + 3 of the ROWS rows y0 + ROWS ty .. y0 + ROWS ty +
// ROWS - 1 (BY = 16 and ROWS = 4: 256 threads, 16 outputs each, 64 x 64 a block). The block's
// tile holds image rows y0 - R .. y0 + BY ROWS + R - 1 and columns x0 - 4A .. x0 + 64 + 4A - 1,
// where A = ceil(R / 4): the side halo is whole float4 chunks, so when the width is a multiple
// of 4 every chunk of the tile is a 16-byte-aligned float4 of the image (cudaMalloc's buffers
// start 256-byte aligned), wholly inside the image or wholly out. At R = 2: 68 x 72 floats for
// 64 x 64 outputs, 20% more (mostly L2 hits: the neighbouring blocks read the same rows); at
// R = 8: 80 x 80 floats, 25 600 bytes (46 080 with ROWS = 8, still under the 48 KB of static
// shared memory a block may have).
//
// Loading the tile. Two instances of the kernel, and the host launches one for the whole grid:
//   - VEC, for a width that is a multiple of 4 (8192): float4 loads. At R = 2 the tile is 18
//     float4 a row, 1224 in all: 5 loads a thread (the last by 200 threads of 256), every one
//     issued into registers before the first is stored, each with 32-bit index arithmetic, its
//     row from a division by a compile-time constant (a multiply and a shift), and two unsigned
//     compares that make a chunk outside the image a zero. Those compares cost less than
//     sending the blocks on the image's border (3% of them at 8192 x 8192, 6% at 4096 x 4096)
//     down a slower path. 0.3 loads an output, against 1.2 scalar loads in the old kernel,
//     each with a division, four bounds checks and 64-bit address arithmetic.
//   - otherwise one float a load, with the four bounds checks and zeros as before: correct for
//     every shape (8191 x 8192 at r = 2: 54% of the copy), and not what the goal measures.
//
// Reading the tile. Thread tx walks down the ROWS + 2R tile rows from ROWS ty; of each it needs
// the 4 + 2R floats of its window, columns 4tx + 4A - R .. 4tx + 4A + 3 + R, and adds each into
// every output that it feeds (up to 4 x (2R + 1) multiply-adds each): at R = 2, 8 rows of 8
// floats for 16 outputs, where the old kernel read 12 rows of 5 for 8. How the 8 are read sets
// the load on the shared pipe, which serves one 128-byte wavefront a clock (32 banks of 4 bytes;
// a warp's access takes as many wavefronts as the most words any bank must give). A window at
// R = 2 is the high half of the chunk to the thread's left, its own chunk and the low half of the
// chunk to its right. In a plain row, 16 threads reading those halves 16 bytes apart use only
// 16 of the 32 banks: a float2 costs a warp 4 wavefronts, as much as a float4, and the window 12
// whichever way it is read. So each tile row is stored as two half-rows: tile[r][0][k] holds
// columns 4k, 4k + 1 (the low half of chunk k) and tile[r][1][k] columns 4k + 2, 4k + 3. The
// halves that a row of 16 threads reads are then 16 consecutive float2 of one half-row, 128
// contiguous bytes: 2 wavefronts a warp. A window is R + 2 float2 (R + 3 for an odd R, with one
// float unused), 4 at R = 2: 8 wavefronts a warp a row, 0.125 an output, and 2 shared loads an
// output, against 0.23 wavefronts and 7.5 scalar loads in the old kernel.
//
// Registers and occupancy. The radius is a template parameter (0 .. 8, dispatched below), so the
// loops unroll, every tap is a constant-bank operand of its multiply-add, and an output row is
// stored (one float4; scalars for the other widths) as soon as its last input row has been
// added: only the sums of the rows in progress are live. The tile of 19.6 KB at R = 2 would
// let 11 blocks share an SM's 228 KB; its 2048 threads take 8, and the kernel is held to the
// 32 registers a thread that 8 blocks of 256 threads allow (conv_max_registers, below).
//
// Why ROWS = 4 and not more: 8 rows a thread halve the halo rows each output pays for (12 rows
// read for 8 outputs instead of 8 for 4), but the 38 KB tile then leaves room for 5 blocks, 1280
// threads, an SM. Measured on the H200 (8192 x 8192, % of the copy at r = 0, 1, 2, 3, 8):
// BY x ROWS = 16 x 4: 104, 99, 94, 76, 18; 16 x 8: 102, 75, 86-90, 77, 17; 8 x 8: 101, 75,
// 73, 62, 16; 8 x 16: 98, 75, 79, 67, 15; 32 x 4: 103, 98, 90, 74, 18; 16 x 2: 104, 101, 91,
// 68, 19. The likely cause (not profiled): with 8 rows a thread, the 10 float4 loads of a
// thread's share of the tile meet a cap of 40 (r = 1) or 48 registers and cannot all be in
// flight at once, and an SM holds fewer threads to hide the loads of one block behind the
// arithmetic of the others.
//
// BY and ROWS can be changed at build time to measure other shapes, with
// -DLAB4_CONV_BY=8 -DLAB4_CONV_ROWS=16 for example; the defaults are 16 and 4.
#ifndef LAB4_CONV_BY
#define LAB4_CONV_BY 16
#endif
#ifndef LAB4_CONV_ROWS
#define LAB4_CONV_ROWS 4
#endif
constexpr int conv_bx = 16, conv_by = LAB4_CONV_BY, conv_rows = LAB4_CONV_ROWS, conv_threads = conv_bx * conv_by;
constexpr int conv_tile_w = 4 * conv_bx, conv_tile_h = conv_rows * conv_by;  // outputs a block

// The registers a thread may use, so that registers do not hold fewer blocks on an SM than
// shared memory and threads do: an H200's SM has 228 KB of shared memory (and reserves 1 KB a
// block), 2048 threads and 64 K registers, allocated 8 a thread at a time. With the defaults,
// 8 blocks of 256 threads and 32 registers at every radius; with ROWS = 8, 5 blocks and 48
// registers at R = 2 (38 016 bytes of tile), 6 blocks and 40 at R = 0 and 1, 4 and 64 at R = 8.
// (__maxnreg__ rather than __launch_bounds__'s blocks an SM, which the compiler rejects with a
// warning on GPUs that hold fewer threads an SM, such as sm_75's 1024. __maxnreg__ came with
// CUDA 12.4; an older nvcc chooses the registers itself, which costs speed, not correctness.)
#if __CUDACC_VER_MAJOR__ > 12 || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 4)
#define CONV_MAX_REGISTERS(count) __maxnreg__(count)
#else
#define CONV_MAX_REGISTERS(count)
#endif
template <int R>
constexpr int conv_max_registers() {
    const int a = (R + 3) / 4, bytes = int(sizeof(float)) * (conv_tile_h + 2 * R) * (conv_tile_w + 8 * a);
    int blocks = 228 * 1024 / (bytes + 1024);
    if (blocks > 2048 / conv_threads) blocks = 2048 / conv_threads;
    const int registers = 65536 / (blocks * conv_threads) / 8 * 8;
    return registers < 255 ? registers : 255;
}

// The output rows a thread computes in one pass of its walk down the tile. A pass is unrolled
// completely (its sums must be registers), so its code grows with G x 4 x (2R + 1)^2
// multiply-adds: up to 8 rows in one pass up to R = 3 (1568 multiply-adds at R = 3 with 8
// rows), 4 at R = 4 (1296) and 2 above (2312 at R = 8, each pass reading 2 + 2R tile rows).
// The code of a pass then stays in the instruction cache, and its sums in the registers
// allowed, with no spill to local memory (the compiler did spill at R = 5 with passes of 4
// rows and 48 registers). Reading 2 + 2R rows for 2 outputs costs shared-memory wavefronts, but
// at these radii the multiply-adds take longer: at R = 8 with ROWS = 4, 720 wavefronts a warp,
// the shared pipe's time for 4 warps (2880 clocks) against 4624 clocks of multiply-adds for
// the warp on each of the 4 schedulers.
template <int R>
__host__ __device__ constexpr int conv_pass_rows() {
    int g = R <= 3 ? 8 : R == 4 ? 4 : 2;
    if (g > conv_rows) g = conv_rows;
    while (conv_rows % g != 0) --g;
    return g;
}

template <int R, bool VEC>
__global__ void __launch_bounds__(conv_threads) CONV_MAX_REGISTERS(conv_max_registers<R>())
    conv_shared_kernel(const float* __restrict__ in, float* __restrict__ out, int width, int height) {
    constexpr int A = (R + 3) / 4, CW = conv_bx + 2 * A, TW = 4 * CW, TH = conv_tile_h + 2 * R, S = 2 * R + 1;
    static_assert(sizeof(float) * TW * TH <= 48 * 1024, "the tile must fit in 48 KB of static shared memory");
    // Tile row r is image row y0 - R + r; tile column c is image column x0 - 4A + c, and is
    // element c & 1 of tile[r][(c >> 1) & 1][c >> 2].
    __shared__ float2 tile[TH][2][CW];
    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * conv_bx + tx;
    const int x0 = blockIdx.x * conv_tile_w, y0 = blockIdx.y * conv_tile_h;

    if constexpr (VEC) {  // float4 number c of the tile is chunk k = c % CW of row r = c / CW
        constexpr int count = TH * CW, loads = (count + conv_threads - 1) / conv_threads;
        const float4* in4 = reinterpret_cast<const float4*>(in);
        const int w4 = width / 4, gx0 = x0 / 4 - A, gy0 = y0 - R;
        float4 v[loads];
#pragma unroll
        for (int l = 0; l < loads; ++l) {
            const int c = tid + l * conv_threads, r = c / CW, k = c - r * CW, gy = gy0 + r, gx = gx0 + k;
            v[l] = make_float4(0.f, 0.f, 0.f, 0.f);
            // (l + 1) * conv_threads <= count: known at compile time for all loads but the last
            if (((l + 1) * conv_threads <= count || c < count) && unsigned(gy) < unsigned(height) &&
                unsigned(gx) < unsigned(w4))
                v[l] = in4[gy * w4 + gx];
        }
#pragma unroll
        for (int l = 0; l < loads; ++l) {
            const int c = tid + l * conv_threads, r = c / CW, k = c - r * CW;
            if ((l + 1) * conv_threads <= count || c < count) {
                tile[r][0][k] = make_float2(v[l].x, v[l].y);
                tile[r][1][k] = make_float2(v[l].z, v[l].w);
            }
        }
    } else {  // float number e of the tile is column c = e % TW of row r = e / TW
        constexpr int count = TH * TW, loads = (count + conv_threads - 1) / conv_threads;
        const int gx0 = x0 - 4 * A, gy0 = y0 - R;
#pragma unroll 8
        for (int l = 0; l < loads; ++l) {
            const int e = tid + l * conv_threads, r = e / TW, c = e - r * TW, gy = gy0 + r, gx = gx0 + c;
            if (e < count) {
                reinterpret_cast<float*>(tile[r][(c >> 1) & 1])[2 * (c >> 2) + (c & 1)] =
                    gy >= 0 && gy < height && gx >= 0 && gx < width ? in[gy * width + gx] : 0.f;
            }
        }
    }
    __syncthreads();  // every thread reaches it: the tile is complete before anyone reads it

    // The window of thread tx: tile columns 4tx + first .. 4tx + first + 3 + 2R, read as the
    // float2 q0 .. q1 of the row counted from 4tx (float2 q: columns 2q, 2q + 1), of which
    // column d of the window is element skew + d.
    constexpr int first = 4 * A - R, q0 = first / 2, q1 = (first + 2 * R + 3) / 2, pairs = q1 - q0 + 1;
    constexpr int skew = first - 2 * q0, G = conv_pass_rows<R>();
    const int x = x0 + 4 * tx;
#pragma unroll 1
    for (int g = 0; g < conv_rows; g += G) {  // one pass while G = ROWS (R <= 4 with the defaults)
        const int row0 = ty * conv_rows + g;   // output rows row0 .. row0 + G - 1 of the tile
        float sum[G][4];
#pragma unroll
        for (int i = 0; i < G + 2 * R; ++i) {  // tile row row0 + i
#pragma unroll
            for (int p = 0; p < pairs; ++p) {
                const int q = q0 + p;
                const float2 two = tile[row0 + i][q & 1][tx + (q >> 1)];
#pragma unroll
                for (int e = 0; e < 2; ++e) {
                    const int d = 2 * p + e - skew;  // the window's column d
                    if (d < 0 || d >= 4 + 2 * R) continue;
                    const float v = e ? two.y : two.x;
                    // Every product of this value, at once: it dies here, and the window never
                    // occupies more than a float2 of registers (20 floats at R = 8 otherwise).
#pragma unroll
                    for (int o = 0; o < G; ++o) {
                        const int ik = i - o;  // the filter row that tile row row0 + i is for output row o
                        if (ik < 0 || ik >= S) continue;
#pragma unroll
                        for (int j = 0; j < 4; ++j) {
                            const int jk = d - j;  // the tap that column d is for output column j
                            if (jk < 0 || jk >= S) continue;
                            const float t = filter_taps[ik * S + jk];
                            // the first term of a sum starts it
                            sum[o][j] = ik == 0 && jk == 0 ? v * t : sum[o][j] + v * t;
                        }
                    }
                }
            }
            const int o = i - 2 * R, y = y0 + row0 + o;  // output row o is complete
            if (o >= 0 && y < height) {
                if constexpr (VEC) {
                    if (x < width)
                        *reinterpret_cast<float4*>(out + y * width + x) =
                            make_float4(sum[o][0], sum[o][1], sum[o][2], sum[o][3]);
                } else {
#pragma unroll
                    for (int j = 0; j < 4; ++j)
                        if (x + j < width) out[y * width + x + j] = sum[o][j];
                }
            }
        }
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
    // float4 loads and stores when every row of the image starts 16-byte aligned
    const auto kernel = c.width % 4 == 0 ? conv_shared_kernel<R, true> : conv_shared_kernel<R, false>;
    launch(kernel, grid, dim3(conv_bx, conv_by), 0, c.in, c.out, c.width, c.height);
}

}  // namespace

void conv_global(const Convolution2D& c, Launcher& launch) {
    const dim3 block(32, 8), grid(ceil_div(c.width, block.x), ceil_div(c.height, block.y));
    launch(conv_global_kernel, grid, block, 0, c.in, c.out, c.width, c.height, c.radius);
}

void conv_shared(const Convolution2D& c, Launcher& launch) { launch_conv_shared<0>(c, launch); }
