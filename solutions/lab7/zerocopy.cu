// Lab 7 reference solution: the same interface as labs/lab7/zerocopy.cu (zerocopy.h).
#include <omp.h>

#include <stdexcept>

#include "zerocopy.h"

// ---------------------------------------------------------------------------------
// CPU parts. Each thread takes whole rows of C (static schedule: equal blocks of rows), so no
// two threads write the same element and no accumulator is shared.

void matmul_cpu_ijk(const HostMatmul& p, Launcher& launch) {
    const int n = p.n;
#pragma omp parallel for num_threads(p.threads) schedule(static)
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            float sum = 0;  // private to the thread: declared inside the parallel loop
            // B is read down a column: a new cache line for every k once B outgrows the cache.
            for (int k = 0; k < n; ++k) sum += p.A[size_t(i) * n + k] * p.B[size_t(k) * n + j];
            p.C[size_t(i) * n + j] = sum;
        }
    launch.note_host_work();
}

void matmul_cpu_ikj(const HostMatmul& p, Launcher& launch) {
    const int n = p.n;
#pragma omp parallel for num_threads(p.threads) schedule(static)
    for (int i = 0; i < n; ++i) {
        float* c = p.C + size_t(i) * n;
        for (int j = 0; j < n; ++j) c[j] = 0;  // C arrives as garbage: the sums start from 0
        for (int k = 0; k < n; ++k) {
            const float a = p.A[size_t(i) * n + k];
            const float* b = p.B + size_t(k) * n;
            // Rows of B and C walked contiguously: every cache line fully used, and the compiler
            // vectorises this loop. Each c[j] still sums its products in k order.
            for (int j = 0; j < n; ++j) c[j] += a * b[j];
        }
    }
    launch.note_host_work();
}

// ---------------------------------------------------------------------------------
// Memory the GPU reads in place.

float* alloc_mapped(size_t count, float** device) {
    int gpu = 0, can_map = 0;
    CUDA_CHECK(cudaGetDevice(&gpu));
    CUDA_CHECK(cudaDeviceGetAttribute(&can_map, cudaDevAttrCanMapHostMemory, gpu));
    if (!can_map) throw std::runtime_error("this GPU cannot map host memory (canMapHostMemory = 0)");
    // Implicit under unified addressing, but the call says what the program relies on (and a
    // context made through the driver API may lack it).
    CUDA_CHECK(cudaSetDeviceFlags(cudaDeviceMapHost));
    float* host = nullptr;
    CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&host), count * sizeof(float), cudaHostAllocMapped));
    CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(device), host, 0));
    return host;
}

float* alloc_managed(size_t count) {
    float* p = nullptr;
    CUDA_CHECK(cudaMallocManaged(reinterpret_cast<void**>(&p), count * sizeof(float)));
    return p;
}

// ---------------------------------------------------------------------------------
// Kernels, shared by the zero-copy, explicit-copy and managed parts: only the pointers differ.

// One thread per element of C. The sum lives in a register and C is stored once: with mapped
// memory a `C[...] +=` in the loop would cross PCIe twice per product (and needs a zeroed C).
__global__ void naive_kernel(const float* A, const float* B, float* C, int n) {
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n || col >= n) return;
    float sum = 0;
    for (int k = 0; k < n; ++k) sum += A[size_t(row) * n + k] * B[size_t(k) * n + col];
    C[size_t(row) * n + col] = sum;
}

// T x T tiles in shared memory: each element of A and B crosses the bus n / T times instead
// of n times. ceil(n / T) tiles, the last one partial: loads outside the matrix give 0.
template <int T>
__global__ void tiled_kernel(const float* A, const float* B, float* C, int n) {
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float sum = 0;
    for (int k0 = 0; k0 < n; k0 += T) {
        As[ty][tx] = row < n && k0 + tx < n ? A[size_t(row) * n + k0 + tx] : 0.0f;
        Bs[ty][tx] = k0 + ty < n && col < n ? B[size_t(k0 + ty) * n + col] : 0.0f;
        __syncthreads();  // the whole tile is loaded before anyone reads it
#pragma unroll
        for (int k = 0; k < T; ++k) sum += As[ty][k] * Bs[k][tx];
        __syncthreads();  // everyone is done with the tile before the next one overwrites it
    }
    if (row < n && col < n) C[size_t(row) * n + col] = sum;
}

