#include "stream_hold.hpp"

#include "cuda_check.hpp"
#include "launch_trace.hpp"

namespace {

__global__ void hold_kernel(unsigned long long nanoseconds) {
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    while (now - start < nanoseconds);
}

}  // namespace

void hold_stream(cudaStream_t stream, unsigned microseconds) {
    TrustedLaunches driver_work;  // before a timed run, not one of the part's launches
    hold_kernel<<<1, 1, 0, stream>>>(1000ull * microseconds);
    CUDA_CHECK_LAUNCH();
}
