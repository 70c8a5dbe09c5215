// cuBLAS as the yardstick of the matrix-multiply labs (1, 2): a handle on the driver's stream
// and C = A B on dense row-major device matrices. Header-only, so only the drivers that
// include it (and link -lcublas) depend on cuBLAS.
#pragma once
#include <cublas_v2.h>

#include "fail.hpp"

class CublasHandle {
public:
    explicit CublasHandle(cudaStream_t stream) {
        if (cublasCreate(&handle_) != CUBLAS_STATUS_SUCCESS) fail(exit_code::bad_usage, "cuBLAS could not start");
        cublasSetStream(handle_, stream);
    }
    ~CublasHandle() { cublasDestroy(handle_); }
    CublasHandle(const CublasHandle&) = delete;
    CublasHandle& operator=(const CublasHandle&) = delete;

    // C (M x N) = A (M x K) B (K x N), all dense and row-major. cuBLAS is column-major, and a
    // row-major C = A B is the column-major C^T = B^T A^T: pass B first and swap M and N.
    void sgemm_row_major(const float* A, const float* B, float* C, int M, int N, int K) const {
        const float one = 1, zero = 0;
        if (cublasSgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero, C, N) !=
            CUBLAS_STATUS_SUCCESS)
            fail(exit_code::bad_usage, "cublasSgemm failed");
    }

private:
    cublasHandle_t handle_ = nullptr;
};
