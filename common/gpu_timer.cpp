#include "gpu_timer.hpp"

#include <chrono>
#include <thread>

cudaError_t wait_with_deadline(cudaStream_t stream, double limit_seconds) {
    auto start = std::chrono::steady_clock::now();
    for (;;) {
        cudaError_t status = cudaStreamQuery(stream);
        if (status != cudaErrorNotReady) return status;
        double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (waited > limit_seconds) return cudaErrorTimeout;
        // The driver waits after every timed run (gpu_timer.hpp): polled closely for its first
        // two milliseconds, a run costs the wait no more than a poll; longer work, 200 us steps.
        if (waited < 2e-3) std::this_thread::yield();
        else std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
}

std::string explain_kernel_failure(cudaError_t err, double limit_seconds) {
    if (err == cudaErrorTimeout)
        return "the kernel was still running after " + std::to_string(int(limit_seconds)) +
               " s and was stopped. A kernel that never ends usually has a loop whose counter never "
               "reaches its bound (`s >= 1` where `s >>= 1` was meant), or a __syncthreads() that not "
               "every thread reaches. If the work is just large, raise --time-limit.";
    std::string text = "the kernel crashed: " + describe_cuda_error(err) + ".";
    if (err == cudaErrorIllegalAddress || err == cudaErrorMisalignedAddress)
        text += " An index went outside an array: check the bounds tests for rows and columns that are "
                "not a multiple of the tile. compute-sanitizer names the line (see the handout).";
    return text;
}
