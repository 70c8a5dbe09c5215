// Lab 5: the reduction ladder. Reference solution (same interface as labs/lab5/reduce.cu).
//
// Rungs 1-9 are the kernels of the student report (Professional CUDA C Programming, chapter 3,
// run on a Tesla P100), corrected for today's GPUs: every rung handles any n (the report's
// unrolled kernels drop the elements of a last group that is not full, and its trees read past
// the end of a last block that is not full), no thread leaves before a barrier the others wait
// at, and the last warp's steps are ordered by __syncwarp() (the report's `volatile` idiom
// relied on the 32 lanes of a warp running in step, which independent thread scheduling no
// longer promises). They reduce in place in global memory, as the report's do: the driver
// loads each run's own input before it.
// Rungs 10 and 11 go beyond the report: warp shuffles, then one grid-stride launch with 16-byte
// loads that reads the input once, at the speed of the memory (the goal: CUB's).
#include <algorithm>

#include "reduce.h"

namespace {

// ---------------------------------------------------------------------------------------------
// The passes. A rung's kernel reduces each group of `per_block` x blockDim consecutive values
// to one partial sum per block. Run over the input, then over its partial sums, and so on
// until one block is left, whose sum goes straight to *p.result. Every launch is part of the
// rung's time. Partial sums alternate between p.partial and p.partial2 (a pass must not write
// where it reads).
using PassKernel = void (*)(double* in, double* out, unsigned int n);

void reduce_in_passes(PassKernel kernel, unsigned int per_block, const ReduceProblem& p, Launcher& launch) {
    double* in = p.data;
    unsigned int count = unsigned(p.n);
    double* scratch[2] = {p.partial, p.partial2};
    for (int pass = 0;; ++pass) {
        unsigned int grid = ceil_div(count, per_block * unsigned(p.block));
        double* out = grid == 1 ? p.result : scratch[pass % 2];
        launch(kernel, dim3(grid), dim3(p.block), 0, in, out, count);
        if (grid == 1) return;
        in = out;
        count = grid;
    }
}

// The values block `blockIdx.x` reduces, from `first`: all of blockDim.x but in the last block.
__device__ __forceinline__ unsigned int values_in_block(unsigned int first, unsigned int n) {
    return min(blockDim.x, n - first);
}

// ---------------------------------------------------------------------------------------------
// Rung 1: reduceNeighbored. In place in global memory; at step `stride` the threads whose tid
// is a multiple of 2 x stride add their neighbour `stride` away. Half the threads of every warp
// idle from the first step on (divergence), and `%` is a slow instruction.
__global__ void neighbored_kernel(double* g_idata, double* g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * blockDim.x;
    double* idata = g_idata + first;
    unsigned int count = values_in_block(first, n);  // the values past the end count as zeros
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        if ((tid % (2 * stride)) == 0 && tid + stride < count) idata[tid] += idata[tid + stride];
        __syncthreads();  // every thread, also those with nothing to add: no early return
    }
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

// Rung 2: reduceNeighboredLess. The same pairs, but thread tid works on element 2 x stride x tid:
// the working threads are the first ones, so whole warps idle instead of half of every warp.
__global__ void neighbored_less_kernel(double* g_idata, double* g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * blockDim.x;
    double* idata = g_idata + first;
    unsigned int count = values_in_block(first, n);
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        unsigned int index = 2 * stride * tid;
        if (index + stride < count) idata[index] += idata[index + stride];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

// Rung 3: reduceInterleaved. Thread tid adds the element `stride` away, stride halving from
// blockDim / 2: the working threads are the first ones and a warp reads consecutive elements.
__device__ __forceinline__ void interleaved_tree(double* idata, unsigned int tid, unsigned int count) {
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride && tid + stride < count) idata[tid] += idata[tid + stride];
        __syncthreads();
    }
}

__global__ void interleaved_kernel(double* g_idata, double* g_odata, unsigned int n) {
    unsigned int first = blockIdx.x * blockDim.x;
    interleaved_tree(g_idata + first, threadIdx.x, values_in_block(first, n));
    if (threadIdx.x == 0) g_odata[blockIdx.x] = g_idata[first];
}

