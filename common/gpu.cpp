#include "gpu.hpp"

#include <cstdio>

#include "cuda_check.hpp"
#include "fail.hpp"

std::string GpuInfo::compute_capability() const {
    return std::to_string(prop.major) + "." + std::to_string(prop.minor);
}

std::string GpuInfo::summary() const {
    char text[400];
    std::snprintf(text, sizeof text, "%s (sm_%d%d, %d SMs, %.1f GiB)", prop.name, prop.major,
                  prop.minor, prop.multiProcessorCount, prop.totalGlobalMem / 1073741824.0);
    return text;
}

std::string why_no_gpu(int device) {
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err == cudaErrorNoDevice || (err == cudaSuccess && count == 0))
        return "no CUDA device was found on this machine";
    if (err == cudaErrorInsufficientDriver)
        return "no NVIDIA driver is loaded (or it is older than this CUDA runtime), so no CUDA "
               "device can be used";
    if (err != cudaSuccess) return "the CUDA runtime could not start: " + describe_cuda_error(err);
    if (device < 0 || device >= count)
        return "device " + std::to_string(device) + " does not exist (this machine has " +
               std::to_string(count) + ")";
    return "";
}

GpuInfo require_gpu(int device) {
    std::string reason = why_no_gpu(device);
    if (!reason.empty())
        fail(exit_code::no_gpu, reason + ". This lab needs an NVIDIA GPU; the build itself works "
                                         "without one (see README.md, 'No GPU here?').");
    GpuInfo gpu;
    gpu.device = device;
    CUDA_CHECK(cudaSetDevice(device));
    CUDA_CHECK(cudaGetDeviceProperties(&gpu.prop, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&gpu.sm_clock_khz, cudaDevAttrClockRate, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&gpu.memory_clock_khz, cudaDevAttrMemoryClockRate, device));
    CUDA_CHECK(cudaDriverGetVersion(&gpu.driver_version));
    CUDA_CHECK(cudaRuntimeGetVersion(&gpu.runtime_version));
    return gpu;
}

int fp32_lanes_per_sm(const GpuInfo& gpu) {
    // Volta, Turing and the A100 (7.x, 8.0) have 64 FP32 lanes per SM; from the GA10x (8.6)
    // on, every architecture so far has 128.
    return gpu.prop.major < 8 || (gpu.prop.major == 8 && gpu.prop.minor == 0) ? 64 : 128;
}

double peak_fp32_gflops(const GpuInfo& gpu) {
    return double(gpu.prop.multiProcessorCount) * fp32_lanes_per_sm(gpu) * 2 * gpu.sm_clock_khz * 1e3 / 1e9;
}

double peak_memory_gbps(const GpuInfo& gpu) {
    return 2.0 * gpu.memory_clock_khz * 1e3 * gpu.prop.memoryBusWidth / 8 / 1e9;
}

void print_gpu_limits(const GpuInfo& gpu) {
    const cudaDeviceProp& p = gpu.prop;
    auto version = [](int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); };
    std::printf("Device %d: \"%s\"\n", gpu.device, p.name);
    std::printf("  CUDA driver / runtime version            %s / %s\n",
                version(gpu.driver_version).c_str(), version(gpu.runtime_version).c_str());
    std::printf("  Compute capability                       %d.%d\n", p.major, p.minor);
    std::printf("  Multiprocessors (SMs)                    %d\n", p.multiProcessorCount);
    std::printf("  Peak SM clock                            %d MHz\n", gpu.sm_clock_khz / 1000);
    std::printf("  Peak memory clock                        %d MHz\n", gpu.memory_clock_khz / 1000);
    std::printf("  Memory bus width                         %d bits\n", p.memoryBusWidth);
    std::printf("  Peak FP32 rate                           %.0f GFLOP/s (%d SMs x %d lanes x 2 x %d MHz)\n",
                peak_fp32_gflops(gpu), p.multiProcessorCount, fp32_lanes_per_sm(gpu), gpu.sm_clock_khz / 1000);
    std::printf("  Peak memory bandwidth                    %.0f GB/s (2 x %d MHz x %d bits)\n", peak_memory_gbps(gpu),
                gpu.memory_clock_khz / 1000, p.memoryBusWidth);
    std::printf("  Global memory                            %.1f GiB\n", p.totalGlobalMem / 1073741824.0);
    std::printf("  L2 cache                                 %d KiB\n", p.l2CacheSize / 1024);
    std::printf("  Warp size                                %d\n", p.warpSize);
    std::printf("  Max threads per block                    %d\n", p.maxThreadsPerBlock);
    std::printf("  Max block dimensions (x, y, z)           (%d, %d, %d)\n", p.maxThreadsDim[0],
                p.maxThreadsDim[1], p.maxThreadsDim[2]);
    std::printf("  Max grid dimensions (x, y, z)            (%d, %d, %d)\n", p.maxGridSize[0],
                p.maxGridSize[1], p.maxGridSize[2]);
    std::printf("  Registers per block                      %d\n", p.regsPerBlock);
    std::printf("  Registers per multiprocessor             %d\n", p.regsPerMultiprocessor);
    std::printf("  Shared memory per block                  %zu bytes (%zu with opt-in)\n",
                p.sharedMemPerBlock, p.sharedMemPerBlockOptin);
    std::printf("  Shared memory per multiprocessor         %zu bytes\n", p.sharedMemPerMultiprocessor);
    std::printf("  Max threads per multiprocessor           %d\n", p.maxThreadsPerMultiProcessor);
    std::printf("  Max blocks per multiprocessor            %d\n", p.maxBlocksPerMultiProcessor);
    std::printf("  Constant memory                          %zu bytes\n", p.totalConstMem);
    std::printf("  Can map host memory (zero-copy)          %s\n", p.canMapHostMemory ? "yes" : "no");
}
