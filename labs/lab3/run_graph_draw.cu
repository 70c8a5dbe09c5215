// The matrices of run_graph.hpp on the GPU: one thread an entry (a grid-stride loop beyond the
// grid), each computing what the host twin (run_graph.cpp) computes there.
#include "cuda_check.hpp"
#include "run_graph.hpp"

namespace {

constexpr unsigned threads = 256;

unsigned blocks_for(size_t count) {
    size_t blocks = (count + threads - 1) / threads;
    return unsigned(blocks < 65535 ? blocks : 65535);
}

__global__ void draw_kernel(int* dst, PairDraws draws, uint64_t seed) {
    const size_t n = size_t(draws.n), count = n * n;
    for (size_t p = blockIdx.x * size_t(blockDim.x) + threadIdx.x; p < count; p += size_t(gridDim.x) * blockDim.x)
        dst[p] = drawn_entry(draws, seed, int(p / n), int(p % n));
}

__global__ void jitter_kernel(int* dst, const int* file_matrix, size_t count, WeightJitter jitter, uint64_t seed) {
    for (size_t p = blockIdx.x * size_t(blockDim.x) + threadIdx.x; p < count; p += size_t(gridDim.x) * blockDim.x)
        dst[p] = jittered_entry(file_matrix[p], jitter, seed, p);
}

}  // namespace

void draw_adjacency_on_gpu(int* dst, const PairDraws& draws, uint64_t seed, cudaStream_t stream) {
    draw_kernel<<<blocks_for(size_t(draws.n) * size_t(draws.n)), threads, 0, stream>>>(dst, draws, seed);
    CUDA_CHECK_LAUNCH();
}

void jitter_adjacency_on_gpu(int* dst, const int* file_matrix, size_t count, const WeightJitter& jitter, uint64_t seed,
                             cudaStream_t stream) {
    if (count == 0) return;
    jitter_kernel<<<blocks_for(count), threads, 0, stream>>>(dst, file_matrix, count, jitter, seed);
    CUDA_CHECK_LAUNCH();
}
