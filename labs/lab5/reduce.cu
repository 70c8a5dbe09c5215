// Lab 5: the reduction ladder. THIS is the file you edit.
//
// Each rung sums the n doubles of p.data on the GPU and leaves the sum in *p.result (see
// reduce.h). `make lab5` checks every rung against the exact sum and times it against CUB's
// DeviceReduce::Sum on the same data. A rung whose host function launches nothing shows
// "not implemented". Handout: handouts/lab5-reduction-ladder.md.
//
// Every n >= 1 must work, not only multiples of the block (or of 8 blocks), and every block
// size the driver allows: 64, 128, 256, 512 and 1024 threads (--block). Values past the end of
// the input count as zeros: never read or write them. A thread must not return before a
// __syncthreads() that the other threads of its block wait at. No volatile pointer anywhere in
// this file, however spelled: the grader reads the PTX nvcc makes of it, and a volatile load or
// store there (ld.volatile, st.volatile) zeroes rungs 7 to 9, for the reason in TODO 7a.
//
// The tree every rung builds is the one of the CPU recursion the driver times as its row
// "cpu" (the textbook's recursiveReduce, without its dropped element for odd sizes):
//
//     double pairwise_sum(const double* x, size_t n) {
//         if (n == 1) return x[0];
//         size_t half = n / 2;
//         return pairwise_sum(x, half) + pairwise_sum(x + half, n - half);
//     }
//
// On the GPU a block sums its share of the input as a tree, one level per step, and writes one
// partial sum; the partial sums are then summed the same way.
#include "reduce.h"

// ---------------------------------------------------------------------------------------------
// Given: the passes. A rung's kernel reduces each group of per_block x blockDim consecutive
// values to one partial sum per block (rungs 1-3: per_block = 1; rungs 4-10: 2, 4 or 8). This
// runs it over the input, then over its partial sums, and so on until one block is left, which
// writes the sum straight to *p.result. Every launch is part of the rung's time. The partial
// sums alternate between p.partial and p.partial2, so a pass never writes where it reads.
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

// Given: how many values block blockIdx.x reduces, from index `first` on: blockDim.x, except in
// the last block, where fewer may be left.
__device__ __forceinline__ unsigned int values_in_block(unsigned int first, unsigned int n) {
    return min(blockDim.x, n - first);
}

// ---------------------------------------------------------------------------------------------
// Rung 1: reduceNeighbored. In place in global memory: block b reduces in[b * blockDim ...].
// At step `stride` (1, 2, 4, ...) thread tid adds in[tid + stride] into in[tid] when tid is a
// multiple of 2 x stride.
__global__ void neighbored_kernel(double* g_idata, double* g_odata, unsigned int n) {
    // TODO 1a: idata = g_idata + this block's first index; count = values_in_block(...).
    // TODO 1b: for (stride = 1; stride < blockDim.x; stride *= 2): add when tid % (2 * stride)
    //          == 0 AND tid + stride < count (past count are zeros), then __syncthreads() for
    //          every thread, adding or not. (The textbook's kernel returns early when idx >= n: do not.)
    // TODO 1c: thread 0 writes idata[0] to g_odata[blockIdx.x].
}

void reduce_neighbored(const ReduceProblem& p, Launcher& launch) {
    // TODO 1d: reduce_in_passes(neighbored_kernel, 1, p, launch);
    (void)p, (void)launch;
}

// ---------------------------------------------------------------------------------------------
// Rung 2: reduceNeighboredLess. The same pairs, but thread tid handles element 2 x stride x tid,
// so the working threads are the first ones of the block.
__global__ void neighbored_less_kernel(double* g_idata, double* g_odata, unsigned int n) {
    // TODO 2a: as rung 1 with index = 2 * stride * tid: add in[index + stride] into in[index]
    //          when index + stride < count. Why this is faster: the handout's
    //          question 1 (Divergence).
}

