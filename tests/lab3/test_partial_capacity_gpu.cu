// Lab 3's partial buffer, on a GPU: the driver gives the diameter ceil(n * n / (block * block))
// ints of partial maxima (diameter_partial_capacity, lab3.hpp). A diameter written as the
// handout describes it (one element a thread, block x block threads a block, one partial a
// block) must fit, at every --block the driver accepts: a kernel of that shape, written here,
// runs at each one into a buffer of exactly that size followed by a guard it must not touch.
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "catch.hpp"
#include "device_buffer.hpp"
#include "floyd.h"
#include "fw_reference.hpp"
#include "gpu_fixture.hpp"
#include "lab3.hpp"
#include "launcher.cuh"

namespace {

// The diameter's first pass as the handout describes it (section 3.6, floyd.cu TODO 4): one
// element a thread, blockDim.x threads a block, one partial maximum a block. Written here, not
// taken from the solution, whose grid-stride pass launches fewer blocks than this.
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

TEST_CASE("the partial buffer holds a diameter written as the handout says, at every --block the driver accepts",
          "[gpu][lab3]") {
    const int max_threads = gpu().info.prop.maxThreadsPerBlock;
    for (long long block = 1; block <= 4096; ++block) {
        if (!lab3_block_accepted(block)) continue;
        const size_t threads = size_t(block) * size_t(block);
        if (threads > size_t(max_threads)) {
            // The launcher refuses such a block for every part: nothing writes the buffer. (A plain
            // try, not CHECK_THROWS_AS: nvcc with Catch2 3's macro around this launch ran for more
            // than ten minutes on an H100 machine without finishing.)
            Launcher launch(gpu().info.prop, gpu().stream);
            bool refused = false;
            try {
                launch(handout_diameter_pass, dim3(1), dim3(unsigned(threads)), 0, static_cast<const int*>(nullptr), size_t(0),
                       static_cast<int*>(nullptr));
            } catch (const LaunchRefused&) {
                refused = true;
            }
            INFO("--block " << block);
            CHECK(refused);
            continue;
        }
        for (int n : {1, 2, 3, 37, 70, 131}) {
            INFO("n " << n << ", --block " << block);
            const size_t count = size_t(n) * n, capacity = diameter_partial_capacity(n, int(block));
            std::vector<int> dist(count);
            for (size_t i = 0; i < count; ++i) dist[i] = i % 7 == 3 ? FW_INF : int(i % 1000);
            DeviceBuffer<int> d(count);
            d.upload(dist);
            // The partial maxima, then a guard the pass must leave alone.
            const size_t guard = 1024;
            DeviceBuffer<int> partial(capacity + guard);
            partial.fill_bytes(0x5A, gpu().stream);
            const size_t blocks = (count + threads - 1) / threads;
            Launcher launch(gpu().info.prop, gpu().stream);
            launch(handout_diameter_pass, dim3(unsigned(blocks)), dim3(unsigned(threads)), threads * sizeof(int), d.get(),
                   count, partial.get());
            REQUIRE(cudaStreamSynchronize(gpu().stream) == cudaSuccess);
            std::vector<int> got = partial.download();
            int untouched = 0x5A5A5A5A, wrote_past = 0, best = 0;
            for (size_t i = capacity; i < got.size(); ++i) wrote_past += got[i] != untouched;
            for (size_t i = 0; i < blocks; ++i) best = std::max(best, got[i]);
            CHECK(blocks <= capacity);
            CHECK(wrote_past == 0);
            CHECK(best == diameter_cpu(dist.data(), count));
        }
    }
}

