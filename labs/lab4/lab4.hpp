// Lab 4 as the shared driver core sees it (common/lab_case.hpp): its driver's main() and its
// tests run the same lab.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "lab_case.hpp"

LabInfo lab4();

// The B the max part reduces: the stencil of A (n + 4 values) evaluated in float by the driver
// itself, so the max part never depends on the stencil parts, and its answer, the largest of
// these floats, is exact.
// Also the `cpu` yardstick's loop (the student report's TCPU), timed on one core.
std::vector<float> stencil_in_float(const std::vector<float>& A);
void stencil_in_float(const float* A, size_t n, float* B);
// The max part's B of a run whose inputs are drawn from `seed` (common/lab_case.hpp, load_inputs),
// made on the GPU, on `stream`: stencil_in_float of that run's A, rounded exactly as it is.
void max_input_on_gpu(float* B, size_t n, uint64_t seed, cudaStream_t stream);
