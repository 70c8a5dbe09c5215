// Lab 1 reference solution: the same interface as labs/lab1/matmul.cu (see matmul.h).
// Every kernel handles any M, N, K >= 1: loads outside a matrix read 0 (which adds
// nothing to a dot product) and stores outside C are skipped.
#include <cstdint>

#include "matmul.h"

// ---------------------------------------------------------------------------------
// Rung 1: naive. One thread per element of C; every product reads A and B from
// global memory, so each element of A is read N times and each element of B M times.
__global__ void naive_kernel(const float* A, const float* B, float* C, int M, int N, int K) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;  // y is the row: matrix [i][j] is CUDA (y, x)
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= M || col >= N) return;
    float sum = 0;
    for (int k = 0; k < K; ++k) sum += A[row * K + k] * B[k * N + col];
    C[row * N + col] = sum;
}

void matmul_naive(const MatmulProblem& p, int tile, Launcher& launch) {
    dim3 block(tile, tile);
    dim3 grid(ceil_div(p.N, tile), ceil_div(p.M, tile));
    launch(naive_kernel, grid, block, 0, p.A, p.B, p.C, p.M, p.N, p.K);
}

// ---------------------------------------------------------------------------------
// Rung 2: shared-memory tiles. A block stages a T x T tile of A and of B in shared
// memory, then each of its threads reads them T times: global traffic drops T-fold.
// T is a template parameter so the inner loop unrolls and the arrays are static.
template <int T>
__global__ void tiled_kernel(const float* A, const float* B, float* C, int M, int N, int K) {
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float sum = 0;
    for (int k0 = 0; k0 < K; k0 += T) {  // all ceil(K / T) tiles: the last one may be partial
        As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.f;
        Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : 0.f;
        __syncthreads();  // the tile is complete before anyone reads it
#pragma unroll
        for (int k = 0; k < T; ++k) sum += As[ty][k] * Bs[k][tx];
        __syncthreads();  // everyone is done with the tile before it is overwritten
    }
    if (row < M && col < N) C[row * N + col] = sum;
}

void matmul_tiled(const MatmulProblem& p, int tile, Launcher& launch) {
    dim3 block(tile, tile);
    dim3 grid(ceil_div(p.N, tile), ceil_div(p.M, tile));
    switch (tile) {
        case 8: launch(tiled_kernel<8>, grid, block, 0, p.A, p.B, p.C, p.M, p.N, p.K); break;
        case 16: launch(tiled_kernel<16>, grid, block, 0, p.A, p.B, p.C, p.M, p.N, p.K); break;
        case 32: launch(tiled_kernel<32>, grid, block, 0, p.A, p.B, p.C, p.M, p.N, p.K); break;
        default: throw LaunchRefused("the tiled rung is compiled for tiles 8, 16 and 32 only");
    }
}

// ---------------------------------------------------------------------------------
// Rung 3: tiles in dynamically allocated shared memory. Its size is chosen at run time,
// which lets the block stage a deeper slab of K at once: a T x (depth T) strip of A and
// a (depth T) x T strip of B. Each thread then has `depth` independent loads of each
// matrix in flight per slab instead of one, and the block meets at a barrier `depth`
// times less often. With T = 32 and depth 8 that is 64 KB, more than the 48 KB a static
// array may have: only dynamic shared memory, with the opt-in, can be that large.
template <int T>
__global__ void dynamic_kernel(const float* A, const float* B, float* C, int M, int N, int K, int depth) {
    extern __shared__ float shared[];
    const int slab = depth * T;
    float* As = shared;             // T rows x slab columns
    float* Bs = shared + T * slab;  // slab rows x T columns
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float sum = 0;
    for (int k0 = 0; k0 < K; k0 += slab) {
        for (int d = 0; d < depth; ++d) {
            int ka = k0 + d * T + tx, kb = k0 + d * T + ty;
            As[ty * slab + d * T + tx] = (row < M && ka < K) ? A[row * K + ka] : 0.f;
            Bs[(d * T + ty) * T + tx] = (kb < K && col < N) ? B[kb * N + col] : 0.f;
        }
        __syncthreads();
        for (int d = 0; d < depth; ++d) {
#pragma unroll
            for (int k = 0; k < T; ++k) sum += As[ty * slab + d * T + k] * Bs[(d * T + k) * T + tx];
        }
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = sum;
}

void matmul_dynamic(const MatmulProblem& p, int tile, int depth, Launcher& launch) {
    dim3 block(tile, tile);
    dim3 grid(ceil_div(p.N, tile), ceil_div(p.M, tile));
    size_t bytes = 2 * size_t(tile) * depth * tile * sizeof(float);  // the launcher refuses more than the GPU has
    switch (tile) {
        case 8: launch(dynamic_kernel<8>, grid, block, bytes, p.A, p.B, p.C, p.M, p.N, p.K, depth); break;
        case 16: launch(dynamic_kernel<16>, grid, block, bytes, p.A, p.B, p.C, p.M, p.N, p.K, depth); break;
        case 32: launch(dynamic_kernel<32>, grid, block, bytes, p.A, p.B, p.C, p.M, p.N, p.K, depth); break;
        default: throw LaunchRefused("the dynamic rung is compiled for tiles 8, 16 and 32 only");
    }
}

// ---------------------------------------------------------------------------------
// Rung 4: thread coarsening. A 32 x 16 block computes a 32 x 32 tile of C: each thread
// owns C[i][j] and C[i + 16][j]. Every value of B read from shared memory now feeds two
// multiply-adds, and half as many threads share the same staging work.
__global__ void coarse2_kernel(const float* A, const float* B, float* C, int M, int N, int K) {
    constexpr int T = 32, H = 16;
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float top = 0, bottom = 0;
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int half = 0; half < 2; ++half) {
            int r = ty + half * H;
            As[r][tx] = (row + half * H < M && k0 + tx < K) ? A[(row + half * H) * K + k0 + tx] : 0.f;
            Bs[r][tx] = (k0 + r < K && col < N) ? B[(k0 + r) * N + col] : 0.f;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < T; ++k) {
            float b = Bs[k][tx];
            top += As[ty][k] * b;
            bottom += As[ty + H][k] * b;
        }
        __syncthreads();
    }
    if (col < N) {
        if (row < M) C[row * N + col] = top;
        if (row + H < M) C[(row + H) * N + col] = bottom;
    }
}

