// Lab 0 interface between the trusted driver (lab0.cu) and the file you edit (axpy.cu).
// Do not change this file: the grader builds your axpy.cu against the original.
//
// Both parts compute z = a x + y for n floats on the GPU: z[i] = a * x[i] + y[i]. What is
// timed is the part's launch, from x and y in device memory to z in device memory.
//
// A part launches its kernel through `launch` instead of <<< >>>:
//     launch(kernel, grid, block, dynamic_shared_bytes, kernel arguments...);
// The launcher refuses a configuration that breaks a limit of this GPU, with the limit's name
// and value (`make limits` prints them). A part that launches nothing is reported as "not
// implemented". Kernel signatures are yours to choose; only these host functions are fixed.
#pragma once

#include "launcher.cuh"

struct Axpy {
    float a;
    const float* x;  // n floats in device memory
    const float* y;  // n floats in device memory
    float* z;        // n floats in device memory, garbage (NaN) before every run
    int n;           // 1 <= n <= 2^26
    int block;       // threads per block (--block)
    int sms;         // this GPU's streaming multiprocessors (make limits: "Multiprocessors (SMs)")
};

// Part `one_per_thread`: one thread an element, as many blocks as the n elements need.
void axpy_one_per_thread(const Axpy& p, Launcher& launch);
// Part `grid_stride`: a grid of at most 4 x p.sms blocks, each thread looping over the
// elements a whole grid apart.
void axpy_grid_stride(const Axpy& p, Launcher& launch);
