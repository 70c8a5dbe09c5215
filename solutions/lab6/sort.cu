// Lab 6 reference solution: bitonic and odd-even merge sort of batches of (key, value) pairs.
// Same interface as the starter (labs/lab6/sort.h).
//
// Choices, against the seed's sample (one pair per thread in shared memory, one launch per
// global stride), each for the benchmark goals of the handout:
//  - a key and its value travel as one 64-bit word, key in the high half: one compare and one
//    swap move both, and comparing the words orders by key (equal keys by value, which is
//    harmless: equal keys may end in any order);
//  - a tile of 1024 pairs, 256 threads, each holding 4 pairs in registers, every stride a
//    compile-time constant: strides 64 and 32 are compares of a thread's own registers, 16 .. 1
//    one __shfl_xor_sync each, with no barrier and no shared memory; only strides 128 .. 512
//    go through shared memory (one barrier a step). Why, measured: above the tile kernels;
//  - in global memory (strides >= 1024, arrays longer than a tile) a thread merges 8 pairs over
//    3 consecutive strides (s, s/2, s/4) in registers: one pass over memory for three strides
//    instead of three passes (the seed's bitonicMergeGlobal does one).
// Odd-even merge sort keeps the seed's structure (every step in shared memory, one launch per
// global stride): its later comparators pair i with i + s where i has bit s set, not i ^ s, so
// neither the register layout nor the strides-in-one-pass grouping above applies, and its
// comparators below stride 1024 cross the tiles' borders (the seed's own comment): every
// merge step of a long array is a pass over memory. The handout's table shows what that costs.
#include "sort.h"

