// Lab 6 reference solution: bitonic and odd-even merge sort of batches of (key, value) pairs.
// Same interface as the starter (labs/lab6/sort.h).
//
// Choices, against the student report's sample (one pair per thread in shared memory, one launch per
// global stride), each for the benchmark goals of the handout:
//  - a key and its value travel as one 64-bit word, key in the high half: one compare and one
//    swap move both, and comparing the words orders by key (equal keys by value, which is
//    harmless: equal keys may end in any order);
//  - a tile of 1024 pairs, 256 threads, each holding 4 pairs in registers, every stride a
//    compile-time constant: strides 64 and 32 are compares of a thread's own registers, 16 .. 1
//    one __shfl_xor_sync each, with no barrier and no shared memory; only strides 128 .. 512
//    go through shared memory (one barrier a step). Why, measured: above the tile kernels;
//  - arrays longer than 1024: a big tile of 8192 pairs in 64 KB of dynamic shared memory, 16
//    pairs a thread in registers, sorts runs of 8192 in one pass, and every longer merge takes
//    two passes (its strides >= 8192, up to 8 a pass, then 4096 .. 1), instead of one pass per
//    three global strides plus one per merge: 15 passes at 2^20 instead of 33. Why and how:
//    above the big tile kernels.
// Odd-even merge sort keeps the student report's structure (every step in shared memory, one launch per
// global stride): its later comparators pair i with i + s where i has bit s set, not i ^ s, so
// neither the register layout nor the strides-in-one-pass grouping above applies, and its
// comparators below stride 1024 cross the tiles' borders (the sample's own comment): every
// merge step of a long array is a pass over memory. The handout's table shows what that costs.
#include "sort.h"

// The big tile's index bits (its 2^bits pairs take 8 x 2^bits bytes of shared memory): 13 fits
// every architecture (below). 12 or 14 for an experiment (make ... NVCCFLAGS+=-DLAB6_TILE_BITS=14).
#ifndef LAB6_TILE_BITS
#define LAB6_TILE_BITS 13
#endif

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

// ---------------------------------------------------------------------------------------------
// Arrays longer than 1024: the big tile. 2^20 pairs are 8 MiB, which sit in the L2 cache of an
// H100 or H200, so a pass over memory costs about 3 us there; the 1024 tile above needs 33 of
// them at 2^20 (one per three global strides, one per merge in the tile), and launches with
// nothing to overlap (about 5.6 us a pass on the H200). Here a block sorts and merges a tile of
// big_tile (8192) pairs in dynamic shared memory and registers: 64 KB, the most a block may opt
// in to on every architecture the course builds for (sm_75: 64 KB; sm_90: 227 KB, but a tile of
// 16384 leaves half of an H100's 132 SMs idle at 2^20: 64 tiles). Every merge of a longer size
// takes two passes, whatever its strides:
//   - pass A: its strides from size / 2 down to big_tile, up to 8 at a time, on tiles of 32
//     consecutive pairs (one coalesced 128-byte line of keys, one of values) times 256 pairs
//     those strides apart;
//   - pass B: its strides big_tile / 2 .. 1 on a contiguous tile.
// At 2^20 that is 1 + 7 x 2 = 15 passes instead of 33, and the presort (sizes 2 .. 8192, 91 of
// the network's 210 steps) is one of them.
//
// Inside a tile: each of 512 threads holds 16 pairs in registers, so a stride whose bit selects
// the register (4 of the tile's 13 index bits) is a compare of two registers, with no memory
// and no barrier. Which 4 bits those are is the *layout*: layout G puts tile bits G .. G + 3 in
// the register number j and the other 9 bits, in order, in the thread number. A merge's strides
// run in groups of 4 from the top; between groups the block exchanges its pairs through shared
// memory (a relayout: one write, a barrier, one read, a barrier). Layouts G >= 5 keep tile bits
// 0 .. 4 in the lane: the global loads and stores are from them, coalesced.
//
// Directions without arithmetic: the pairs of a run that a merge sorts descending are
// complemented (~word) before the merge and back after it, so every comparator of every step
// is the same ascending min/max, with no direction test: comparing complemented words orders
// them the other way, and both ends of a comparator are in the same run.

