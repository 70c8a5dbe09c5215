// Timing GPU work with CUDA events: warm-up runs first (module load, clock ramp, caches),
// then many timed repetitions, each between its own pair of events, and the median.
// Every wait has a deadline, so a kernel that never ends stops the program with a clear
// message instead of hanging a student's terminal or a grading run.
#pragma once
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "cuda_check.hpp"

// Waits until `stream` is idle. Returns the stream's error, if any (a faulted kernel), or
// cudaErrorTimeout if it is still busy after `limit_seconds`. After either, the process
// must end: the context is lost, or a kernel is still running in it.
cudaError_t wait_with_deadline(cudaStream_t stream, double limit_seconds);
inline bool is_fatal_wait_error(cudaError_t err) { return err == cudaErrorTimeout || is_sticky_cuda_error(err); }
// What to tell a student about a kernel that faulted or timed out.
std::string explain_kernel_failure(cudaError_t err, double limit_seconds);

struct GpuTiming {
    std::vector<double> ms;  // one entry per timed repetition
    cudaError_t error = cudaSuccess;
};

// `enqueue` puts one run of the work on `stream` (it must not synchronise); `before_each`
// puts what must precede every run but not be timed (restoring an input that a part
// overwrites in place) before the run's start event. Warm-up runs are prepared the same way.
template <typename Enqueue, typename Prepare>
GpuTiming time_on_gpu(Enqueue&& enqueue, Prepare&& before_each, cudaStream_t stream, int warmup, int reps,
                      double limit_seconds) {
    GpuTiming timing;
    for (int i = 0; i < warmup; ++i) {
        before_each();
        enqueue();
    }
    timing.error = wait_with_deadline(stream, limit_seconds);
    if (timing.error != cudaSuccess) return timing;

    std::vector<cudaEvent_t> marks(2 * reps);
    for (cudaEvent_t& e : marks) CUDA_CHECK(cudaEventCreate(&e));
    for (int i = 0; i < reps; ++i) {
        before_each();
        CUDA_CHECK(cudaEventRecord(marks[2 * i], stream));
        enqueue();
        CUDA_CHECK(cudaEventRecord(marks[2 * i + 1], stream));
    }
    timing.error = wait_with_deadline(stream, limit_seconds);
    if (timing.error == cudaSuccess) {
        for (int i = 0; i < reps; ++i) {
            float ms = 0;
            CUDA_CHECK(cudaEventElapsedTime(&ms, marks[2 * i], marks[2 * i + 1]));
            timing.ms.push_back(ms);
        }
    }
    if (!is_fatal_wait_error(timing.error))
        for (cudaEvent_t& e : marks) CUDA_CHECK(cudaEventDestroy(e));
    return timing;
}
