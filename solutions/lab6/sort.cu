// Lab 6 reference solution: bitonic and odd-even merge sort of batches of (key, value) pairs.
// Same interface as the starter (labs/lab6/sort.h).
//
// Choices, against the seed's sample (one pair per thread in shared memory, one launch per
// global stride), each for the benchmark goals of the handout:
//  - a key and its value travel as one 64-bit word, key in the high half: one compare and one
//    swap move both, and comparing the words orders by key (equal keys by value, which is
//    harmless: equal keys may end in any order);
//  - a tile of 1024 pairs, 512 threads, each holding 2 pairs in registers: warp w owns the 64
//    pairs 64w .. 64w + 63 of the tile, lane l the pairs 64w + l and 64w + 32 + l. Every step
//    whose stride is 32 or less then stays inside a warp: stride 32 is a compare of the
//    thread's own two registers, strides 16 .. 1 one __shfl_xor_sync each, with no barrier and
//    no shared memory. Only strides 64 .. 512 go through shared memory (one barrier a step);
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
constexpr unsigned tile_threads = tile / 2;   // 512 threads, 2 pairs each

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

// One bitonic step of stride s <= 32 on the warp's 64 pairs, in registers.
__device__ __forceinline__ void warp_step(u64& x0, u64& x1, unsigned e0, unsigned size, unsigned s, unsigned length,
                                          bool ascending) {
    const unsigned lane = threadIdx.x & 31;
    const bool up0 = bitonic_up(e0, size, length, ascending), up1 = bitonic_up(e0 + 32, size, length, ascending);
    if (s == 32) {
        order(x0, x1, up0);  // size >= 64 here, so e0 and e0 + 32 go the same way
        return;
    }
    const u64 y0 = __shfl_xor_sync(0xffffffffu, x0, s), y1 = __shfl_xor_sync(0xffffffffu, x1, s);
    const bool lower = (lane & s) == 0;  // the lower end of the pair keeps the smaller when up
    x0 = (lower == up0) ? min(x0, y0) : max(x0, y0);
    x1 = (lower == up1) ? min(x1, y1) : max(x1, y1);
}

// Bitonic steps on one tile of 1024 pairs: for size = first_size .. last_size, the strides from
// size / 2 (from first_stride at first_size) down to 1. The full sort of a tile is sizes 2 ..
// min(length, 1024); the merge after the global strides of `size` is that one size from stride
// 512. A last tile may be partial (batch x length < 1024, length < 1024): arrays are whole in a
// tile and comparators stay inside an array, so the missing pairs only compare among
// themselves, and are neither loaded nor stored.
__global__ void __launch_bounds__(tile_threads) bitonic_tile(uint32_t* keys, uint32_t* values, unsigned total,
                                                             unsigned length, bool ascending, unsigned first_size,
                                                             unsigned first_stride, unsigned last_size) {
    __shared__ u64 shared[tile];
    const unsigned local0 = 64 * (threadIdx.x / 32) + (threadIdx.x & 31);  // this thread's first pair
    const unsigned e0 = blockIdx.x * tile + local0;
    u64 x0 = e0 < total ? pack(keys[e0], values[e0]) : 0;
    u64 x1 = e0 + 32 < total ? pack(keys[e0 + 32], values[e0 + 32]) : 0;
    bool in_shared = false;
    for (unsigned size = first_size; size <= last_size; size <<= 1) {
        for (unsigned s = size == first_size ? first_stride : size / 2; s > 0; s >>= 1) {
            if (s >= 64) {
                // Each warp writes back only its own 64 pairs, which no other warp reads
                // before the barrier below.
                if (!in_shared) shared[local0] = x0, shared[local0 + 32] = x1, in_shared = true;
                __syncthreads();  // the previous step (or every warp's pairs) is in shared memory
                const unsigned c = threadIdx.x;  // comparator c of 512: pairs (lo, lo + s)
                const unsigned lo = ((c & ~(s - 1)) << 1) | (c & (s - 1));
                order(shared[lo], shared[lo + s], bitonic_up(blockIdx.x * tile + lo, size, length, ascending));
            } else {
                if (in_shared) {
                    __syncthreads();  // the last shared step is done everywhere
                    x0 = shared[local0], x1 = shared[local0 + 32], in_shared = false;
                }
                warp_step(x0, x1, e0, size, s, length, ascending);
            }
        }
    }
    if (in_shared) {
        __syncthreads();
        x0 = shared[local0], x1 = shared[local0 + 32];
    }
    if (e0 < total) keys[e0] = uint32_t(x0 >> 32), values[e0] = uint32_t(x0);
    if (e0 + 32 < total) keys[e0 + 32] = uint32_t(x1 >> 32), values[e0 + 32] = uint32_t(x1);
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

void launch_bitonic_tile(const SortProblem& p, Launcher& launch, unsigned first_size, unsigned first_stride,
                         unsigned last_size) {
    const unsigned total = p.batch * p.length;
    launch(bitonic_tile, dim3(ceil_div(total, tile)), dim3(tile_threads), 0, p.keys, p.values, total, p.length,
           p.ascending, first_size, first_stride, last_size);
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

__global__ void __launch_bounds__(tile_threads) oddeven_tile(uint32_t* keys, uint32_t* values, unsigned total,
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
    launch(oddeven_tile, dim3(ceil_div(total, tile)), dim3(tile_threads), 0, p.keys, p.values, total,
           p.length < tile ? p.length : tile, p.ascending);
}

}  // namespace

void bitonic_shared(const SortProblem& p, Launcher& launch) {
    launch_bitonic_tile(p, launch, 2, 1, p.length);  // length <= 1024 (the driver sees to it)
}

void bitonic(const SortProblem& p, Launcher& launch) {
    if (p.length <= tile) return bitonic_shared(p, launch);
    launch_bitonic_tile(p, launch, 2, 1, tile);  // presort: runs of 1024, alternating directions
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
        launch_bitonic_tile(p, launch, size, tile / 2, size);  // strides 512 .. 1 in the tile
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
