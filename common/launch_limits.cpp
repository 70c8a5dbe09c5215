#include "launch_limits.hpp"

namespace {

std::string dims(dim3 d) {
    return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
}

[[noreturn]] void refuse(const std::string& why) { throw LaunchRefused(why); }

}  // namespace

std::string describe(const LaunchConfig& c) {
    unsigned long long threads = 1ull * c.block.x * c.block.y * c.block.z;
    std::string text = "grid " + dims(c.grid) + ", block " + dims(c.block) + " (" +
                       std::to_string(threads) + " threads)";
    if (c.dynamic_shared_bytes) text += ", " + std::to_string(c.dynamic_shared_bytes) + " B dynamic shared";
    return text;
}

bool check_launch_limits(const cudaDeviceProp& gpu, const KernelResources& kernel,
                         const LaunchConfig& c) {
    const char* axis[3] = {"x", "y", "z"};
    const unsigned block[3] = {c.block.x, c.block.y, c.block.z};
    const unsigned grid[3] = {c.grid.x, c.grid.y, c.grid.z};
    for (int i = 0; i < 3; ++i) {
        if (block[i] == 0) refuse(std::string("block.") + axis[i] + " is 0: a block needs at least one thread in each dimension");
        if (grid[i] == 0)
            refuse(std::string("grid.") + axis[i] + " is 0: no block would run (did a division round the grid down to 0?)");
        if (block[i] > unsigned(gpu.maxThreadsDim[i]))
            refuse(std::string("block.") + axis[i] + " = " + std::to_string(block[i]) +
                   " exceeds this GPU's maximum block dimension " + axis[i] + " = " +
                   std::to_string(gpu.maxThreadsDim[i]) + " (maxThreadsDim[" + std::to_string(i) + "])");
        if (grid[i] > unsigned(gpu.maxGridSize[i]))
            refuse(std::string("grid.") + axis[i] + " = " + std::to_string(grid[i]) +
                   " exceeds this GPU's maximum grid dimension " + axis[i] + " = " +
                   std::to_string(gpu.maxGridSize[i]) + " (maxGridSize[" + std::to_string(i) + "])");
    }
    unsigned long long threads = 1ull * block[0] * block[1] * block[2];
    if (threads > unsigned(gpu.maxThreadsPerBlock))
        refuse("a block of " + dims(c.block) + " = " + std::to_string(threads) +
               " threads exceeds this GPU's limit of " + std::to_string(gpu.maxThreadsPerBlock) +
               " threads per block (maxThreadsPerBlock)");
    if (kernel.max_threads_per_block > 0 && threads > unsigned(kernel.max_threads_per_block))
        refuse("a block of " + std::to_string(threads) + " threads needs " +
               std::to_string(threads) + " x " + std::to_string(kernel.registers_per_thread) +
               " registers per thread = " + std::to_string(threads * kernel.registers_per_thread) +
               " registers, but a block may use at most " + std::to_string(gpu.regsPerBlock) +
               " (regsPerBlock); this kernel can run at most " +
               std::to_string(kernel.max_threads_per_block) + " threads per block");
    size_t shared = kernel.static_shared_bytes + c.dynamic_shared_bytes;
    if (shared > gpu.sharedMemPerBlockOptin)
        refuse("the block needs " + std::to_string(shared) + " bytes of shared memory (" +
               std::to_string(kernel.static_shared_bytes) + " static + " +
               std::to_string(c.dynamic_shared_bytes) + " dynamic), more than this GPU's " +
               std::to_string(gpu.sharedMemPerBlockOptin) +
               " bytes per block (sharedMemPerBlockOptin)");
    return shared > gpu.sharedMemPerBlock;
}
