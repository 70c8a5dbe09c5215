#include "random_fill.hpp"

#include "cuda_check.hpp"
#include "random_data.hpp"

namespace {

constexpr unsigned threads = 256;

unsigned blocks_for(size_t count) {
    size_t blocks = (count + threads - 1) / threads;
    return unsigned(blocks < 65535 ? blocks : 65535);  // a grid-stride loop covers the rest
}

__global__ void uniform_kernel(float* dst, size_t pitch_bytes, size_t width, size_t height, uint64_t seed,
                               uint64_t offset, float lo, float hi) {
    const size_t count = width * height;
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count; i += size_t(gridDim.x) * blockDim.x) {
        size_t row = i / width, col = i % width;
        float* row_start = reinterpret_cast<float*>(reinterpret_cast<char*>(dst) + row * pitch_bytes);
        row_start[col] = uniform_from_bits(splitmix_at(seed, offset + i), lo, hi);
    }
}

__global__ void bits_kernel(uint32_t* dst, size_t count, uint64_t seed, uint64_t offset) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count; i += size_t(gridDim.x) * blockDim.x)
        dst[i] = uint32_t(splitmix_at(seed, offset + i) >> 32);
}

}  // namespace

void fill_uniform_pitched(float* dst, size_t pitch_bytes, size_t width, size_t height, uint64_t seed, uint64_t offset,
                          float lo, float hi, cudaStream_t stream) {
    if (width * height == 0) return;
    uniform_kernel<<<blocks_for(width * height), threads, 0, stream>>>(dst, pitch_bytes, width, height, seed, offset, lo, hi);
    CUDA_CHECK_LAUNCH();
}

void fill_uniform(float* dst, size_t count, uint64_t seed, uint64_t offset, float lo, float hi, cudaStream_t stream) {
    fill_uniform_pitched(dst, count * sizeof(float), count, 1, seed, offset, lo, hi, stream);
}

void fill_bits(uint32_t* dst, size_t count, uint64_t seed, uint64_t offset, cudaStream_t stream) {
    if (count == 0) return;
    bits_kernel<<<blocks_for(count), threads, 0, stream>>>(dst, count, seed, offset);
    CUDA_CHECK_LAUNCH();
}