void reduce_neighbored_less(const ReduceProblem& p, Launcher& launch) {
    // TODO 2b
    (void)p, (void)launch;
}

// ---------------------------------------------------------------------------------------------
// Rung 3: reduceInterleaved. Thread tid adds in[tid + stride] for stride = blockDim / 2, / 4,
// ... 1: the working threads are the first ones AND a warp reads consecutive values.
__global__ void interleaved_kernel(double* g_idata, double* g_odata, unsigned int n) {
    // TODO 3a: the loop, adding when tid < stride and tid + stride < count; then the write.
}

void reduce_interleaved(const ReduceProblem& p, Launcher& launch) {
    // TODO 3b
    (void)p, (void)launch;
}

// ---------------------------------------------------------------------------------------------
// Rungs 4-6: reduceUnrolling2, 4 and 8. Block b first adds K blocks' worth of values: thread
// tid adds in[first + tid + k * blockDim] for k = 1 .. K-1 into in[first + tid], with
// first = b * blockDim * K; after a __syncthreads(), the first blockDim values (count of them,
// fewer in the last block) are reduced as in rung 3.
// A last group that is not full must still add every value it has: the textbook writes
//     if (idx + 7 * blockDim.x < n) { a1 = ...; ... g_idata[idx] = a1 + ... + b4; }
// and nothing else, which drops them. Load the K values first and add them after (K loads in
// flight at once: the handout's section 3.4 (Unrolling)).
__global__ void unrolling2_kernel(double* g_idata, double* g_odata, unsigned int n) {
    // TODO 4a (a template<int K> __device__ helper can serve all three rungs)
}
__global__ void unrolling4_kernel(double* g_idata, double* g_odata, unsigned int n) {
    // TODO 5a
}
__global__ void unrolling8_kernel(double* g_idata, double* g_odata, unsigned int n) {
    // TODO 6a
}

void reduce_unrolling2(const ReduceProblem& p, Launcher& launch) {
    // TODO 4b: reduce_in_passes(unrolling2_kernel, 2, p, launch);
    (void)p, (void)launch;
}
void reduce_unrolling4(const ReduceProblem& p, Launcher& launch) {
    // TODO 5b
    (void)p, (void)launch;
}
void reduce_unrolling8(const ReduceProblem& p, Launcher& launch) {
    // TODO 6b
    (void)p, (void)launch;
}

// ---------------------------------------------------------------------------------------------
// Rung 7: reduceUnrollWarps8. Rung 6, with the tree stopped once 64 values are left (stride >
// 32); the first warp (tid < 32) adds those without __syncthreads().
//
// TODO 7a: the last warp's steps, offset = 32, 16, 8, 4, 2, 1. The textbook writes
//     volatile double* v = idata; v[tid] += v[tid + 32]; v[tid] += v[tid + 16]; ...
// which assumes the 32 lanes run in step. Since Volta they need not (independent thread
// scheduling): lane tid may read v[tid + 16] after lane tid + 16 has already updated it, and
// `volatile` orders nothing between lanes. Per step: every lane reads (when tid + offset <
// count), __syncwarp(), writes (when it read), __syncwarp(). The handout's
// section 3.5 (Warp-synchronous code).
__device__ void last_warp(double* idata, unsigned int tid, unsigned int count) {
}

__global__ void unroll_warps8_kernel(double* g_idata, double* g_odata, unsigned int n) {
    // TODO 7b
}

void reduce_unroll_warps8(const ReduceProblem& p, Launcher& launch) {
    // TODO 7c
    (void)p, (void)launch;
}

// ---------------------------------------------------------------------------------------------
// Rung 8: reduceCompleteUnrollWarps8. Rung 7 with the tree's loop written out for blocks of up
// to 1024 threads: if (blockDim.x >= 1024 && tid < 512 ...) ...; __syncthreads(); then 256,
// 128, 64, then the last warp.
__global__ void complete_unroll_warps8_kernel(double* g_idata, double* g_odata, unsigned int n) {
    // TODO 8a
}