void matmul_coarse2(const MatmulProblem& p, Launcher& launch) {
    dim3 block(32, 16);
    dim3 grid(ceil_div(p.N, 32), ceil_div(p.M, 32));
    launch(coarse2_kernel, grid, block, 0, p.A, p.B, p.C, p.M, p.N, p.K);
}

// ---------------------------------------------------------------------------------
// Rung 5: register blocking. A block of 256 threads (8 warps) computes a 128 x 128 tile of C;
// each thread holds 8 x 8 elements of it in registers. Three ideas make it fast:
//  - register blocking: per step of k a thread reads 8 values of A and 8 of B from shared
//    memory and does 64 multiply-adds with them (the tiled rung did 1 per 2 loads);
//  - warp tiling: a warp owns a 64 x 32 piece of the block's tile, and a thread's 8 x 8
//    elements are four 4 x 4 blocks spread over that piece (rows 4 ty + [0, 4) and
//    32 + 4 ty + [0, 4), columns 4 tx + [0, 4) and 16 + 4 tx + [0, 4)). At each k the warp
//    then reads As and Bs as whole float4s at consecutive addresses: four 16-byte shared
//    loads per 64 multiply-adds, without bank conflicts. A is stored transposed in shared
//    memory (As[k][m]) so that a thread's 4 values of A are contiguous too;
//  - double buffering: two copies of the shared tiles. While the block computes on one
//    slab of K, each thread already loads its part of the next slab from global memory into
//    registers, and stores it into the other copy afterwards: the loads' latency hides behind
//    the arithmetic, and one barrier per slab is enough.
// When K and N are multiples of 4 (and the pointers 16-byte aligned), global memory is read
// and written 16 bytes at a time; otherwise element by element, each with its bounds check.
namespace regblock {
constexpr int BM = 128, BN = 128, BK = 16;  // the block's tile of C, and the slab of K per step
constexpr int WM = 64, WN = 32;             // a warp's piece of it: 2 x 4 warps
constexpr int TM = 8, TN = 8;               // a thread's elements: 8 x 4 threads per warp
constexpr int THREADS = (BM / WM) * (BN / WN) * 32;     // 256
constexpr int A_LOADS = BM * BK / 4 / THREADS;          // float4s of A per thread per slab: 2
constexpr int B_LOADS = BK * BN / 4 / THREADS;          // and of B: 2
constexpr int A_STRIDE = BM + 4;  // padding: the transposed stores of A spread over the banks
}  // namespace regblock

// Four consecutive elements of row `row` of a matrix with `cols` columns, from column `col`;
// 0 outside it. kVectorized: cols % 4 == 0, so the four are wholly inside or outside.
template <bool kVectorized>
__device__ float4 load4(const float* M, int rows, int cols, int row, int col) {
    if (kVectorized) {
        if (row < rows && col < cols) return *reinterpret_cast<const float4*>(&M[row * cols + col]);
        return make_float4(0, 0, 0, 0);
    } else {
        float v[4];
#pragma unroll
        for (int i = 0; i < 4; ++i) v[i] = row < rows && col + i < cols ? M[row * cols + col + i] : 0.f;
        return make_float4(v[0], v[1], v[2], v[3]);
    }
}

