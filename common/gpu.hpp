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
// The two ceilings of a roofline, from the GPU's properties: FP32 fused multiply-adds (2
// operations) per lane per clock at the peak SM clock, and two transfers per memory clock over
// the whole bus. Datasheet-style upper bounds: no kernel reaches them.
int fp32_lanes_per_sm(const GpuInfo& gpu);  // 64 or 128, by compute capability
double peak_fp32_gflops(const GpuInfo& gpu);
double peak_memory_gbps(const GpuInfo& gpu);
// The table `make limits` prints: the hardware limits a launch configuration must respect.
void print_gpu_limits(const GpuInfo& gpu);