namespace {

dim3 grid_for(int n, int tile) { return dim3(ceil_div(n, tile), ceil_div(n, tile)); }

void launch_naive(const float* A, const float* B, float* C, int n, int tile, Launcher& launch) {
    launch(naive_kernel, grid_for(n, tile), dim3(tile, tile), 0, A, B, C, n);
}

void launch_tiled(const float* A, const float* B, float* C, int n, int tile, Launcher& launch) {
    switch (tile) {
        case 8: launch(tiled_kernel<8>, grid_for(n, 8), dim3(8, 8), 0, A, B, C, n); break;
        case 16: launch(tiled_kernel<16>, grid_for(n, 16), dim3(16, 16), 0, A, B, C, n); break;
        case 32: launch(tiled_kernel<32>, grid_for(n, 32), dim3(32, 32), 0, A, B, C, n); break;
        default: throw LaunchRefused("the tiled kernel is compiled for tiles 8, 16 and 32 only");
    }
}

size_t matrix_bytes(int n) { return size_t(n) * n * sizeof(float); }

// A and B to the device, the kernel, C back: all on the stream, so the part's time holds them.
template <typename Multiply>
void with_copies(const CopyMatmul& p, Launcher& launch, Multiply multiply) {
    const size_t bytes = matrix_bytes(p.n);
    CUDA_CHECK(cudaMemcpyAsync(p.dA, p.hA, bytes, cudaMemcpyHostToDevice, launch.stream()));
    CUDA_CHECK(cudaMemcpyAsync(p.dB, p.hB, bytes, cudaMemcpyHostToDevice, launch.stream()));
    multiply();
    CUDA_CHECK(cudaMemcpyAsync(p.hC, p.dC, bytes, cudaMemcpyDeviceToHost, launch.stream()));
}

}  // namespace

void zc_naive(const GpuMatmul& m, int tile, Launcher& launch) { launch_naive(m.A, m.B, m.C, m.n, tile, launch); }
void zc_tiled(const GpuMatmul& m, int tile, Launcher& launch) { launch_tiled(m.A, m.B, m.C, m.n, tile, launch); }

void copy_naive(const CopyMatmul& p, int tile, Launcher& launch) {
    with_copies(p, launch, [&] { launch_naive(p.dA, p.dB, p.dC, p.n, tile, launch); });
}

void copy_tiled(const CopyMatmul& p, int tile, Launcher& launch) {
    with_copies(p, launch, [&] { launch_tiled(p.dA, p.dB, p.dC, p.n, tile, launch); });
}

void managed_tiled(const GpuMatmul& m, int tile, Launcher& launch) {
    int gpu = 0;
    CUDA_CHECK(cudaGetDevice(&gpu));
    const size_t bytes = matrix_bytes(m.n);
    cudaMemLocation device{}, host{};
    device.type = cudaMemLocationTypeDevice;
    device.id = gpu;
    host.type = cudaMemLocationTypeHost;
    // Whole matrices moved in bulk before the kernel, instead of page faults during it; C too,
    // so the kernel's stores do not fault its pages over one by one.
    CUDA_CHECK(cudaMemPrefetchAsync(m.A, bytes, device, 0, launch.stream()));
    CUDA_CHECK(cudaMemPrefetchAsync(m.B, bytes, device, 0, launch.stream()));
    CUDA_CHECK(cudaMemPrefetchAsync(m.C, bytes, device, 0, launch.stream()));
    launch_tiled(m.A, m.B, m.C, m.n, tile, launch);
    CUDA_CHECK(cudaMemPrefetchAsync(m.C, bytes, host, 0, launch.stream()));
}

// ---------------------------------------------------------------------------------
// Streaming: every byte crosses PCIe once, so the only question is how many bytes are in
// flight. 16-byte loads, four of them issued before the first store, and a grid of many blocks
// keep enough requests outstanding to cover the bus's latency.

constexpr int stream_unroll = 4;

__global__ void stream_kernel(const float4* __restrict__ src, float4* __restrict__ dst, size_t count4,
                              const float* __restrict__ src_tail, float* __restrict__ dst_tail, int tail) {
    const size_t stride = size_t(gridDim.x) * blockDim.x;
    size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < size_t(tail)) dst_tail[i] = src_tail[i];  // the last count % 4 floats
    for (; i + (stream_unroll - 1) * stride < count4; i += stream_unroll * stride) {
        float4 v[stream_unroll];
#pragma unroll
        for (int u = 0; u < stream_unroll; ++u) v[u] = src[i + u * stride];
#pragma unroll
        for (int u = 0; u < stream_unroll; ++u) dst[i + u * stride] = v[u];
    }
    for (; i < count4; i += stride) dst[i] = src[i];
}

void stream_mapped(const StreamCopy& p, Launcher& launch) {
    const size_t count4 = p.count / 4;
    const int tail = int(p.count % 4);
    const unsigned threads = 256;
    // Up to 4096 blocks (a million threads, 64 MiB of loads in flight per pass): far more than
    // the bus needs, few enough that each thread has several iterations to overlap.
    const size_t wanted = (count4 + threads - 1) / threads;
    const unsigned blocks = unsigned(wanted < 1 ? 1 : wanted > 4096 ? 4096 : wanted);
    launch(stream_kernel, dim3(blocks), dim3(threads), 0, reinterpret_cast<const float4*>(p.src),
           reinterpret_cast<float4*>(p.dst), count4, p.src + count4 * 4, p.dst + count4 * 4, tail);
}
