// The diameter's first pass as the handout describes it, for the partial-buffer test. Its own
// .cu file with a plain C++ interface: nvcc with Catch2 3's headers in the same file never
// finished compiling it on an H100 machine (CUDA 13.0), so the test itself is a .cpp file.
#pragma once
#include <cstddef>
#include <vector>

#include <cuda_runtime.h>

// Runs the pass over dist (one element a thread, `threads` threads a block, one partial maximum
// a block) into a buffer of `capacity` ints followed by `guard` ints of 0x5A5A5A5A, on
// `stream`, and returns the whole buffer. Throws LaunchRefused (launch_limits.hpp) when the
// launcher refuses a block of `threads`.
std::vector<int> run_handout_diameter_pass(const std::vector<int>& dist, size_t threads, size_t capacity, size_t guard,
                                           const cudaDeviceProp& prop, cudaStream_t stream);
