// Lab 6: sorting networks. THIS is the file you edit.
//
// Every part sorts p.batch arrays of p.length (key, value) pairs in place, each array on its
// own, ascending when p.ascending, else descending (see sort.h). `make lab6` checks every array
// exactly (sorted, the same keys, every value still with its key) and times each part against
// CUB's segmented sort and thrust::sort_by_key on the same data. A part whose host function
// launches nothing shows "not implemented". Handout: handouts/lab6-sorting-networks.md.
// CUB and Thrust are the yardsticks: code of yours that names them scores nothing. The grader
// removes this file's comments before it looks for their names, so the ones in comments, like
// those above, are harmless.
//
// Every power-of-two length must work, from 1 up, with any batch: fewer pairs in all than one
// tile of 1024 (a last, partial tile), and both directions. A thread must not return before a
// __syncthreads() that the other threads of its block wait at. Moving a key without its value
// loses the pair: swap both, always.
//
// The structure is that of NVIDIA's sortingNetworks sample (CUDA samples): a block of 512 threads sorts a
// tile of 1024 pairs in shared memory, each thread one comparator per step; longer arrays are
// presorted tile by tile, then merged, in global memory while the stride is 1024 or more.
#include "sort.h"

constexpr unsigned tile = shared_size_limit;  // 1024 pairs a block, 512 threads: one comparator each a step

// Given: the sample's Comparator. After it, key a <= key b when `up`, a >= b otherwise; the
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

// Part 1, bitonic_shared: the sample's bitonicSortShared. Block b loads pairs b * 1024 ... b *
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
//  - a presort (the sample's bitonicSortShared1): every tile of 1024 sorted on its own, the
//    tiles of even index the requested way and those of odd index the other way, so that two
//    neighbouring tiles form a bitonic sequence of 2048 for the first merge;
//  - for size = 2048 .. length: one launch per stride from size / 2 down to 1024, each thread
//    one comparator in global memory (the sample's bitonicMergeGlobal), then one launch for
//    strides 512 .. 1, a tile at a time in shared memory (bitonicMergeShared): no comparator of
//    those strides leaves its tile.
// This is the sample's structure, the first step; the speed of the graded performance cases
// comes from the handout's tasks 5 to 9 (task 9: a big tile of 8192 pairs in dynamic shared
// memory, two passes a merge above it).
// In every kernel of this part, as in the whole network of the handout's
// section 3.2 (Bitonic sort), a comparator's direction is the requested one, reversed when size
// < length and the bit `size` of the pair's position in its array is set; arrays start at
// multiples of length, which is a power of two above 1024, so that bit is the same in the
// position in the whole batch.

// The presort. Part 1's kernel cannot do it: run with length = 1024, it never reverses a whole
// tile (at size == length it goes the requested way), so every tile would come out sorted the
// same way. Here size < length always (length > 1024).
__global__ void bitonic_presort_kernel(uint32_t* keys, uint32_t* values, unsigned total, bool ascending) {
    // TODO 2a: as 1a-1c for a whole tile, for size = 2 .. 1024 (1024 included) and their
    //          strides, the direction `ascending`, reversed when ((blockIdx.x * 1024 + pos) &
    //          size) != 0: the position in the batch, not in the tile. At size 1024 that bit is
    //          the tile's index & 1, which reverses the odd tiles.
}

__global__ void bitonic_merge_global_kernel(uint32_t* keys, uint32_t* values, unsigned total, unsigned length,
                                            unsigned size, unsigned stride, bool ascending) {
    // TODO 2b: comparator c = blockIdx.x * blockDim.x + threadIdx.x, for c < total / 2: pos =
    //          2c - (c & (stride - 1)); compare pos and pos + stride, the direction as above
    //          (size < length: reversed when (pos & size) != 0; size == length: the requested way).
}

__global__ void bitonic_merge_shared_kernel(uint32_t* keys, uint32_t* values, unsigned total, unsigned length,
                                            unsigned size, bool ascending) {
    // TODO 2c: as 1a-1c, but the one size `size` and its strides 512 .. 1 only. size > 1024
    //          here, so its bit is not in a tile-local position: take the direction from the
    //          pair's position in the whole batch, blockIdx.x * 1024 + pos.
}

// ---------------------------------------------------------------------------------------------
// Odd-even merge sort (Batcher). Every comparator goes the requested way: there are no
// alternating runs. Step (size, stride): the first step of a merge (stride == size / 2)
// compares pos with pos + stride; the later ones compare pos - stride with pos, but only when
// (c & (size / 2 - 1)) >= stride, where c is the comparator's index and pos = 2c - (c &
// (stride - 1)) (the sample's oddEvenMergeSortShared and oddEvenMergeGlobal).

// Part 3, oddeven_shared: the sample's oddEvenMergeSortShared, for length <= 1024.
__global__ void oddeven_sort_shared_kernel(uint32_t* keys, uint32_t* values, unsigned total, unsigned length,
                                           bool ascending) {
    // TODO 3a: as 1a-1c with the odd-even steps.
}

// Part 4, oddeven, for any length: every tile presorted by part 3's kernel with length = 1024
// (every comparator goes the requested way, so all tiles the same way: no reversing here), then
// for size = 2048 .. length, one launch per stride from size / 2 down to 1, in global memory.
// Below stride 1024 a merge's comparators cross the tiles' borders (why: the handout's
// question 4 (Across a tile border)), so the sample merges every stride in global memory; so
// do you.
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
    // TODO 2d: lengths <= 1024: bitonic_shared(p, launch). Otherwise the presort,
    //          launch(bitonic_presort_kernel, dim3(p.batch * p.length / tile), dim3(tile / 2), 0,
    //          p.keys, p.values, p.batch * p.length, p.ascending), then for each size the global
    //          strides and the shared-memory merge, as described above.
    (void)p, (void)launch, (void)log2_of;
}

void oddeven_shared(const SortProblem& p, Launcher& launch) {
    // TODO 3b: as 1d, with oddeven_sort_shared_kernel.
    (void)p, (void)launch;
}

void oddeven(const SortProblem& p, Launcher& launch) {
    // TODO 4b: the presort (lengths <= 1024: that is all), then the global merges.
    (void)p, (void)launch;
}
