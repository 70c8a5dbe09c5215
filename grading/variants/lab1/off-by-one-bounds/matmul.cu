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
    if (row >= M - 1 || col >= N) return;  // PLANTED BUG (off-by-one-bounds): the last row is never written
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
// Measured on an H200 at 4096^3 (T = 32): depth 1 is 10% slower than the tiled rung (the
// run-time slab width costs index arithmetic), depth 4 is 5% faster, depth 8 7% faster.
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

void matmul_dynamic(const MatmulProblem& p, int tile, Launcher& launch) {
    const int depth = 8;
    dim3 block(tile, tile);
    dim3 grid(ceil_div(p.N, tile), ceil_div(p.M, tile));
    size_t bytes = 2 * size_t(tile) * depth * tile * sizeof(float);
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
// Rung 5: register blocking. A block of 256 threads computes a 128 x 128 tile of C; each
// thread holds an 8 x 8 block of it in registers. Per step of k a thread reads 8 values
// of A and 8 of B from shared memory and does 64 multiply-adds with them, so shared
// memory stops being the bottleneck. A is stored transposed in shared memory so those 8
// values are contiguous. When K and N are multiples of 4 (and the pointers 16-byte
// aligned) global memory is read and written 16 bytes at a time.
namespace regblock {
constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
constexpr int THREADS = (BM / TM) * (BN / TN);  // 256
}  // namespace regblock

template <bool kVectorized>
__global__ void __launch_bounds__(regblock::THREADS) regblock_kernel(const float* A, const float* B, float* C, int M,
                                                                     int N, int K) {
    using namespace regblock;
    __shared__ float As[BK][BM];  // transposed: As[k][m]
    __shared__ float Bs[BK][BN];
    const int tid = threadIdx.x;
    const int thread_row = tid / (BN / TN), thread_col = tid % (BN / TN);
    const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
    // Each thread stages 4 consecutive elements of A (row tid/2) and 4 of B (row tid/32).
    const int a_row = tid / 2, a_col = (tid % 2) * 4;
    const int b_row = tid / 32, b_col = (tid % 32) * 4;

    float acc[TM][TN] = {};
    float a_frag[TM], b_frag[TN];
    for (int k0 = 0; k0 < K; k0 += BK) {
        int ga_row = block_row + a_row, ga_col = k0 + a_col;
        int gb_row = k0 + b_row, gb_col = block_col + b_col;
        if (kVectorized) {
            // K % 4 == 0 and N % 4 == 0: a 4-element chunk is wholly inside or outside.
            float4 a = make_float4(0, 0, 0, 0), b = make_float4(0, 0, 0, 0);
            if (ga_row < M && ga_col < K) a = *reinterpret_cast<const float4*>(&A[ga_row * K + ga_col]);
            if (gb_row < K && gb_col < N) b = *reinterpret_cast<const float4*>(&B[gb_row * N + gb_col]);
            As[a_col + 0][a_row] = a.x;
            As[a_col + 1][a_row] = a.y;
            As[a_col + 2][a_row] = a.z;
            As[a_col + 3][a_row] = a.w;
            *reinterpret_cast<float4*>(&Bs[b_row][b_col]) = b;
        } else {
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                As[a_col + i][a_row] = (ga_row < M && ga_col + i < K) ? A[ga_row * K + ga_col + i] : 0.f;
                Bs[b_row][b_col + i] = (gb_row < K && gb_col + i < N) ? B[gb_row * N + gb_col + i] : 0.f;
            }
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; ++k) {
#pragma unroll
            for (int i = 0; i < TM; ++i) a_frag[i] = As[k][thread_row * TM + i];
#pragma unroll
            for (int j = 0; j < TN; ++j) b_frag[j] = Bs[k][thread_col * TN + j];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] += a_frag[i] * b_frag[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        int row = block_row + thread_row * TM + i;
        if (row >= M) break;
#pragma unroll
        for (int j = 0; j < TN; j += 4) {
            int col = block_col + thread_col * TN + j;
            if (kVectorized) {
                if (col < N)
                    *reinterpret_cast<float4*>(&C[row * N + col]) =
                        make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
            } else {
#pragma unroll
                for (int jj = 0; jj < 4; ++jj)
                    if (col + jj < N) C[row * N + col + jj] = acc[i][j + jj];
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