constexpr int big_tile_bits = LAB6_TILE_BITS;  // 13: 8192 pairs, 64 KB
constexpr unsigned big_tile = 1u << big_tile_bits;
constexpr int pair_bits = 4;  // 16 pairs a thread
constexpr unsigned big_threads = big_tile >> pair_bits;
constexpr int lane_bits = 5;  // tile bits 0 .. 4: consecutive pairs, the lanes of a warp
constexpr int spread_bits = big_tile_bits - lane_bits;  // tile bits 5 .. 12: pass A's strides
constexpr size_t big_shared_bytes = size_t(big_tile) * sizeof(u64);
static_assert(big_tile_bits >= 8 + 1 && big_tile > tile, "the swizzle needs tile bits 4 .. 7, and bitonic() a tile above 1024");

using BigRegisters = u64[16];

// Tile index of register j of thread `thread` in layout G.
template <int G>
__device__ __forceinline__ unsigned tile_element(unsigned thread, unsigned j) {
    return (thread & ((1u << G) - 1)) | (j << G) | ((thread >> G) << (G + pair_bits));
}

// Where tile index e lies in shared memory: bits 0 .. 3 XOR bits 4 .. 7, so that in every
// layout the 16 lanes of a half-warp (which share one 64-bit access) reach 16 different banks.
__device__ __forceinline__ unsigned swizzle(unsigned e) { return e ^ ((e >> 4) & 15); }

template <int From, int To>
__device__ __forceinline__ void relayout(BigRegisters& x, u64* shared) {
    if constexpr (From != To) {
#pragma unroll
        for (unsigned j = 0; j < 16; ++j) shared[swizzle(tile_element<From>(threadIdx.x, j))] = x[j];
        __syncthreads();  // every pair is written
#pragma unroll
        for (unsigned j = 0; j < 16; ++j) x[j] = shared[swizzle(tile_element<To>(threadIdx.x, j))];
        __syncthreads();  // every pair is read before the next relayout writes over it
    }
}

// One step, the comparators of tile bit B, in layout G (G <= B < G + 4): registers j and j + d.
template <int G, int B>
__device__ __forceinline__ void big_step(BigRegisters& x) {
    constexpr unsigned d = 1u << (B - G);
#pragma unroll
    for (unsigned j = 0; j < 16; ++j)
        if (!(j & d)) {
            const u64 a = x[j], b = x[j | d];
            const bool swap = b < a;
            x[j] = swap ? b : a;
            x[j | d] = swap ? a : b;
        }
}

// The steps of tile bits B down to Lo in layout G, those below `lowest` left out.
template <int G, int B, int Lo>
__device__ __forceinline__ void big_steps(BigRegisters& x, int lowest) {
    if (B >= lowest) big_step<G, B>(x);
    if constexpr (B > Lo) big_steps<G, B - 1, Lo>(x, lowest);
}

// The steps of tile bits Hi down to max(Stop, lowest), in groups of 4 from the top, each in the
// highest layout that holds it; the pairs come in layout PrevG. At the end `finish` gets them in
// the layout they are in (a template argument).
template <int PrevG, int Hi, int Stop, class Finish>
__device__ __forceinline__ void big_merge_bits(BigRegisters& x, u64* shared, int lowest, Finish& finish) {
    constexpr int Lo = Hi - (pair_bits - 1) > Stop ? Hi - (pair_bits - 1) : Stop;
    constexpr int G = Lo < big_tile_bits - pair_bits ? Lo : big_tile_bits - pair_bits;
    relayout<PrevG, G>(x, shared);
    big_steps<G, Hi, Lo>(x, lowest);
    if constexpr (Lo > Stop) {
        if (Lo - 1 >= lowest) return big_merge_bits<G, Lo - 1, Stop>(x, shared, lowest, finish);  // the same in the whole block
    }
    finish.template apply<G>(x);
}

