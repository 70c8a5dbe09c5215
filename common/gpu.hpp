// Which GPU we run on and what it allows. Drivers call require_gpu() first: with no
// usable device it prints one plain sentence and exits with exit_code::no_gpu.
#pragma once
#include <cuda_runtime.h>

#include <string>

struct GpuInfo {
    int device = 0;
    cudaDeviceProp prop{};
    int sm_clock_khz = 0;      // peak clocks: cudaDeviceProp lost these fields in CUDA 13
    int memory_clock_khz = 0;
    int driver_version = 0;    // e.g. 13000 for CUDA 13.0
    int runtime_version = 0;

    std::string name() const { return prop.name; }
    std::string compute_capability() const;  // "9.0"
    std::string summary() const;             // "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79.2 GiB)"
};

// Empty when a device is usable, otherwise the reason in plain words.
std::string why_no_gpu(int device = 0);
GpuInfo require_gpu(int device = 0);
// The table `make limits` prints: the hardware limits a launch configuration must respect.
void print_gpu_limits(const GpuInfo& gpu);