namespace {

using u64 = unsigned long long;
constexpr unsigned tile = shared_size_limit;  // 1024 pairs
constexpr unsigned tile_threads = tile / 4;   // 256 threads, 4 pairs each

__device__ __forceinline__ u64 pack(uint32_t key, uint32_t value) { return (u64(key) << 32) | value; }

// After it, a <= b when `up`, a >= b otherwise.
__device__ __forceinline__ void order(u64& a, u64& b, bool up) {
    if ((a > b) == up && a != b) {
        u64 t = a;
        a = b;
        b = t;
    }
}

// Bitonic: the direction of the comparators of element e while building sorted runs of `size`:
// runs alternate (the even ones in the requested direction, the odd ones against it) so that two
// neighbours form a bitonic sequence for the next size; the last merge (size == length) goes
// the requested way everywhere.
__device__ __forceinline__ bool bitonic_up(unsigned e, unsigned size, unsigned length, bool ascending) {
    return (size < length && (e & size)) ? !ascending : ascending;
}

// ---------------------------------------------------------------------------------------------
// The tile kernels. The profile of a first version (512 threads, 2 pairs each, strides and
// directions computed at run time in every step) on an H200 at 1024 arrays of 1024: 50.8 M warp
// instructions, 32.1 M of them on the integer ALU pipe, the warps stalled mostly on that pipe
// (math_pipe_throttle) -- the sort was bound by index and direction arithmetic, not by memory
// (4.7% of its bandwidth) or by barriers. So here:
//  - every stride is a compile-time constant (the steps are unrolled templates): no loop
//    counters, masks or shifts computed at run time;
//  - each thread holds 4 pairs, lane l of warp w the pairs 128w + l + 32j (j = 0 .. 3): strides
//    64 and 32 are compares of the thread's own registers (one compare for two pairs, no
//    shuffle), strides 16 .. 1 one __shfl_xor_sync each, and only strides 128 .. 512 go through
//    shared memory (6 of a tile sort's 55 steps, each behind one barrier);
//  - a direction is computed once per size, not per step: for sizes up to 32 it is the same for
//    a thread's 4 pairs, from 128 up it is the same for all of them too;
//  - a shuffled pair keeps the smaller or the larger of the two words with one 64-bit compare:
//    two equal words (key << 32 | value) are the same pair, key and value, so either may be
//    kept.
// Element e of the tile's 1024 (0 <= e < 1024) is in register j = (e % 128) / 32 of lane e % 32
// of warp e / 128.
struct TileRegisters {
    u64 x[4];
};

__device__ __forceinline__ unsigned tile_local(unsigned j) { return 128 * (threadIdx.x / 32) + (threadIdx.x & 31) + 32 * j; }

// The steps of one bitonic merge on the tile, strides MaxStride .. 1 (MaxStride <= 512). The
// direction of element e (an index in the whole batch) is ascending, flipped where e has the
// bit dir_mask set (dir_mask = size while runs alternate, 0 in the last merge).
template <unsigned MaxStride>
__device__ __forceinline__ void tile_merge(TileRegisters& r, u64* shared, unsigned base, unsigned dir_mask,
                                           bool ascending) {
    u64(&x)[4] = r.x;
    const unsigned lane = threadIdx.x & 31;
    bool up[4];
#pragma unroll
    for (unsigned j = 0; j < 4; ++j) up[j] = ascending != (((base + tile_local(j)) & dir_mask) != 0);
    if (MaxStride >= 128) {
        // Strides 512 .. 128 pair elements of different warps: through shared memory. A thread
        // writes its own 4 pairs, then does comparators c and c + 256 of the tile's 512.
#pragma unroll
        for (unsigned j = 0; j < 4; ++j) shared[tile_local(j)] = x[j];
#pragma unroll
        for (unsigned s = MaxStride; s >= 128; s >>= 1) {
            __syncthreads();  // every pair of the step before is in shared memory
#pragma unroll
            for (unsigned half = 0; half < 2; ++half) {
                const unsigned c = threadIdx.x + half * tile_threads;
                const unsigned lo = ((c & ~(s - 1)) << 1) | (c & (s - 1));
                u64 a = shared[lo], b = shared[lo + s];
                if ((a > b) == (ascending != (((base + lo) & dir_mask) != 0))) shared[lo] = b, shared[lo + s] = a;
            }
        }
        __syncthreads();  // the last shared step is done everywhere
#pragma unroll
        for (unsigned j = 0; j < 4; ++j) x[j] = shared[tile_local(j)];
    }
    // Stride 64: registers j and j + 2; stride 32: j and j + 1. The two ends of each pair have
    // the same direction (they differ only in a bit below the size).
    if (MaxStride >= 64) order(x[0], x[2], up[0]), order(x[1], x[3], up[1]);
    if (MaxStride >= 32) order(x[0], x[1], up[0]), order(x[2], x[3], up[2]);
#pragma unroll
    for (unsigned s = MaxStride < 16 ? MaxStride : 16; s > 0; s >>= 1) {
        const bool lower = (lane & s) == 0;  // the lower end keeps the smaller word when up
#pragma unroll
        for (unsigned j = 0; j < 4; ++j) {
            const u64 y = __shfl_xor_sync(0xffffffffu, x[j], s);
            if ((y < x[j]) == (lower == up[j])) x[j] = y;
        }
    }
}

// Loads the tile's pairs below `total` (a last tile may be partial: then the batch is smaller
// than a tile, its arrays are whole in it, and the missing pairs only meet each other).
__device__ __forceinline__ TileRegisters load_tile(const uint32_t* keys, const uint32_t* values, unsigned base,
                                                   unsigned total) {
    TileRegisters r;
#pragma unroll
    for (unsigned j = 0; j < 4; ++j) {
        const unsigned e = base + tile_local(j);
        r.x[j] = e < total ? pack(keys[e], values[e]) : 0;
    }
    return r;
}

__device__ __forceinline__ void store_tile(const TileRegisters& r, uint32_t* keys, uint32_t* values, unsigned base,
                                           unsigned total) {
#pragma unroll
    for (unsigned j = 0; j < 4; ++j) {
        const unsigned e = base + tile_local(j);
        if (e < total) keys[e] = uint32_t(r.x[j] >> 32), values[e] = uint32_t(r.x[j]);
    }
}

// The sizes Size, 2 Size, ... up to min(length, 1024), each merged from stride size / 2.
template <unsigned Size>
__device__ __forceinline__ void tile_sort_from(TileRegisters& r, u64* shared, unsigned base, unsigned length,
                                               bool ascending) {
    if (Size > length) return;  // the same for the whole block
    tile_merge<Size / 2>(r, shared, base, Size < length ? Size : 0, ascending);
    if constexpr (Size < tile) tile_sort_from<2 * Size>(r, shared, base, length, ascending);
}

// Sorts each tile's arrays (length <= 1024), or for longer arrays each tile into a run of 1024,
// the runs alternating in direction for the merges that follow.
__global__ void __launch_bounds__(tile_threads) bitonic_sort_tile(uint32_t* keys, uint32_t* values, unsigned total,
                                                                  unsigned length, bool ascending) {
    __shared__ u64 shared[tile];
    const unsigned base = blockIdx.x * tile;
    TileRegisters r = load_tile(keys, values, base, total);
    tile_sort_from<2>(r, shared, base, length, ascending);
    store_tile(r, keys, values, base, total);
}

// The strides 512 .. 1 of a merge of `size` > 1024, after its global strides: one direction for
// the whole tile.
__global__ void __launch_bounds__(tile_threads) bitonic_merge_tile(uint32_t* keys, uint32_t* values, unsigned total,
                                                                   unsigned length, bool ascending, unsigned size) {
    __shared__ u64 shared[tile];
    const unsigned base = blockIdx.x * tile;
    TileRegisters r = load_tile(keys, values, base, total);
    tile_merge<tile / 2>(r, shared, base, 0, bitonic_up(base, size, length, ascending));
    store_tile(r, keys, values, base, total);
}

// R consecutive bitonic strides of `size` in one pass over global memory: strides t << (R-1)
// down to t. A thread holds the 2^R pairs base + j t (j = 0 .. 2^R - 1), where base has the
// bits of those strides clear, and does every comparator among them in registers. Consecutive
// threads take consecutive bases, so every load and store is coalesced.
template <int R>
__global__ void bitonic_global(uint32_t* keys, uint32_t* values, unsigned total, unsigned length, unsigned size,
                               unsigned log_t, bool ascending) {
    constexpr unsigned K = 1u << R;
    const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= total / K) return;  // no barrier in this kernel
    const unsigned t = 1u << log_t;
    const unsigned base = ((tid >> log_t) << (log_t + R)) | (tid & (t - 1));
    const bool up = bitonic_up(base, size, length, ascending);  // size > every stride: one way for all
    u64 x[K];
#pragma unroll
    for (unsigned j = 0; j < K; ++j) x[j] = pack(keys[base + j * t], values[base + j * t]);
#pragma unroll
    for (int level = R - 1; level >= 0; --level) {
        const unsigned d = 1u << level;
#pragma unroll
        for (unsigned j = 0; j < K; ++j)
            if (!(j & d)) order(x[j], x[j + d], up);
    }
#pragma unroll
    for (unsigned j = 0; j < K; ++j) keys[base + j * t] = uint32_t(x[j] >> 32), values[base + j * t] = uint32_t(x[j]);
}

