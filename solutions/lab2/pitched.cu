// Lab 2 reference solution: the interface of labs/lab2/pitched.h.
#include "cuda_check.hpp"
#include "pitched.h"

// ---------------------------------------------------------------------------------
// Element (row, col) of a matrix: `row` rows of `pitch` bytes in, then `col` floats.
__host__ __device__ inline float& get_elem(const cudaPitchedPtr& m, int row, int col) {
    return reinterpret_cast<float*>(static_cast<char*>(m.ptr) + size_t(row) * m.pitch)[col];
}

// ---------------------------------------------------------------------------------
// TODO 1: the host side.
cudaPitchedPtr wrap_host_matrix(float* data, int rows, int cols) {
    return make_cudaPitchedPtr(data, size_t(cols) * sizeof(float), cols, rows);
}

cudaPitchedPtr allocate_device_matrix(int rows, int cols, bool pitched) {
    cudaPitchedPtr m = make_cudaPitchedPtr(nullptr, size_t(cols) * sizeof(float), cols, rows);
    if (pitched)
        CUDA_CHECK(cudaMallocPitch(&m.ptr, &m.pitch, size_t(cols) * sizeof(float), rows));
    else
        CUDA_CHECK(cudaMalloc(&m.ptr, m.pitch * rows));
    return m;
}

void free_device_matrix(cudaPitchedPtr matrix) { CUDA_CHECK(cudaFree(matrix.ptr)); }

// Row by row: each side steps by its own pitch, only xsize floats of each row are copied.
void copy_to_device(cudaPitchedPtr device, cudaPitchedPtr host, cudaStream_t stream) {
    CUDA_CHECK(cudaMemcpy2DAsync(device.ptr, device.pitch, host.ptr, host.pitch, host.xsize * sizeof(float), host.ysize,
                                 cudaMemcpyHostToDevice, stream));
}

void copy_to_host(cudaPitchedPtr host, cudaPitchedPtr device, cudaStream_t stream) {
    CUDA_CHECK(cudaMemcpy2DAsync(host.ptr, host.pitch, device.ptr, device.pitch, host.xsize * sizeof(float), host.ysize,
                                 cudaMemcpyDeviceToHost, stream));
}

// ---------------------------------------------------------------------------------
// TODO 2: naive. Thread (x, y) computes C[y][x]; a warp is 32 consecutive x of one row when
// the block width is a multiple of 32.
__global__ void naive_kernel(cudaPitchedPtr A, cudaPitchedPtr B, cudaPitchedPtr C) {
    const int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= int(C.ysize) || col >= int(C.xsize)) return;
    float sum = 0;
    for (int k = 0; k < int(A.xsize); ++k) sum += get_elem(A, row, k) * get_elem(B, k, col);
    get_elem(C, row, col) = sum;
}

void matmul_naive(const MatmulOperands& m, int block_width, int block_height, Launcher& launch) {
    dim3 block(block_width, block_height);
    dim3 grid(ceil_div(m.C.xsize, block.x), ceil_div(m.C.ysize, block.y));
    launch(naive_kernel, grid, block, 0, m.A, m.B, m.C);
}

// ---------------------------------------------------------------------------------
// TODO 3: naive with A transposed: At[k][row] instead of A[row][k]. Where a warp spans
// several rows (block width not a multiple of 32), its threads read consecutive elements of
// a row of At instead of elements of a column of A.
__global__ void naive_at_kernel(cudaPitchedPtr At, cudaPitchedPtr B, cudaPitchedPtr C) {
    const int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= int(C.ysize) || col >= int(C.xsize)) return;
    float sum = 0;
    for (int k = 0; k < int(At.ysize); ++k) sum += get_elem(At, k, row) * get_elem(B, k, col);
    get_elem(C, row, col) = sum;
}