// Where tile index e of block `block` lies in the batch: tile bits 0 .. 4 are bits 0 .. 4, tile
// bits 5 .. 12 are bits h .. h + 7 (h = 5: a contiguous tile), and the block's number fills the
// bits between and above.
struct BigTileMap {
    unsigned h, block;
    __device__ __forceinline__ unsigned operator()(unsigned e) const {
        const unsigned below = h - lane_bits;  // the block's bits below h
        return (e & ((1u << lane_bits) - 1)) | ((e >> lane_bits) << h) | ((block & ((1u << below) - 1)) << lane_bits) |
               ((block >> below) << (h + spread_bits));
    }
};

template <int G>
__device__ __forceinline__ void big_load(BigRegisters& x, const uint32_t* keys, const uint32_t* values, BigTileMap map,
                                         unsigned total, u64 complement) {
#pragma unroll
    for (unsigned j = 0; j < 16; ++j) {
        const unsigned e = map(tile_element<G>(threadIdx.x, j));
        x[j] = e < total ? pack(keys[e], values[e]) ^ complement : 0;  // past total: padding, meeting only padding
    }
}

// Stores the pairs (complemented back) from layout G, through a relayout to a coalesced one if
// G keeps lanes off consecutive pairs.
struct BigStore {
    u64* shared;
    uint32_t* keys;
    uint32_t* values;
    BigTileMap map;
    unsigned total;
    u64 complement;
    template <int G>
    __device__ __forceinline__ void apply(BigRegisters& x) {
        constexpr int StoreG = G >= lane_bits ? G : big_tile_bits - pair_bits;
        relayout<G, StoreG>(x, shared);
#pragma unroll
        for (unsigned j = 0; j < 16; ++j) {
            const unsigned e = map(tile_element<StoreG>(threadIdx.x, j));
            const u64 w = x[j] ^ complement;
            if (e < total) keys[e] = uint32_t(w >> 32), values[e] = uint32_t(w);
        }
    }
};

struct NoFinish {
    template <int G>
    __device__ __forceinline__ void apply(BigRegisters&) {}
};

// Complements the pairs in layout 0 whose direction differs between merges of 2^From and 2^To
// (From = 0: before the first merge, To = 0: after the last). A merge of 2^k sorts element e's
// run descending when the requested direction is down, flipped when k < log_length and e has
// bit k set (bitonic_up).
__device__ __forceinline__ bool big_descending(unsigned e, int k, unsigned log_length, bool ascending) {
    if (k == 0) return false;
    return ascending == (unsigned(k) < log_length && ((e >> k) & 1));
}

// In layout 0 a thread holds 16 consecutive pairs: tile bits 0 .. 3 are the register's (known
// at compile time once unrolled), the others the thread's first pair's.
__device__ __forceinline__ void big_redirect(BigRegisters& x, unsigned base, int from, int to, unsigned log_length,
                                             bool ascending) {
    const unsigned first = base + tile_element<0>(threadIdx.x, 0);
#pragma unroll
    for (unsigned j = 0; j < 16; ++j)
        if (big_descending(first | j, from, log_length, ascending) != big_descending(first | j, to, log_length, ascending))
            x[j] = ~x[j];
}

// The merges of 2^K, 2^(K+1), ... up to min(length, big_tile), in layout 0.
template <int K>
__device__ __forceinline__ void big_sort_from(BigRegisters& x, u64* shared, unsigned base, unsigned log_length,
                                              bool ascending) {
    if (unsigned(K) > log_length) return;  // the same for the whole block
    big_redirect(x, base, K - 1, K, log_length, ascending);
    NoFinish none;
    big_merge_bits<0, K - 1, 0>(x, shared, 0, none);  // ends in layout 0
    if constexpr (K < big_tile_bits) {
        if (unsigned(K) < log_length) return big_sort_from<K + 1>(x, shared, base, log_length, ascending);
    }
    big_redirect(x, base, K, 0, log_length, ascending);  // the last merge's runs back
}

