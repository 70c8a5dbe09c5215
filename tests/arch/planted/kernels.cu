// Planted kernels that tests/scripts/arch.sh runs the architecture check on: each of the first
// four would fail to launch, or leaves the check blind, on at least one architecture of the
// README's list, and the check must say which, with its numbers; the last two fit and must pass.
// What their launches ask for is in this folder's manifest, as a lab's is in its own.
// No header: the fixture compiles in a second.

// 72 KB of dynamic shared memory a block: Turing (sm_75) allows 64 KB, every later one more.
template <int R>
__global__ void conv_shared_kernel(const float* in, float* out, int n) {
    extern __shared__ float tile[];
    for (int i = threadIdx.x; i < 18 * 1024; i += blockDim.x) tile[i] = in[blockIdx.x * 18 * 1024 + i];
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tile[threadIdx.x] + tile[threadIdx.x + R];
}
template __global__ void conv_shared_kernel<8>(const float*, float*, int);

// 40 KB static and 32 KB dynamic: each fits alone, their sum (72 KB) does not fit sm_75.
__global__ void static_plus_dynamic_kernel(const float* in, float* out) {
    __shared__ float staged[10 * 1024];
    extern __shared__ float more[];
    staged[threadIdx.x] = in[threadIdx.x];
    more[threadIdx.x] = in[threadIdx.x + 1];
    __syncthreads();
    out[threadIdx.x] = staged[blockDim.x - 1 - threadIdx.x] + more[blockDim.x - 1 - threadIdx.x];
}

// More than 64 registers a thread and no __launch_bounds__: a block of 1024 threads, which
// nothing forbids a launch to ask for, needs more than the 64 K registers a block may have.
__global__ void many_registers_kernel(const float* in, float* out) {
    float acc[96];
#pragma unroll
    for (int i = 0; i < 96; ++i) acc[i] = in[threadIdx.x + i * 1024];
#pragma unroll
    for (int round = 0; round < 8; ++round)
#pragma unroll
        for (int i = 0; i < 96; ++i) acc[i] = acc[i] * acc[(i + 1) % 96] + acc[(i + 7) % 96];
#pragma unroll
    for (int i = 0; i < 96; ++i) out[threadIdx.x + i * 1024] = acc[i];
}

// Dynamic shared memory that the manifest does not list: the check cannot know how much it gets.
__global__ void unlisted_dynamic_kernel(float* out) {
    extern __shared__ float scratch[];
    scratch[threadIdx.x] = float(threadIdx.x);
    __syncthreads();
    out[threadIdx.x] = scratch[blockDim.x - 1 - threadIdx.x];
}

// Exactly the 64 KB sm_75 allows: it fits everywhere.
__global__ void exactly_64k_kernel(const float* in, float* out) {
    extern __shared__ float tile[];
    for (int i = threadIdx.x; i < 16 * 1024; i += blockDim.x) tile[i] = in[i];
    __syncthreads();
    out[threadIdx.x] = tile[16 * 1024 - 1 - threadIdx.x];
}

// The same registers as many_registers_kernel, but a bound of 256 threads says how it is launched.
__global__ void __launch_bounds__(256) bounded_registers_kernel(const float* in, float* out) {
    float acc[96];
#pragma unroll
    for (int i = 0; i < 96; ++i) acc[i] = in[threadIdx.x + i * 1024];
#pragma unroll
    for (int round = 0; round < 8; ++round)
#pragma unroll
        for (int i = 0; i < 96; ++i) acc[i] = acc[i] * acc[(i + 1) % 96] + acc[(i + 7) % 96];
#pragma unroll
    for (int i = 0; i < 96; ++i) out[threadIdx.x + i * 1024] = acc[i];
}
