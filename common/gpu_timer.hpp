// Timing GPU work with CUDA events: warm-up runs first (module load, clock ramp, caches),
// then many timed repetitions, each between its own pair of events, and the median. The
// driver records the events on CUDA's legacy default stream, which waits for every other
// blocking stream: work a part puts elsewhere (cudaStreamPerThread, a side stream) is timed.
// Every wait has a deadline, so a kernel that never ends stops the program with a clear
// message instead of hanging a student's terminal or a grading run.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cuda_check.hpp"
#include "run_schedule.hpp"
#include "stream_hold.hpp"

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

// `prepare(index)` puts what must precede run `index` but not be timed (its inputs, its poisoned
// output) on `stream` before the run's start event; `enqueue()` puts one run on it (it must not
// synchronise). After each timed run the stream is waited for, and `ended(index)` is called with
// the GPU idle, before anything of the next run is put on it: the driver decides there whether
// that run's output is kept for the check (kept_runs.hpp), when no code of the part can run.
// Each timed run then starts from an idle GPU: a short hold (stream_hold.hpp), the last thing
// before its start event, keeps the GPU busy while the event and the run's launches are queued,
// so no gap of the host's is timed.
template <typename Prepare, typename Enqueue, typename Ended>
GpuTiming time_on_gpu(Prepare&& prepare, Enqueue&& enqueue, Ended&& ended, cudaStream_t stream,
                      const RunSchedule& schedule, double limit_seconds) {
    GpuTiming timing;
    for (int i = 0; i < schedule.warmup; ++i) {
        prepare(schedule.warmup_index(i));
        enqueue();
    }
    timing.error = wait_with_deadline(stream, limit_seconds);
    if (timing.error != cudaSuccess) return timing;

    std::vector<cudaEvent_t> marks(2 * size_t(schedule.reps));
    for (cudaEvent_t& e : marks) CUDA_CHECK(cudaEventCreate(&e));
    for (int i = 0; i < schedule.reps && timing.error == cudaSuccess; ++i) {
        uint64_t index = schedule.timed_index(i);
        prepare(index);
        hold_stream(stream, timed_run_hold_us);
        CUDA_CHECK(cudaEventRecord(marks[2 * i], stream));
        enqueue();
        CUDA_CHECK(cudaEventRecord(marks[2 * i + 1], stream));
        timing.error = wait_with_deadline(stream, limit_seconds);
        if (timing.error == cudaSuccess) ended(index);
    }
    if (timing.error == cudaSuccess) {
        for (int i = 0; i < schedule.reps; ++i) {
            float ms = 0;
            CUDA_CHECK(cudaEventElapsedTime(&ms, marks[2 * i], marks[2 * i + 1]));
            timing.ms.push_back(ms);
        }
    }
    if (!is_fatal_wait_error(timing.error))
        for (cudaEvent_t& e : marks) CUDA_CHECK(cudaEventDestroy(e));
    return timing;
}