void matmul_naive_at(const MatmulOperands& m, cudaPitchedPtr At, int block_width, int block_height, Launcher& launch) {
    dim3 block(block_width, block_height);
    dim3 grid(ceil_div(m.C.xsize, block.x), ceil_div(m.C.ysize, block.y));
    launch(naive_at_kernel, grid, block, 0, At, m.B, m.C);
}

// ---------------------------------------------------------------------------------
// TODO 4: 32 x 32 tiles of A and B in shared memory; a block of 32 x BH threads computes a
// 32 x 32 tile of C, each thread 32 / BH elements of one column (rows ty, ty + BH, ...).
template <int BH>
__global__ void tiled_kernel(cudaPitchedPtr A, cudaPitchedPtr B, cudaPitchedPtr C) {
    constexpr int T = 32, R = T / BH;
    __shared__ float As[T][T], Bs[T][T];
    const int M = int(C.ysize), N = int(C.xsize), K = int(A.xsize);
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row0 = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float sum[R] = {};
    for (int t = 0; t < K; t += T) {
        for (int r = 0; r < R; ++r) {
            const int row = row0 + r * BH, k = t + ty + r * BH;
            As[ty + r * BH][tx] = row < M && t + tx < K ? get_elem(A, row, t + tx) : 0.f;
            Bs[ty + r * BH][tx] = k < K && col < N ? get_elem(B, k, col) : 0.f;
        }
        __syncthreads();  // the whole tile is loaded
        for (int k = 0; k < T; ++k) {
            const float b = Bs[k][tx];
            for (int r = 0; r < R; ++r) sum[r] += As[ty + r * BH][k] * b;
        }
        __syncthreads();  // everyone is done with the tile before it is overwritten
    }
    for (int r = 0; r < R; ++r)
        if (row0 + r * BH < M && col < N) get_elem(C, row0 + r * BH, col) = sum[r];
}

void matmul_tiled(const MatmulOperands& m, int block_height, Launcher& launch) {
    dim3 grid(ceil_div(m.C.xsize, 32), ceil_div(m.C.ysize, 32));
    switch (block_height) {
        case 16: launch(tiled_kernel<16>, grid, dim3(32, 16), 0, m.A, m.B, m.C); break;
        case 32: launch(tiled_kernel<32>, grid, dim3(32, 32), 0, m.A, m.B, m.C); break;
        default: throw LaunchRefused("the tiled parts take --block-height 16 or 32");
    }
}

// ---------------------------------------------------------------------------------
// TODO 5: transpose through a 32 x 32 shared tile, read and written along rows (coalesced
// both ways). The extra column makes a column of the tile span all 32 banks: without it,
// reading tile[x][y + j] down a column hits one bank 32 times.
constexpr int transpose_tile = 32, transpose_rows = 8;

__global__ void transpose_kernel(cudaPitchedPtr out, cudaPitchedPtr in) {
    __shared__ float tile[transpose_tile][transpose_tile + 1];
    const int rows = int(in.ysize), cols = int(in.xsize);
    int x = blockIdx.x * transpose_tile + threadIdx.x, y = blockIdx.y * transpose_tile + threadIdx.y;
    for (int j = 0; j < transpose_tile; j += transpose_rows)
        if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = get_elem(in, y + j, x);
    __syncthreads();
    x = blockIdx.y * transpose_tile + threadIdx.x;  // a column of `in` is a row of `out`
    y = blockIdx.x * transpose_tile + threadIdx.y;
    for (int j = 0; j < transpose_tile; j += transpose_rows)
        if (x < rows && y + j < cols) get_elem(out, y + j, x) = tile[threadIdx.x][threadIdx.y + j];
}

void transpose(cudaPitchedPtr out, cudaPitchedPtr in, Launcher& launch) {
    dim3 grid(ceil_div(in.xsize, transpose_tile), ceil_div(in.ysize, transpose_tile));
    launch(transpose_kernel, grid, dim3(transpose_tile, transpose_rows), 0, out, in);
}
