// The launch limits of each GPU architecture the course builds for (mk/cuda.mk, PORTABLE_ARCHS),
// as the CUDA runtime would report them for a GPU of that architecture, so that a launch can be
// checked against a GPU that is not here (tests/scripts/arch.sh checks every kernel of the labs
// against sm_75 to sm_120 on a machine with no GPU at all).
#pragma once
#include <cuda_runtime.h>

#include <string>
#include <vector>

// "sm_75": the architecture's name as nvcc spells it.
std::string architecture_name(int sm);
// "Turing: T4, RTX 20": the architecture and GPUs a student knows it by.
std::string architecture_family(int sm);
// The architectures this table knows: 75 80 86 89 90 100 120.
std::vector<int> known_architectures();

// A cudaDeviceProp holding the architecture's launch limits (threads, block and grid dimensions,
// registers, shared memory per block and per SM, with and without the opt-in) and its compute
// capability; every other field is 0. Throws std::invalid_argument for an architecture the table
// does not know.
cudaDeviceProp architecture_limits(int sm);

// What cudaFuncGetAttributes reports as maxThreadsPerBlock for a kernel compiled to
// `registers_per_thread` registers: the most threads a block may have before its warps' registers
// (allocated 256 at a time per warp) exceed the GPU's registers per block; never more than the
// kernel's __launch_bounds__ (`launch_bound`, 0 when it has none) or the GPU's threads per block.
int max_threads_for_registers(const cudaDeviceProp& gpu, int registers_per_thread, int launch_bound);