// ---------------------------------------------------------------------------------------------
// Rungs 4-6: a block first adds K neighbouring blocks' worth of values (each thread K values,
// blockDim apart: coalesced), into the first blockDim of them, then reduces those as rung 3.
// A last group that is not full still adds every value it has (the report's `if (idx + (K-1) *
// blockDim.x < n)` without an `else` drops them).
template <int K>
__device__ __forceinline__ void add_group(double* g_idata, unsigned int first, unsigned int n) {
    unsigned int idx = first + threadIdx.x, b = blockDim.x;
    if (idx + (K - 1) * b < n) {
        double a[K];
#pragma unroll
        for (int k = 0; k < K; ++k) a[k] = g_idata[idx + k * b];  // K loads in flight
        double sum = a[0];
#pragma unroll
        for (int k = 1; k < K; ++k) sum += a[k];
        g_idata[idx] = sum;
    } else if (idx < n) {  // the last, partial group
        double sum = g_idata[idx];
        for (int k = 1; k < K && idx + k * b < n; ++k) sum += g_idata[idx + k * b];
        g_idata[idx] = sum;
    }
    __syncthreads();
}

template <int K>
__global__ void unrolling_kernel(double* g_idata, double* g_odata, unsigned int n) {
    unsigned int first = blockIdx.x * blockDim.x * K;
    add_group<K>(g_idata, first, n);
    interleaved_tree(g_idata + first, threadIdx.x, values_in_block(first, n));
    if (threadIdx.x == 0) g_odata[blockIdx.x] = g_idata[first];
}

// ---------------------------------------------------------------------------------------------
// Rungs 7-9: the last 64 values of a block reduced by its first warp alone, without
// __syncthreads(). Since Volta every thread has its own program counter (independent thread
// scheduling): the lanes of a warp may run apart, so the report's
//     volatile double* v = idata; v[tid] += v[tid + 32]; v[tid] += v[tid + 16]; ...
// can read v[tid + 16] after lane tid + 16 has already updated it. `volatile` only stops the
// compiler from keeping values in registers; it orders nothing between lanes. __syncwarp()
// does: each step reads, waits for every lane, writes, and waits again. Values at or past
// `count` are zeros and never touched (the end of the array may be there).
__device__ __forceinline__ void last_warp(double* idata, unsigned int tid, unsigned int count) {
#pragma unroll
    for (unsigned int offset = 32; offset > 0; offset >>= 1) {
        bool adds = tid + offset < count;
        double v = adds ? idata[tid] + idata[tid + offset] : 0.0;
        __syncwarp();  // every lane has read before any lane writes
        if (adds) idata[tid] = v;
        __syncwarp();  // every lane has written before the next step reads
    }
}