unsigned log2_of(unsigned power_of_two) {
    unsigned log = 0;
    while ((1u << log) < power_of_two) ++log;
    return log;
}

void launch_bitonic_sort_tile(const SortProblem& p, Launcher& launch) {
    const unsigned total = p.batch * p.length;
    launch(bitonic_sort_tile, dim3(ceil_div(total, tile)), dim3(tile_threads), 0, p.keys, p.values, total, p.length,
           p.ascending);
}

void launch_bitonic_merge_tile(const SortProblem& p, Launcher& launch, unsigned size) {
    const unsigned total = p.batch * p.length;
    launch(bitonic_merge_tile, dim3(ceil_div(total, tile)), dim3(tile_threads), 0, p.keys, p.values, total, p.length,
           p.ascending, size);
}

template <int R>
void launch_bitonic_global(const SortProblem& p, Launcher& launch, unsigned size, unsigned log_t) {
    const unsigned total = p.batch * p.length, threads = 256;
    launch(bitonic_global<R>, dim3(ceil_div(total >> R, threads)), dim3(threads), 0, p.keys, p.values, total, p.length,
           size, log_t, p.ascending);
}

// ---------------------------------------------------------------------------------------------
// Odd-even merge sort (the seed's oddEvenMergeSortShared and oddEvenMergeGlobal, packed).

// Comparator c of one odd-even step (size, stride s), c in [0, total / 2): the first step of a
// merge (s == size / 2) compares (pos, pos + s); the later ones compare (pos - s, pos) except in
// the first 2s pairs of each merged run, where pos = 2c - (c mod s).
__device__ __forceinline__ void oddeven_comparator(unsigned c, unsigned size, unsigned s, unsigned& a, unsigned& b,
                                                   bool& active) {
    const unsigned pos = 2 * c - (c & (s - 1));
    if (s == size / 2) {
        a = pos, b = pos + s, active = true;
    } else {
        a = pos - s, b = pos, active = (c & (size / 2 - 1)) >= s;
    }
}

