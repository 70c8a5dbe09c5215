// Lab 6 interface between the trusted driver (lab6.cu) and the file you edit (sort.cu).
// Do not change this file: the grader builds your sort.cu against the original.
//
// Every part sorts `batch` arrays of `length` (key, value) pairs of 32-bit unsigned integers,
// in place, each array on its own: array a is keys[a * length ... (a + 1) * length) with its
// values at the same positions. A value travels with its key: when two keys swap places, their
// values swap too. Equal keys may end in any order. What is timed is everything between the
// unsorted pairs in device memory and the sorted pairs in device memory (every launch of the
// part); before every run the driver puts that run's own unsorted pairs there, untimed (each
// run sorts pairs drawn afresh).
//
// A part launches its kernels through `launch` instead of <<< >>>:
//     launch(kernel, grid, block, dynamic_shared_bytes, kernel arguments...);
// The launcher refuses a configuration that breaks a limit of this GPU, with the limit's name
// and value. A part that launches nothing is reported as "not implemented", so every part
// launches at least one kernel, even when length is 1 (nothing to compare: the shared-memory
// kernel then loads and stores its tile). Kernel signatures and helpers are yours to choose;
// only these host functions are fixed.
#pragma once
#include <cstdint>

#include "launcher.cuh"

// The most pairs one block sorts in shared memory: the `_shared` parts sort arrays of at most
// this length, and the others presort tiles of this many pairs (the sample's SHARED_SIZE_LIMIT).
constexpr unsigned shared_size_limit = 1024;

struct SortProblem {
    uint32_t* keys;    // batch x length keys in device memory, aligned to 256 bytes
    uint32_t* values;  // their values (the driver's are random 32-bit words: each must end beside its key)
    unsigned batch;    // >= 1
    unsigned length;   // a power of two, 1 <= length <= 2^26; batch x length <= 2^28
    bool ascending;    // --dir up: smallest key first; --dir down: largest first
};

// Bitonic sort (Batcher 1968; NVIDIA's sample's bitonicSort):
void bitonic_shared(const SortProblem& p, Launcher& launch);  // length <= 1024: one kernel
void bitonic(const SortProblem& p, Launcher& launch);         // any length: presort, then merges
// Batcher's odd-even merge sort (the sample's oddEvenMergeSort, which NVIDIA's main() does not call: the student report
// this lab quotes changed the call to time it):
void oddeven_shared(const SortProblem& p, Launcher& launch);  // length <= 1024: one kernel
void oddeven(const SortProblem& p, Launcher& launch);         // any length: presort, then merges