void reduce_complete_unroll_warps8(const ReduceProblem& p, Launcher& launch) {
    // TODO 8b
    (void)p, (void)launch;
}

// ---------------------------------------------------------------------------------------------
// Rung 9: reduceCompleteUnroll<iBlockSize>. Rung 8 with the block size a template parameter, so
// the compiler drops the steps a block of that size does not have.
template <unsigned int iBlockSize>
__global__ void complete_unroll_kernel(double* g_idata, double* g_odata, unsigned int n) {
    // TODO 9a
}

void reduce_complete_unroll(const ReduceProblem& p, Launcher& launch) {
    // TODO 9b: choose the instantiation from p.block at run time:
    //          switch (p.block) { case 64: kernel = complete_unroll_kernel<64>; break; ... }
    //          then reduce_in_passes(kernel, 8, p, launch). For any other block:
    //          throw LaunchRefused("complete_unroll is compiled for blocks of 64 ... 1024 threads");
    (void)p, (void)launch;
}

// ---------------------------------------------------------------------------------------------
// Rung 10, beyond the textbook: warp shuffles. __shfl_down_sync(0xffffffff, v, k) gives lane i
// the v of lane i + k, from its registers: no shared or global memory, no __syncwarp().
__device__ double warp_sum(double v) {
    // TODO 10a: five steps, k = 16, 8, 4, 2, 1; lane 0 ends with the warp's sum.
    return v;
}

__global__ void shuffle_kernel(double* g_idata, double* g_odata, unsigned int n) {
    // TODO 10b: each thread adds its 8 values (as rung 6, but into a register: the input is
    //           only read), then warp_sum; lane 0 of each warp puts its sum in a __shared__
    //           array of 32, __syncthreads(), and warp 0 sums those with warp_sum again.
    //           Thread 0 writes the block's sum.
}

void reduce_shuffle(const ReduceProblem& p, Launcher& launch) {
    // TODO 10c: reduce_in_passes(shuffle_kernel, 8, p, launch);
    (void)p, (void)launch;
}

// ---------------------------------------------------------------------------------------------
// Rung 11, beyond the textbook: the whole sum in one launch, at the speed of the memory (the
// goal: 95% of CUB's throughput at 2^24 and 2^27 doubles). The handout's
// section 3.7 (Grid-stride loops).
//   - A grid that fills the GPU once: cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks,
//     kernel, p.block, 0) x the SM count (cudaDeviceGetAttribute(&sms,
//     cudaDevAttrMultiProcessorCount, device)), but at most ceil((n / 2) / p.block) blocks (n / 2
//     rounded down: the double2 pairs; no block past the one that reads the last pair), and at
//     least 1 (n = 1 has no pair). p.partial holds ceil(n / 64) doubles, one for each block such a
//     grid can have.
//   - A grid-stride loop over the input read as double2 (16-byte loads; p.data is 256-byte
//     aligned), several loads issued before any is used, into several independent sums; an
//     odd n's last value added once.
//   - The block's sum by shuffles (rung 10), into p.partial[blockIdx.x].
//   - The last block to finish adds the partial sums: thread 0 writes its partial,
//     __threadfence(), then atomicAdd(p.counter, 1) returns how many blocks came before; the
//     block that gets gridDim.x - 1 reads every partial (__ldcg: from L2), writes *p.result and
//     puts *p.counter back to 0 (the driver does not: the next run needs it at 0).
__global__ void grid_stride_kernel(const double* in, unsigned int n, double* partial, unsigned int* counter,
                                   double* result) {
    // TODO 11a
}

void reduce_grid_stride(const ReduceProblem& p, Launcher& launch) {
    // TODO 11b: the grid, then one launch:
    //           launch(grid_stride_kernel, dim3(grid), dim3(p.block), 0, p.data, unsigned(p.n),
    //                  p.partial, p.counter, p.result);
    (void)p, (void)launch;
}
