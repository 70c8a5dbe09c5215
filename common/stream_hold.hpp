// A few microseconds of nothing on a stream, between a timed run's untimed preparation and its
// start event, so that the GPU is still busy when the event and the run's first launch arrive.
// Every timed run starts from an idle GPU (the driver waits for each to end before it decides
// whether to keep its output: common/kept_runs.hpp); without this, a preparation that ends
// before the host has recorded the event and launched would leave that gap inside the run's time.
#pragma once
#include <cuda_runtime.h>

// One thread spinning on the GPU's global timer for `microseconds`, on `stream`.
void hold_stream(cudaStream_t stream, unsigned microseconds);

// The hold before every timed run: longer than recording an event and a launch or two take
// on the host (a few microseconds each), short beside the preparation before it.
constexpr unsigned timed_run_hold_us = 20;
