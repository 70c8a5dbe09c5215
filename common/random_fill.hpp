// Seeded data made on the GPU: each element is the value SeededRandom(seed) draws on the host
// at the same position (common/random_data.hpp, splitmix_at), so a driver gives every run of a
// part fresh inputs in microseconds, untimed, and its CPU reference can draw the same values.
// Element i of the array (row-major for a pitched one) is the draw at position offset + i.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

// Floats uniform in [lo, hi), as SeededRandom::uniform.
void fill_uniform(float* dst, size_t count, uint64_t seed, uint64_t offset, float lo, float hi, cudaStream_t stream);
// The same into a pitched matrix of height rows of width floats, rows pitch_bytes apart.
void fill_uniform_pitched(float* dst, size_t pitch_bytes, size_t width, size_t height, uint64_t seed, uint64_t offset,
                          float lo, float hi, cudaStream_t stream);
// Unsigned 32-bit words: the high half of each draw.
void fill_bits(uint32_t* dst, size_t count, uint64_t seed, uint64_t offset, cudaStream_t stream);
