#include "arch_limits.hpp"

#include <algorithm>
#include <stdexcept>

namespace {

// One row of the CUDA C++ Programming Guide's "Technical Specifications per Compute Capability"
// table (the same numbers as CCCL's cuda/__device/arch_traits.h). What every architecture from
// sm_75 on shares is set in architecture_limits() below.
struct Row {
    int sm;
    const char* family;
    int shared_per_sm_kib;  // the unified L1/shared memory's largest shared carve-out
    int threads_per_sm;
    int blocks_per_sm;
};

// From sm_80 on, the driver reserves 1 KB of each SM's shared memory per block, so a block may
// opt in to the SM's shared memory minus 1 KB (163 KB on sm_80, 99 KB on sm_86, 227 KB on sm_90).
constexpr Row rows[] = {
    {75, "Turing: T4, RTX 20", 64, 1024, 16},
    {80, "Ampere: A100", 164, 2048, 32},
    {86, "Ampere: RTX 30, A10", 100, 1536, 16},
    {89, "Ada: RTX 40, L4", 100, 1536, 24},
    {90, "Hopper: H100, H200", 228, 2048, 32},
    {100, "Blackwell: B200", 228, 2048, 32},
    {120, "Blackwell: RTX 50", 100, 1536, 24},
};

const Row& row(int sm) {
    for (const Row& r : rows)
        if (r.sm == sm) return r;
    throw std::invalid_argument("no launch limits are known for " + architecture_name(sm) +
                                " (known: sm_75, sm_80, sm_86, sm_89, sm_90, sm_100, sm_120)");
}

}  // namespace

std::string architecture_name(int sm) { return "sm_" + std::to_string(sm); }

std::string architecture_family(int sm) { return row(sm).family; }

std::vector<int> known_architectures() {
    std::vector<int> known;
    for (const Row& r : rows) known.push_back(r.sm);
    return known;
}

cudaDeviceProp architecture_limits(int sm) {
    const Row& r = row(sm);
    cudaDeviceProp p{};
    p.major = sm / 10, p.minor = sm % 10;
    p.warpSize = 32;
    p.maxThreadsPerBlock = 1024;
    p.maxThreadsDim[0] = 1024, p.maxThreadsDim[1] = 1024, p.maxThreadsDim[2] = 64;
    p.maxGridSize[0] = 2147483647, p.maxGridSize[1] = 65535, p.maxGridSize[2] = 65535;
    p.regsPerBlock = 64 * 1024;
    p.regsPerMultiprocessor = 64 * 1024;
    p.sharedMemPerBlock = 48 * 1024;  // static __shared__ arrays, and dynamic without the opt-in
    p.sharedMemPerMultiprocessor = size_t(r.shared_per_sm_kib) * 1024;
    p.reservedSharedMemPerBlock = sm >= 80 ? 1024 : 0;
    p.sharedMemPerBlockOptin = p.sharedMemPerMultiprocessor - p.reservedSharedMemPerBlock;
    p.maxThreadsPerMultiProcessor = r.threads_per_sm;
    p.maxBlocksPerMultiProcessor = r.blocks_per_sm;
    return p;
}

int max_threads_for_registers(const cudaDeviceProp& gpu, int registers_per_thread, int launch_bound) {
    constexpr int allocation_unit = 256;  // registers, per warp
    int most = gpu.maxThreadsPerBlock;
    if (launch_bound > 0) most = std::min(most, launch_bound);
    if (registers_per_thread <= 0) return most;
    const int per_warp = (registers_per_thread * gpu.warpSize + allocation_unit - 1) / allocation_unit * allocation_unit;
    return std::min(most, gpu.regsPerBlock / per_warp * gpu.warpSize);
}
