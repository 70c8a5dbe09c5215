// The one way a student's code launches a kernel:
//
//     launch(my_kernel, grid, block, dynamic_shared_bytes, arg1, arg2, ...);
//
// instead of my_kernel<<<grid, block, dynamic_shared_bytes>>>(arg1, arg2, ...).
// The launcher checks the configuration against this GPU's limits first (and refuses it
// with the limit's name and value), opts in to more than 48 KB of dynamic shared memory
// when a kernel asks for it, turns a failed launch into LaunchRefused with the runtime's
// reason, and records every launch (its configuration), so the driver can tell an
// unfinished part (no launch) from a finished one and show what a part launched.
//
// A part that overlaps work on several streams asks the launcher for them (side_stream) and
// launches there with `launch.on(stream)(my_kernel, grid, block, bytes, args...)`. The driver
// times every part on CUDA's legacy default stream, which waits for all work on every other
// blocking stream (these, cudaStreamPerThread, the default stream): whatever a part starts is
// inside its time, wherever it put it.
#pragma once
#include <cuda_runtime.h>

#include <string>
#include <utility>
#include <vector>

#include "cuda_check.hpp"
#include "launch_limits.hpp"

class Launcher {
public:
    Launcher(const cudaDeviceProp& gpu, cudaStream_t stream) : gpu_(gpu), stream_(stream) {}
    ~Launcher() {
        for (cudaStream_t s : side_streams_) cudaStreamDestroy(s);  // fails harmlessly after a fault
    }
    Launcher(const Launcher&) = delete;
    Launcher& operator=(const Launcher&) = delete;

#ifdef __CUDACC__  // host-only files (the tests, compiled by g++) hold and pass launchers
    template <typename... Params, typename... Args>
    void operator()(void (*kernel)(Params...), dim3 grid, dim3 block, size_t dynamic_shared_bytes,
                    Args&&... args) {
        launch_on(stream_, kernel, grid, block, dynamic_shared_bytes, std::forward<Args>(args)...);
    }

    // launch.on(stream)(kernel, grid, block, bytes, args...): the same launch on one of the
    // launcher's streams (stream() or a side_stream()).
    struct On {
        Launcher& launcher;
        cudaStream_t stream;
        template <typename... Params, typename... Args>
        void operator()(void (*kernel)(Params...), dim3 grid, dim3 block, size_t dynamic_shared_bytes, Args&&... args) {
            launcher.launch_on(stream, kernel, grid, block, dynamic_shared_bytes, std::forward<Args>(args)...);
        }
    };
    On on(cudaStream_t stream) {
        bool ours = stream == stream_;
        for (cudaStream_t s : side_streams_) ours |= s == stream;
        if (!ours) throw LaunchRefused("launch.on() takes the launcher's own streams: launch.stream() or launch.side_stream(i)");
        return On{*this, stream};
    }

    template <typename... Params, typename... Args>
    void launch_on(cudaStream_t stream, void (*kernel)(Params...), dim3 grid, dim3 block, size_t dynamic_shared_bytes,
                   Args&&... args) {
        LaunchConfig config{grid, block, dynamic_shared_bytes};
        prepare(reinterpret_cast<const void*>(kernel), config);
        kernel<<<grid, block, dynamic_shared_bytes, stream>>>(std::forward<Args>(args)...);
        cudaError_t err = cudaGetLastError();
        if (is_sticky_cuda_error(err)) CUDA_CHECK(err);  // an earlier kernel faulted: the context is lost
        if (err != cudaSuccess) throw LaunchRefused("the launch failed: " + describe_cuda_error(err));
        launches_.push_back(config);
    }
#endif

    // Work a part did on the host (a CPU part of a lab): it counts as done, like a launch.
    void note_host_work() { launches_.push_back(LaunchConfig{dim3(0, 0, 0), dim3(0, 0, 0), 0}); }

    // Every launch since the last forget_launches(), in order.
    const std::vector<LaunchConfig>& launches() const { return launches_; }
    void forget_launches() { launches_.clear(); }
    cudaStream_t stream() const { return stream_; }
    // The i-th extra stream of the part (from 0; at most 8), made on first use. It is a blocking
    // stream: the driver's legacy-stream timing waits for it.
    cudaStream_t side_stream(int i) {
        if (i < 0 || i >= 8) throw LaunchRefused("side_stream(" + std::to_string(i) + "): a part has side streams 0 to 7");
        while (int(side_streams_.size()) <= i) {
            cudaStream_t s = nullptr;
            CUDA_CHECK(cudaStreamCreate(&s));
            side_streams_.push_back(s);
        }
        return side_streams_[i];
    }

private:
    struct Checked {
        const void* kernel;
        LaunchConfig config;
    };

    // Checks once per kernel and configuration: the timed loop must not pay for it.
    void prepare(const void* kernel, const LaunchConfig& c) {
        for (const Checked& seen : checked_)
            if (seen.kernel == kernel && same(seen.config, c)) return;
        cudaFuncAttributes attributes{};
        CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
        KernelResources resources{attributes.numRegs, attributes.sharedSizeBytes,
                                  attributes.maxThreadsPerBlock};
        if (check_launch_limits(gpu_, resources, c))
            CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            int(c.dynamic_shared_bytes)));
        checked_.push_back({kernel, c});
    }

    static bool same(const LaunchConfig& a, const LaunchConfig& b) {
        return a.grid.x == b.grid.x && a.grid.y == b.grid.y && a.grid.z == b.grid.z &&
               a.block.x == b.block.x && a.block.y == b.block.y && a.block.z == b.block.z &&
               a.dynamic_shared_bytes == b.dynamic_shared_bytes;
    }

    const cudaDeviceProp& gpu_;
    cudaStream_t stream_;
    std::vector<LaunchConfig> launches_;
    std::vector<Checked> checked_;
    std::vector<cudaStream_t> side_streams_;
};

inline unsigned ceil_div(unsigned a, unsigned b) { return (a + b - 1) / b; }
