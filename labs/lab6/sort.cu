// Lab 6: sorting networks. THIS is the file you edit.
//
// Every part sorts p.batch arrays of p.length (key, value) pairs in place, each array on its
// own, ascending when p.ascending, else descending (see sort.h). `make lab6` checks every array
// exactly (sorted, the same keys, every value still with its key) and times each part against
// CUB's segmented sort and thrust::sort_by_key on the same data. A part whose host function
// launches nothing shows "not implemented". Handout: handouts/lab6-sorting-networks.md.
//
// Every power-of-two length must work, from 1 up, with any batch: fewer pairs in all than one
// tile of 1024 (a last, partial tile), and both directions. A thread must not return before a
// __syncthreads() that the other threads of its block wait at. Moving a key without its value
// loses the pair: swap both, always.
//
// The structure is seed 000's (NVIDIA's sortingNetworks sample): a block of 512 threads sorts a
// tile of 1024 pairs in shared memory, each thread one comparator per step; longer arrays are
// presorted tile by tile, then merged, in global memory while the stride is 1024 or more.
#include "sort.h"

constexpr unsigned tile = shared_size_limit;  // 1024 pairs a block, 512 threads: one comparator each a step

// Given: the seed's Comparator. After it, key a <= key b when `up`, a >= b otherwise; the
// values move with their keys.
__device__ __forceinline__ void comparator(uint32_t& key_a, uint32_t& value_a, uint32_t& key_b, uint32_t& value_b,
                                           bool up) {
    if ((key_a > key_b) == up && key_a != key_b) {
        uint32_t t = key_a;
        key_a = key_b;
        key_b = t;
        t = value_a;
        value_a = value_b;
        value_b = t;
    }
}

// Given: log2 of a power of two.
inline unsigned log2_of(unsigned power_of_two) {
    unsigned log = 0;
    while ((1u << log) < power_of_two) ++log;
    return log;
}

// ---------------------------------------------------------------------------------------------
// Bitonic sort. A comparator at step (size, stride) compares pair i with pair i + stride, for
// every i whose bit `stride` is clear. While building sorted runs of `size` pairs, the runs
// alternate direction (run r goes the requested way when r is even, against it when odd: then
// two neighbours form a bitonic sequence, which the next size merges); the last size, size ==
// length, goes the requested way everywhere.

// Part 1, bitonic_shared: the seed's bitonicSortShared. Block b loads pairs b * 1024 ... b *
// 1024 + 1023 (fewer in a last, partial tile: load and store only those below `total`) into
// shared memory, and sorts every array of `length` <= 1024 in it.
__global__ void bitonic_sort_shared_kernel(uint32_t* keys, uint32_t* values, unsigned total, unsigned length,
                                           bool ascending) {
    // TODO 1a: __shared__ arrays of 1024 keys and 1024 values; thread t loads pairs t and
    //          t + 512 of the tile (when below total).
    // TODO 1b: for (size = 2; size <= length; size *= 2)
    //              for (stride = size / 2; stride > 0; stride /= 2): __syncthreads(), then
    //              thread t compares pos = 2t - (t & (stride - 1)) with pos + stride, the direction
    //              `ascending`, reversed when size < length and (pos & size) != 0.
    // TODO 1c: __syncthreads(), then store the tile's pairs back (when below total).
}

// Part 2, bitonic, for any length. Lengths up to 1024 sort as in part 1. Longer ones:
//  - a presort: every tile sorted as in part 1 with length = 1024, but its direction reversed
//    when (tile index & 1), so that two neighbouring tiles form a bitonic sequence of 2048
//    (the seed's bitonicSortShared1);
//  - for size = 2048 .. length: one launch per stride from size / 2 down to 1024, each thread
//    one comparator in global memory (the seed's bitonicMergeGlobal), then one launch for
//    strides 512 .. 1, a tile at a time in shared memory (bitonicMergeShared): no comparator of
//    those strides leaves its tile.
__global__ void bitonic_merge_global_kernel(uint32_t* keys, uint32_t* values, unsigned total, unsigned length,
                                            unsigned size, unsigned stride, bool ascending) {
    // TODO 2a: comparator c = blockIdx.x * blockDim.x + threadIdx.x, for c < total / 2: pos =
    //          2c - (c & (stride - 1)); compare pos and pos + stride, the direction as in 1b.
}

__global__ void bitonic_merge_shared_kernel(uint32_t* keys, uint32_t* values, unsigned total, unsigned length,
                                            unsigned size, bool ascending) {
    // TODO 2b: as 1a-1c, but the one size `size` and its strides 512 .. 1 only. size > 1024
    //          here, so its bit is not in a tile-local position: take the direction from the
    //          pair's position in the whole batch, blockIdx.x * 1024 + pos.
}

// ---------------------------------------------------------------------------------------------
// Odd-even merge sort (Batcher). Every comparator goes the requested way: there are no
// alternating runs. Step (size, stride): the first step of a merge (stride == size / 2)
// compares pos with pos + stride; the later ones compare pos - stride with pos, but only when
// (c & (size / 2 - 1)) >= stride, where c is the comparator's index and pos = 2c - (c &
// (stride - 1)) (the seed's oddEvenMergeSortShared and oddEvenMergeGlobal).

// Part 3, oddeven_shared: the seed's oddEvenMergeSortShared, for length <= 1024.
__global__ void oddeven_sort_shared_kernel(uint32_t* keys, uint32_t* values, unsigned total, unsigned length,
                                           bool ascending) {
    // TODO 3a: as 1a-1c with the odd-even steps.
}

// Part 4, oddeven, for any length: every tile presorted as in part 3 (all the same way), then
// for size = 2048 .. length, one launch per stride from size / 2 down to 1, in global memory.
// Below stride 1024 a merge's comparators cross the tiles' borders (handout, question 4), so
// the seed merges every stride in global memory; so do you.
__global__ void oddeven_merge_global_kernel(uint32_t* keys, uint32_t* values, unsigned total, unsigned size,
                                            unsigned stride, bool ascending) {
    // TODO 4a: comparator c < total / 2 as described above.
}

void bitonic_shared(const SortProblem& p, Launcher& launch) {
    // TODO 1d: launch(bitonic_sort_shared_kernel, dim3(ceil_div(p.batch * p.length, tile)),
    //          dim3(tile / 2), 0, p.keys, p.values, p.batch * p.length, p.length, p.ascending);
    (void)p, (void)launch, (void)tile;
}

void bitonic(const SortProblem& p, Launcher& launch) {
    // TODO 2c: lengths <= 1024: bitonic_shared(p, launch). Otherwise the presort, then for each
    //          size the global strides and the shared-memory merge, as described above.
    (void)p, (void)launch, (void)log2_of;
}

void oddeven_shared(const SortProblem& p, Launcher& launch) {
    // TODO 3b
    (void)p, (void)launch;
}

void oddeven(const SortProblem& p, Launcher& launch) {
    // TODO 4b: the presort (lengths <= 1024: that is all), then the global merges.
    (void)p, (void)launch;
}
