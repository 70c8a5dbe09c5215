// Lab 5 interface between the trusted driver (lab5.cu) and the file you edit (reduce.cu).
// Do not change this file: the grader builds your reduce.cu against the original.
//
// Every rung computes the sum of n doubles on the GPU and leaves it in *p.result, in device
// memory. What is timed is everything between the input in device memory and that one
// double: every launch of the rung (a pass over the input, then passes over the partial sums
// until one value is left, or a single launch that finishes on the GPU). No rung copies
// partial sums to the host.
//
// A rung launches its kernels through `launch` instead of <<< >>>:
//     launch(kernel, grid, block, dynamic_shared_bytes, kernel arguments...);
// The launcher refuses a configuration that breaks a limit of this GPU, with the limit's name
// and value. A rung that launches nothing is reported as "not implemented". Kernel signatures
// and helper functions are yours to choose; only these host functions are fixed.
#pragma once
#include <cstddef>

#include "launcher.cuh"

struct ReduceProblem {
    // The input: n doubles in device memory, aligned to 256 bytes. The textbook's rungs reduce in
    // place and overwrite it; the driver puts a fresh input there before every run, outside the
    // timed region (every run sums values of its own).
    double* data;
    size_t n;   // 1 <= n <= 2^30 (so 32-bit indices do: n + 8 x 1024 < 2^32)
    int block;  // threads per block (--block): a power of two from 64 to 1024

    // Scratch for partial sums, in device memory: `partial` holds partial_capacity(n) doubles,
    // at least one per block of a first pass at 64 threads a block; `partial2` holds
    // partial2_capacity(n), one per block of a second pass. Their contents are garbage.
    double* partial;
    double* partial2;
    // One unsigned int in device memory, 0 when the driver hands it over, and never reset by the
    // driver between runs: a rung that counts in it must leave it at 0 for the next run.
    unsigned int* counter;
    // Where the sum goes: one double in device memory, garbage (NaN) before every run.
    double* result;
};

inline size_t partial_capacity(size_t n) { return (n + 63) / 64; }
inline size_t partial2_capacity(size_t n) { return (partial_capacity(n) + 63) / 64; }

// The ladder of Professional CUDA C Programming (Cheng, Grossman, McKercher), chapter 3, each rung a kernel:
void reduce_neighbored(const ReduceProblem& p, Launcher& launch);              // reduceNeighbored
void reduce_neighbored_less(const ReduceProblem& p, Launcher& launch);         // reduceNeighboredLess
void reduce_interleaved(const ReduceProblem& p, Launcher& launch);             // reduceInterleaved
void reduce_unrolling2(const ReduceProblem& p, Launcher& launch);              // reduceUnrolling2
void reduce_unrolling4(const ReduceProblem& p, Launcher& launch);              // reduceUnrolling4
void reduce_unrolling8(const ReduceProblem& p, Launcher& launch);              // reduceUnrolling8
void reduce_unroll_warps8(const ReduceProblem& p, Launcher& launch);           // reduceUnrollWarps8
void reduce_complete_unroll_warps8(const ReduceProblem& p, Launcher& launch);  // reduceCompleteUnrollWarps8
void reduce_complete_unroll(const ReduceProblem& p, Launcher& launch);         // reduceCompleteUnroll<iBlockSize>
// ... and two rungs beyond the textbook:
void reduce_shuffle(const ReduceProblem& p, Launcher& launch);      // a block's sum by warp shuffles
void reduce_grid_stride(const ReduceProblem& p, Launcher& launch);  // one launch: grid-stride, double2
