// Every CUDA runtime call goes through CUDA_CHECK; every launch is followed by
// CUDA_CHECK_LAUNCH. A failure stops the program with the call, the place and the
// runtime's own words, and an exit code that says what kind of failure it was.
#pragma once
#include <cuda_runtime.h>

#include <string>

#include "fail.hpp"

// True for the errors that leave the CUDA context unusable (the kernel faulted):
// after one of these no further CUDA call in this process can succeed.
inline bool is_sticky_cuda_error(cudaError_t err) {
    switch (err) {
        case cudaErrorIllegalAddress:
        case cudaErrorMisalignedAddress:
        case cudaErrorInvalidAddressSpace:
        case cudaErrorInvalidPc:
        case cudaErrorIllegalInstruction:
        case cudaErrorHardwareStackError:
        case cudaErrorAssert:
        case cudaErrorLaunchFailure:
        case cudaErrorLaunchTimeout:
        case cudaErrorECCUncorrectable:
            return true;
        default:
            return false;
    }
}

inline std::string describe_cuda_error(cudaError_t err) {
    return std::string(cudaGetErrorString(err)) + " (" + cudaGetErrorName(err) + ")";
}

inline void cuda_check(cudaError_t err, const char* what, const char* file, int line) {
    if (err == cudaSuccess) return;
    int code = is_sticky_cuda_error(err)               ? exit_code::kernel_crashed
               : err == cudaErrorMemoryAllocation ? exit_code::gpu_short
                                                  : exit_code::bad_usage;
    fail(code, std::string(file) + ":" + std::to_string(line) + ": " + what + " failed: " +
                   describe_cuda_error(err));
}

#define CUDA_CHECK(call) cuda_check((call), #call, __FILE__, __LINE__)
// A launch reports a bad configuration at once, and a fault only at the next sync.
#define CUDA_CHECK_LAUNCH() cuda_check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