// The presort: each tile's arrays (1024 < length <= big_tile), or for longer arrays each tile
// into one run, the runs alternating in direction for the merges that follow.
__global__ void __launch_bounds__(big_threads) bitonic_sort_big_tile(uint32_t* keys, uint32_t* values, unsigned total,
                                                                     unsigned log_length, bool ascending) {
    extern __shared__ u64 big_shared[];
    const BigTileMap map{lane_bits, blockIdx.x};
    BigRegisters x;
    big_load<big_tile_bits - pair_bits>(x, keys, values, map, total, 0);
    relayout<big_tile_bits - pair_bits, 0>(x, big_shared);
    big_sort_from<1>(x, big_shared, blockIdx.x * big_tile, log_length, ascending);
    BigStore store{big_shared, keys, values, map, total, 0};
    store.apply<0>(x);
}

// One pass of the merge of 2^log_size > big_tile: tile bits 12 .. `lowest` of the tile map(h)
// (pass A: h > 5, lowest >= 5; pass B: h = 5, lowest = 0, the strides big_tile / 2 .. 1). All
// of a tile is in one run of the merge: one direction, given by the complement at the load.
__global__ void __launch_bounds__(big_threads) bitonic_merge_big_tile(uint32_t* keys, uint32_t* values, unsigned total,
                                                                      unsigned log_length, unsigned log_size,
                                                                      unsigned h, int lowest, bool ascending) {
    extern __shared__ u64 big_shared[];
    const BigTileMap map{h, blockIdx.x};
    const u64 complement = big_descending(map(0), int(log_size), log_length, ascending) ? ~0ull : 0;
    BigRegisters x;
    big_load<big_tile_bits - pair_bits>(x, keys, values, map, total, complement);
    BigStore store{big_shared, keys, values, map, total, complement};
    big_merge_bits<big_tile_bits - pair_bits, big_tile_bits - 1, 0>(x, big_shared, lowest, store);
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

void launch_bitonic_sort_big_tile(const SortProblem& p, Launcher& launch) {
    const unsigned total = p.batch * p.length;
    launch(bitonic_sort_big_tile, dim3(ceil_div(total, big_tile)), dim3(big_threads), big_shared_bytes, p.keys, p.values,
           total, log2_of(p.length), p.ascending);
}

// A pass of the merge of 2^log_size: the tile map(h), its tile bits 12 .. lowest.
void launch_bitonic_merge_big_tile(const SortProblem& p, Launcher& launch, unsigned log_size, unsigned h, int lowest) {
    const unsigned total = p.batch * p.length;  // a multiple of 2 big_tile here
    launch(bitonic_merge_big_tile, dim3(total / big_tile), dim3(big_threads), big_shared_bytes, p.keys, p.values, total,
           log2_of(p.length), log_size, h, lowest, p.ascending);
}

// ---------------------------------------------------------------------------------------------
// Odd-even merge sort (the sample's oddEvenMergeSortShared and oddEvenMergeGlobal, packed).

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
    launch_bitonic_sort_big_tile(p, launch);  // sizes 2 .. min(length, big_tile)
    const int log_length = int(log2_of(p.length));
    for (int log_size = big_tile_bits + 1; log_size <= log_length; ++log_size) {
        // Pass A: the strides 2^(log_size - 1) .. big_tile, up to spread_bits at a time, from
        // the top (one pass up to 2^21 pairs).
        for (int top = log_size - 1; top >= big_tile_bits;) {
            const int h = top - spread_bits + 1;  // the tile map's bits h .. top (h > 5)
            const int low = h > big_tile_bits ? h : big_tile_bits;
            launch_bitonic_merge_big_tile(p, launch, unsigned(log_size), unsigned(h), low - h + lane_bits);
            top = low - 1;
        }
        launch_bitonic_merge_big_tile(p, launch, unsigned(log_size), lane_bits, 0);  // pass B: big_tile / 2 .. 1
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