constexpr unsigned oddeven_threads = tile / 2;  // one comparator of a step each

__global__ void __launch_bounds__(oddeven_threads) oddeven_tile(uint32_t* keys, uint32_t* values, unsigned total,
                                                                unsigned last_size, bool ascending) {
    __shared__ u64 shared[tile];
    const unsigned first = blockIdx.x * tile;
    for (unsigned i = threadIdx.x; i < tile; i += blockDim.x)
        shared[i] = first + i < total ? pack(keys[first + i], values[first + i]) : 0;
    for (unsigned size = 2; size <= last_size; size <<= 1)
        for (unsigned s = size / 2; s > 0; s >>= 1) {
            __syncthreads();  // the previous step is done everywhere
            unsigned a, b;
            bool active;
            oddeven_comparator(threadIdx.x, size, s, a, b, active);
            if (active) order(shared[a], shared[b], ascending);
        }
    __syncthreads();
    for (unsigned i = threadIdx.x; i < tile; i += blockDim.x)
        if (first + i < total) keys[first + i] = uint32_t(shared[i] >> 32), values[first + i] = uint32_t(shared[i]);
}

__global__ void oddeven_global(uint32_t* keys, uint32_t* values, unsigned total, unsigned size, unsigned s,
                               bool ascending) {
    const unsigned c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= total / 2) return;
    unsigned a, b;
    bool active;
    oddeven_comparator(c, size, s, a, b, active);
    if (!active) return;
    u64 x = pack(keys[a], values[a]), y = pack(keys[b], values[b]);
    if ((x > y) == ascending && x != y) {
        keys[a] = uint32_t(y >> 32), values[a] = uint32_t(y);
        keys[b] = uint32_t(x >> 32), values[b] = uint32_t(x);
    }
}

void launch_oddeven_tile(const SortProblem& p, Launcher& launch) {
    const unsigned total = p.batch * p.length;
    launch(oddeven_tile, dim3(ceil_div(total, tile)), dim3(oddeven_threads), 0, p.keys, p.values, total,
           p.length < tile ? p.length : tile, p.ascending);
}

}  // namespace

void bitonic_shared(const SortProblem& p, Launcher& launch) {
    launch_bitonic_sort_tile(p, launch);  // length <= 1024 (the driver sees to it)
}

void bitonic(const SortProblem& p, Launcher& launch) {
    if (p.length <= tile) return bitonic_shared(p, launch);
    launch_bitonic_sort_tile(p, launch);  // presort: runs of 1024, alternating directions
    for (unsigned size = 2 * tile; size <= p.length; size <<= 1) {
        // The strides of size from size / 2 down to 1024, three a pass (then two, or one).
        int log_s = int(log2_of(size / 2));
        const int log_last = int(log2_of(tile));
        while (log_s >= log_last) {
            const int r = log_s - log_last + 1 >= 3 ? 3 : log_s - log_last + 1;
            const unsigned log_t = unsigned(log_s - r + 1);
            if (r == 3) launch_bitonic_global<3>(p, launch, size, log_t);
            else if (r == 2) launch_bitonic_global<2>(p, launch, size, log_t);
            else launch_bitonic_global<1>(p, launch, size, log_t);
            log_s -= r;
        }
        launch_bitonic_merge_tile(p, launch, size);  // strides 512 .. 1 in the tile
    }
}

void oddeven_shared(const SortProblem& p, Launcher& launch) { launch_oddeven_tile(p, launch); }

void oddeven(const SortProblem& p, Launcher& launch) {
    launch_oddeven_tile(p, launch);  // presort: runs of min(length, 1024), all one way
    const unsigned total = p.batch * p.length, threads = 256;
    for (unsigned size = 2 * tile; size <= p.length; size <<= 1)
        for (unsigned s = size / 2; s > 0; s >>= 1)
            launch(oddeven_global, dim3(ceil_div(total / 2, threads)), dim3(threads), 0, p.keys, p.values, total, size,
                   s, p.ascending);
}