template <bool kVectorized>
__global__ void __launch_bounds__(regblock::THREADS, 2) regblock_kernel(const float* A, const float* B, float* C, int M,
                                                                        int N, int K) {
    using namespace regblock;
    __shared__ __align__(16) float As[2][BK][A_STRIDE];  // transposed: As[stage][k][m]
    __shared__ __align__(16) float Bs[2][BK][BN];
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int warp_row = (warp / (BN / WN)) * WM, warp_col = (warp % (BN / WN)) * WN;
    const int ty = lane / (WN / TN), tx = lane % (WN / TN);
    const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;

    // This thread's share of a slab: float4 l of A is row a_r, columns k0 + a_c ..; of B row
    // k0 + b_r, columns b_c ..
    float4 a_next[A_LOADS], b_next[B_LOADS];
    auto load_slab = [&](int k0) {
#pragma unroll
        for (int l = 0; l < A_LOADS; ++l) {
            int i = tid + l * THREADS, a_r = i / (BK / 4), a_c = i % (BK / 4) * 4;
            a_next[l] = load4<kVectorized>(A, M, K, block_row + a_r, k0 + a_c);
        }
#pragma unroll
        for (int l = 0; l < B_LOADS; ++l) {
            int i = tid + l * THREADS, b_r = i / (BN / 4), b_c = i % (BN / 4) * 4;
            b_next[l] = load4<kVectorized>(B, K, N, k0 + b_r, block_col + b_c);
        }
    };
    auto store_slab = [&](int stage) {
#pragma unroll
        for (int l = 0; l < A_LOADS; ++l) {
            int i = tid + l * THREADS, a_r = i / (BK / 4), a_c = i % (BK / 4) * 4;
            As[stage][a_c + 0][a_r] = a_next[l].x;
            As[stage][a_c + 1][a_r] = a_next[l].y;
            As[stage][a_c + 2][a_r] = a_next[l].z;
            As[stage][a_c + 3][a_r] = a_next[l].w;
        }
#pragma unroll
        for (int l = 0; l < B_LOADS; ++l) {
            int i = tid + l * THREADS, b_r = i / (BN / 4), b_c = i % (BN / 4) * 4;
            *reinterpret_cast<float4*>(&Bs[stage][b_r][b_c]) = b_next[l];
        }
    };

    float acc[TM][TN] = {};
    load_slab(0);
    store_slab(0);
    __syncthreads();
    int stage = 0;
    for (int k0 = 0; k0 < K; k0 += BK) {
        const bool more = k0 + BK < K;
        if (more) load_slab(k0 + BK);  // in flight while we compute
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float a[TM], b[TN];
#pragma unroll
            for (int half = 0; half < 2; ++half) {
                float4 va = *reinterpret_cast<const float4*>(&As[stage][k][warp_row + half * (WM / 2) + ty * 4]);
                float4 vb = *reinterpret_cast<const float4*>(&Bs[stage][k][warp_col + half * (WN / 2) + tx * 4]);
                a[half * 4 + 0] = va.x, a[half * 4 + 1] = va.y, a[half * 4 + 2] = va.z, a[half * 4 + 3] = va.w;
                b[half * 4 + 0] = vb.x, b[half * 4 + 1] = vb.y, b[half * 4 + 2] = vb.z, b[half * 4 + 3] = vb.w;
            }
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
        }
        if (more) store_slab(stage ^ 1);  // the other copy: nobody reads it in this step
        __syncthreads();                  // the next slab is complete, and this one is free
        stage ^= 1;
    }

#pragma unroll
    for (int i = 0; i < TM; ++i) {
        int row = block_row + warp_row + (i / 4) * (WM / 2) + ty * 4 + i % 4;
        if (row >= M) continue;
#pragma unroll
        for (int half = 0; half < 2; ++half) {
            int col = block_col + warp_col + half * (WN / 2) + tx * 4;
            const float* v = &acc[i][half * 4];
            if (kVectorized) {
                if (col < N) *reinterpret_cast<float4*>(&C[row * N + col]) = make_float4(v[0], v[1], v[2], v[3]);
            } else {
#pragma unroll
                for (int j = 0; j < 4; ++j)
                    if (col + j < N) C[row * N + col + j] = v[j];
            }
        }
    }
}

void matmul_regblock(const MatmulProblem& p, Launcher& launch) {
    using namespace regblock;
    dim3 block(THREADS);
    dim3 grid(ceil_div(p.N, BN), ceil_div(p.M, BM));
    auto aligned = [](const void* ptr) { return reinterpret_cast<uintptr_t>(ptr) % 16 == 0; };
    bool vectorized = p.K % 4 == 0 && p.N % 4 == 0 && aligned(p.A) && aligned(p.B) && aligned(p.C);
    if (vectorized)
        launch(regblock_kernel<true>, grid, block, 0, p.A, p.B, p.C, p.M, p.N, p.K);
    else
        launch(regblock_kernel<false>, grid, block, 0, p.A, p.B, p.C, p.M, p.N, p.K);
}