// Rung 7: reduceUnrollWarps8. Rung 6 with the tree stopped at 64 values: the last warp
// finishes without a barrier for the whole block.
__global__ void unroll_warps8_kernel(double* g_idata, double* g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * blockDim.x * 8;
    double* idata = g_idata + first;
    add_group<8>(g_idata, first, n);
    unsigned int count = values_in_block(first, n);
    for (unsigned int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (tid < stride && tid + stride < count) idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid < 32) last_warp(idata, tid, count);
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

// Rung 8: reduceCompleteUnrollWarps8. The tree's loop written out step by step for blocks of
// at most 1024 threads; the tests of blockDim.x are the same for every thread of the block.
__global__ void complete_unroll_warps8_kernel(double* g_idata, double* g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * blockDim.x * 8;
    double* idata = g_idata + first;
    add_group<8>(g_idata, first, n);
    unsigned int count = values_in_block(first, n);
    if (blockDim.x >= 1024 && tid < 512 && tid + 512 < count) idata[tid] += idata[tid + 512];
    __syncthreads();
    if (blockDim.x >= 512 && tid < 256 && tid + 256 < count) idata[tid] += idata[tid + 256];
    __syncthreads();
    if (blockDim.x >= 256 && tid < 128 && tid + 128 < count) idata[tid] += idata[tid + 128];
    __syncthreads();
    if (blockDim.x >= 128 && tid < 64 && tid + 64 < count) idata[tid] += idata[tid + 64];
    __syncthreads();
    if (tid < 32) last_warp(idata, tid, count);
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

// Rung 9: reduceCompleteUnroll<iBlockSize>. The block size a template parameter: the compiler
// drops the steps a block of that size does not have.
template <unsigned int iBlockSize>
__global__ void complete_unroll_kernel(double* g_idata, double* g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * iBlockSize * 8;
    double* idata = g_idata + first;
    add_group<8>(g_idata, first, n);
    unsigned int count = min(iBlockSize, n - first);
    if (iBlockSize >= 1024 && tid < 512 && tid + 512 < count) idata[tid] += idata[tid + 512];
    if (iBlockSize >= 1024) __syncthreads();
    if (iBlockSize >= 512 && tid < 256 && tid + 256 < count) idata[tid] += idata[tid + 256];
    if (iBlockSize >= 512) __syncthreads();
    if (iBlockSize >= 256 && tid < 128 && tid + 128 < count) idata[tid] += idata[tid + 128];
    if (iBlockSize >= 256) __syncthreads();
    if (iBlockSize >= 128 && tid < 64 && tid + 64 < count) idata[tid] += idata[tid + 64];
    if (iBlockSize >= 128) __syncthreads();
    if (tid < 32) last_warp(idata, tid, count);
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

// ---------------------------------------------------------------------------------------------
// Rungs 10 and 11: a block's sum through registers. __shfl_down_sync(mask, v, k) gives lane i
// the v of lane i + k, read from its registers: five steps sum a warp without touching memory.
// The warps' sums meet in shared memory, and the first warp sums those.
__device__ __forceinline__ double warp_sum(double v) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;  // lane 0 holds the warp's sum
}

// Every thread of the block calls it; thread 0 gets the block's sum. A second call in the same
// kernel must come after a __syncthreads() that follows the first (warp 0 reads warp_sums).
__device__ double block_sum(double v) {
    __shared__ double warp_sums[32];
    unsigned int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = warp_sum(v);
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();  // every warp's sum is in shared memory before warp 0 reads them
    if (warp == 0) v = warp_sum(lane < blockDim.x / 32 ? warp_sums[lane] : 0.0);
    return v;
}

// Rung 10: each thread adds 8 values (as rung 6), then the block sums them by shuffles. It
// only reads its input, and no barrier waits on a tree step.
__global__ void shuffle_kernel(double* g_idata, double* g_odata, unsigned int n) {
    unsigned int b = blockDim.x;
    unsigned int idx = blockIdx.x * b * 8 + threadIdx.x;
    double sum = 0;
    if (idx + 7 * b < n) {
        double a[8];
#pragma unroll
        for (int k = 0; k < 8; ++k) a[k] = g_idata[idx + k * b];
#pragma unroll
        for (int k = 0; k < 8; ++k) sum += a[k];
    } else {
        for (int k = 0; k < 8 && idx + k * b < n; ++k) sum += g_idata[idx + k * b];
    }
    sum = block_sum(sum);
    if (threadIdx.x == 0) g_odata[blockIdx.x] = sum;
}

// Rung 11: the whole sum in one launch, at the speed of the memory.
//   - A grid that fills the GPU once (blocks_per_sm x SMs, from the occupancy calculator) and
//     loops over the input with a stride of the whole grid: no block waits for another to
//     start, and each thread's loop is long enough to hide the memory's latency.
//   - 16-byte loads (double2: half the load instructions of 8-byte ones), four of them issued
//     before any is used (64 bytes in flight a thread), into four independent sums.
//   - The block's sum by shuffles; block partials in p.partial. The last block to finish (an
//     atomic ticket in p.counter, after a __threadfence() that publishes its partial) adds
//     the partials and writes the result, then puts the counter back to 0 for the next run:
//     one launch instead of a second pass, and nothing waits on the host.
constexpr int grid_stride_unroll = 4;

__global__ void __launch_bounds__(1024) grid_stride_kernel(const double* __restrict__ in, unsigned int n,
                                                           double* partial, unsigned int* counter, double* result) {
    const double2* in2 = reinterpret_cast<const double2*>(in);  // the input is 256-byte aligned
    const unsigned int pairs = n / 2;
    const unsigned int stride = gridDim.x * blockDim.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    double s[grid_stride_unroll] = {};
    for (; i + (grid_stride_unroll - 1) * stride < pairs; i += grid_stride_unroll * stride) {
        double2 v[grid_stride_unroll];
#pragma unroll
        for (int k = 0; k < grid_stride_unroll; ++k) v[k] = in2[i + k * stride];
#pragma unroll
        for (int k = 0; k < grid_stride_unroll; ++k) s[k] += v[k].x + v[k].y;
    }
    for (; i < pairs; i += stride) {
        double2 v = in2[i];
        s[0] += v.x + v.y;
    }
    double sum = (s[0] + s[1]) + (s[2] + s[3]);
    if (blockIdx.x == 0 && threadIdx.x == 0 && (n & 1)) sum += in[n - 1];  // an odd n's last value
    sum = block_sum(sum);

    __shared__ bool is_last;
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = sum;
        __threadfence();  // the partial is visible to every block before the ticket is taken
        unsigned int ticket = atomicAdd(counter, 1u);
        is_last = ticket == gridDim.x - 1;
        if (is_last) __threadfence();  // and the others' partials before this block reads them
    }
    __syncthreads();
    if (!is_last) return;
    double total = 0;
    for (unsigned int j = threadIdx.x; j < gridDim.x; j += blockDim.x) total += __ldcg(&partial[j]);  // from L2
    total = block_sum(total);
    if (threadIdx.x == 0) {
        *result = total;
        *counter = 0;  // every block has taken its ticket: ready for the next launch
    }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
void reduce_neighbored(const ReduceProblem& p, Launcher& launch) { reduce_in_passes(neighbored_kernel, 1, p, launch); }
void reduce_neighbored_less(const ReduceProblem& p, Launcher& launch) {
    reduce_in_passes(neighbored_less_kernel, 1, p, launch);
}
void reduce_interleaved(const ReduceProblem& p, Launcher& launch) { reduce_in_passes(interleaved_kernel, 1, p, launch); }
void reduce_unrolling2(const ReduceProblem& p, Launcher& launch) { reduce_in_passes(unrolling_kernel<2>, 2, p, launch); }
void reduce_unrolling4(const ReduceProblem& p, Launcher& launch) { reduce_in_passes(unrolling_kernel<4>, 4, p, launch); }
void reduce_unrolling8(const ReduceProblem& p, Launcher& launch) { reduce_in_passes(unrolling_kernel<8>, 8, p, launch); }
void reduce_unroll_warps8(const ReduceProblem& p, Launcher& launch) {
    reduce_in_passes(unroll_warps8_kernel, 8, p, launch);
}
void reduce_complete_unroll_warps8(const ReduceProblem& p, Launcher& launch) {
    reduce_in_passes(complete_unroll_warps8_kernel, 8, p, launch);
}

void reduce_complete_unroll(const ReduceProblem& p, Launcher& launch) {
    PassKernel kernel = nullptr;
    switch (p.block) {  // the block size chosen at run time picks the instantiation
        case 64: kernel = complete_unroll_kernel<64>; break;
        case 128: kernel = complete_unroll_kernel<128>; break;
        case 256: kernel = complete_unroll_kernel<256>; break;
        case 512: kernel = complete_unroll_kernel<512>; break;
        case 1024: kernel = complete_unroll_kernel<1024>; break;
        default: throw LaunchRefused("complete_unroll is compiled for blocks of 64, 128, 256, 512 and 1024 threads");
    }
    reduce_in_passes(kernel, 8, p, launch);
}

void reduce_shuffle(const ReduceProblem& p, Launcher& launch) { reduce_in_passes(shuffle_kernel, 8, p, launch); }

void reduce_grid_stride(const ReduceProblem& p, Launcher& launch) {
    int device = 0, sms = 0, blocks_per_sm = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, grid_stride_kernel, p.block, 0));
    // One full wave of blocks, but no more blocks than there are pairs of values for their
    // threads (a small n needs one block), and at least one.
    unsigned int pairs = unsigned(p.n / 2);
    unsigned int grid = std::max(1u, std::min(unsigned(std::max(blocks_per_sm, 1) * sms), ceil_div(pairs, unsigned(p.block))));
    launch(grid_stride_kernel, dim3(grid), dim3(p.block), 0, p.data, unsigned(p.n), p.partial, p.counter, p.result);
}
