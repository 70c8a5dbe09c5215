// Lab 2 interface between the trusted driver (lab2.cu) and the file you edit (pitched.cu).
// Do not change this file: the grader builds your pitched.cu against the original.
//
// Every matrix, on the host and on the GPU, is a cudaPitchedPtr (cuda_runtime.h):
//     ptr    the first byte of row 0
//     pitch  the number of BYTES from the start of one row to the start of the next
//     xsize  the width: columns (elements of a row)
//     ysize  the height: rows
// Matrices hold floats, row-major. A host matrix is dense (pitch = xsize * sizeof(float)); a
// device matrix from cudaMallocPitch has rows padded to the pitch the runtime chose, so
// element (row, col) is at byte row * pitch + col * sizeof(float), never at row * xsize + col.
//
// A part launches its kernels through `launch` instead of <<< >>>:
//     launch(kernel, grid, block, dynamic_shared_bytes, kernel arguments...);
// It refuses a configuration that breaks a limit of this GPU, with the limit's name and value.
#pragma once
#include <cuda_runtime.h>

#include "launcher.cuh"

// --- The host side (TODO 1 of pitched.cu) ------------------------------------------------
// A dense host matrix of rows x cols floats at `data`, wrapped.
cudaPitchedPtr wrap_host_matrix(float* data, int rows, int cols);
// A rows x cols float matrix on the GPU: from cudaMallocPitch when `pitched`, else from
// cudaMalloc with pitch = cols * sizeof(float). Returns a null ptr while not implemented.
cudaPitchedPtr allocate_device_matrix(int rows, int cols, bool pitched);
void free_device_matrix(cudaPitchedPtr matrix);
// Host to device and back, one matrix of the same width and height each way, on `stream`.
void copy_to_device(cudaPitchedPtr device, cudaPitchedPtr host, cudaStream_t stream);
void copy_to_host(cudaPitchedPtr host, cudaPitchedPtr device, cudaStream_t stream);

// --- The kernels (TODO 2 to 5) -------------------------------------------------------------
// C = A * B on device matrices: A is M x K, B is K x N, C is M x N (M = A.ysize, K = A.xsize,
// N = B.xsize). C's old contents are garbage: overwrite every element.
struct MatmulOperands {
    cudaPitchedPtr A, B, C;
};
// One thread per element of C, blocks of block_width x block_height threads.
void matmul_naive(const MatmulOperands& m, int block_width, int block_height, Launcher& launch);
// The same, given A transposed: `At` is K x M (At[k][i] = A[i][k]); m.A is not used.
void matmul_naive_at(const MatmulOperands& m, cudaPitchedPtr At, int block_width, int block_height,
                     Launcher& launch);
// Shared-memory tiles of 32 x 32; block_height 32: one element of C per thread; 16: two.
void matmul_tiled(const MatmulOperands& m, int block_height, Launcher& launch);
// out = in transposed: in is rows x cols, out is cols x rows; through a shared-memory tile.
void transpose(cudaPitchedPtr out, cudaPitchedPtr in, Launcher& launch);
