#include "gpu_timer.hpp"

#include <chrono>
#include <thread>

cudaError_t wait_with_deadline(cudaStream_t stream, double limit_seconds) {
    auto start = std::chrono::steady_clock::now();
    for (;;) {
        cudaError_t status = cudaStreamQuery(stream);
        if (status != cudaErrorNotReady) return status;
        if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > limit_seconds)
            return cudaErrorTimeout;
        std::this_thread::sleep_for(std::chrono::microseconds(200));
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
