// Lab 2: pitched memory. THIS is the file you edit.
//
// Every matrix is a cudaPitchedPtr (see pitched.h): rows of `pitch` bytes, `xsize` floats of
// each used. `make lab2` runs every part on one case, checks it against a CPU reference and
// times it against cuBLAS (the multiplies) and a device-to-device cudaMemcpy2D (the transpose
// and the copies). A part that launches nothing shows "not implemented"; until TODO 1 gives
// the driver device memory, that is every part. Handout: handouts/lab2-pitched-memory.md.
// Every size must work: 1, primes, widths that are not multiples of the block or of 32.
#include "cuda_check.hpp"  // CUDA_CHECK(call): stops with the runtime's message when a call fails
#include "pitched.h"

// ---------------------------------------------------------------------------------
// TODO 0: element (row, col) of a matrix, through the pitch in BYTES:
//     start of row `row` = (char*)m.ptr + row * m.pitch; then the col-th float of that row.
// Use it for every element access below, on the host and on the GPU.
__host__ __device__ inline float& get_elem(const cudaPitchedPtr& m, int row, int col) {
    (void)row, (void)col;
    return static_cast<float*>(m.ptr)[0];  // replace these two lines
}

// ---------------------------------------------------------------------------------
// TODO 1: the host side.
cudaPitchedPtr wrap_host_matrix(float* data, int rows, int cols) {
    // TODO 1a: make_cudaPitchedPtr(data, pitch in bytes, xsize, ysize): a dense host matrix.
    (void)data, (void)rows, (void)cols;
    return make_cudaPitchedPtr(nullptr, 0, 0, 0);
}

cudaPitchedPtr allocate_device_matrix(int rows, int cols, bool pitched) {
    // TODO 1b: pitched: cudaMallocPitch(&m.ptr, &m.pitch, width in bytes, rows), which chooses
    //          the pitch; plain: cudaMalloc of rows * cols floats, pitch = cols * sizeof(float).
    //          Wrap the result with make_cudaPitchedPtr and check every call (CUDA_CHECK).
    (void)rows, (void)cols, (void)pitched;
    return make_cudaPitchedPtr(nullptr, 0, 0, 0);  // a null ptr: "not implemented"
}

void free_device_matrix(cudaPitchedPtr matrix) {
    // TODO 1c: cudaFree.
    (void)matrix;
}

void copy_to_device(cudaPitchedPtr device, cudaPitchedPtr host, cudaStream_t stream) {
    // TODO 1d: cudaMemcpy2DAsync(dst, dst pitch, src, src pitch, row width in bytes, rows,
    //          cudaMemcpyHostToDevice, stream). Handout question 3 (Why `cudaMemcpy2D` rather than `cudaMemcpy`): why not cudaMemcpy?
    (void)device, (void)host, (void)stream;
}

void copy_to_host(cudaPitchedPtr host, cudaPitchedPtr device, cudaStream_t stream) {
    // TODO 1e: the same, device to host.
    (void)host, (void)device, (void)stream;
}

// ---------------------------------------------------------------------------------
// TODO 2: naive. One thread per element of C: row from the y indices, column from x.
// Threads outside C do nothing (the grid is rounded up). Read A, B and C with get_elem.
__global__ void naive_kernel(cudaPitchedPtr A, cudaPitchedPtr B, cudaPitchedPtr C) {
    // TODO 2a: C[row][col] = sum over k < A.xsize of A[row][k] * B[k][col].
}

void matmul_naive(const MatmulOperands& m, int block_width, int block_height, Launcher& launch) {
    // TODO 2b: blocks of block_width x block_height threads, enough to cover C, then
    //          launch(naive_kernel, grid, block, 0, m.A, m.B, m.C);
    (void)m, (void)block_width, (void)block_height, (void)launch;
}

// ---------------------------------------------------------------------------------
// TODO 3: the naive kernel reading A transposed: At is K x M, A[row][k] = At[k][row].
// Handout, question 2 (In the naive kernel): when does a warp read A better this way?
__global__ void naive_at_kernel(cudaPitchedPtr At, cudaPitchedPtr B, cudaPitchedPtr C) {
    // TODO 3a
}

void matmul_naive_at(const MatmulOperands& m, cudaPitchedPtr At, int block_width, int block_height, Launcher& launch) {
    // TODO 3b: as TODO 2b, with At in place of m.A.
    (void)m, (void)At, (void)block_width, (void)block_height, (void)launch;
}

// ---------------------------------------------------------------------------------
// TODO 4: 32 x 32 shared-memory tiles of A and B. A block of 32 x BH threads computes a
// 32 x 32 tile of C: with BH = 32 one element per thread, with BH = 16 two (rows ty and
// ty + 16), as in lab 1's coarse2 rung. Loop over ALL tiles along K (the last may be
// partial: load 0 outside the matrix), with a barrier after loading and one after using a
// tile.
template <int BH>
__global__ void tiled_kernel(cudaPitchedPtr A, cudaPitchedPtr B, cudaPitchedPtr C) {
    // TODO 4a
}

void matmul_tiled(const MatmulOperands& m, int block_height, Launcher& launch) {
    // TODO 4b: grid of 32 x 32 tiles of C; switch (block_height) { case 16: launch(
    //          tiled_kernel<16>, grid, dim3(32, 16), ...); case 32: ... } and for anything else
    //          throw LaunchRefused("the tiled parts take --block-height 16 or 32");
    (void)m, (void)block_height, (void)launch;
}

// ---------------------------------------------------------------------------------
// TODO 5: out = in transposed, through a shared tile of 32 x 33 floats. A block of 32 x 8
// threads reads a 32 x 32 tile of `in` along its rows (coalesced), and after a barrier
// writes it to `out` along out's rows (coalesced again), reading the tile down a column.
// The 33rd column is the padding against bank conflicts (handout: padding in both senses).
__global__ void transpose_kernel(cudaPitchedPtr out, cudaPitchedPtr in) {
    // TODO 5a
}

void transpose(cudaPitchedPtr out, cudaPitchedPtr in, Launcher& launch) {
    // TODO 5b: grid of 32 x 32 tiles of `in`, blocks of 32 x 8:
    //          launch(transpose_kernel, grid, dim3(32, 8), 0, out, in);
    (void)out, (void)in, (void)launch;
}
