// Checks a launch configuration against the limits of the present GPU before it reaches
// the hardware, so that a block that is too large is refused with the limit's name and
// value instead of a bare "invalid configuration argument".
#pragma once
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

struct LaunchConfig {
    dim3 grid;
    dim3 block;
    size_t dynamic_shared_bytes = 0;
};

struct LaunchRefused : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// What a kernel itself needs, from cudaFuncGetAttributes (or made up by the tests).
struct KernelResources {
    int registers_per_thread = 0;
    size_t static_shared_bytes = 0;
    int max_threads_per_block = 0;  // what the registers allow for this kernel
};

// Throws LaunchRefused naming the first limit the configuration breaks. Returns true when
// the dynamic shared memory is above the default per-block limit and the kernel must opt
// in (cudaFuncAttributeMaxDynamicSharedMemorySize) before it can be launched.
bool check_launch_limits(const cudaDeviceProp& gpu, const KernelResources& kernel,
                         const LaunchConfig& config);

std::string describe(const LaunchConfig& config);  // "grid 32x32x1, block 32x32x1 (1024 threads)"
