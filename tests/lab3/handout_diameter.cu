#include "handout_diameter.hpp"

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "floyd.h"
#include "launcher.cuh"

namespace {

// As the handout describes it (section 3.6, floyd.cu TODO 4): one element a thread, blockDim.x
// threads a block, one partial maximum a block. Written here, not taken from the solution,
// whose grid-stride pass launches fewer blocks than this.
__global__ void handout_diameter_pass(const int* dist, size_t count, int* partial) {
    extern __shared__ int values[];
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    values[threadIdx.x] = i < count && dist[i] < FW_INF ? dist[i] : 0;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) values[threadIdx.x] = max(values[threadIdx.x], values[threadIdx.x + s]);
        __syncthreads();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = values[0];
}

}  // namespace

std::vector<int> run_handout_diameter_pass(const std::vector<int>& dist, size_t threads, size_t capacity, size_t guard,
                                           const cudaDeviceProp& prop, cudaStream_t stream) {
    Launcher launch(prop, stream);
    if (dist.empty()) {  // only asks the launcher about the block
        launch(handout_diameter_pass, dim3(1), dim3(unsigned(threads)), 0, static_cast<const int*>(nullptr), size_t(0),
               static_cast<int*>(nullptr));
        return {};
    }
    DeviceBuffer<int> d(dist.size());
    d.upload(dist);
    DeviceBuffer<int> partial(capacity + guard);
    partial.fill_bytes(0x5A, stream);
    const size_t blocks = (dist.size() + threads - 1) / threads;
    launch(handout_diameter_pass, dim3(unsigned(blocks)), dim3(unsigned(threads)), threads * sizeof(int), d.get(), dist.size(),
           partial.get());
    CUDA_CHECK(cudaStreamSynchronize(stream));
    return partial.download();
}
