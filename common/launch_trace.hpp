// Every launch of the process, however it is spelled: CUPTI's callback API on the runtime's and
// the driver's launch entry points (cudaLaunchKernel and its variants, which `<<< >>>` calls,
// cudaLaunchCooperativeKernel, cudaLaunchHostFunc, cudaGraphLaunch, cuLaunchKernel, cuLaunchGrid,
// cuGraphLaunch, ...: every callback whose name holds "Launch"). The Launcher (launcher.cuh)
// records the launches made through it; this sees the others too, so the driver can tell that a
// CPU part launched anything, or a GPU part launched a kernel around its launcher.
//
// CUPTI (libcupti.so) is loaded at run time, not linked: a toolkit may not ship it (Debian's and
// Ubuntu's packages put it in a package of its own). Without it, `make labN` runs as before, and
// nothing is traced; the grader passes --launch-trace required, which makes a missing CUPTI an
// error. Under compute-sanitizer (the process's parent is the tool's) nothing is traced either:
// the tool holds CUPTI, and a sanitizer's run is scored on the tool's findings alone. Under
// another tool that holds CUPTI (Nsight Compute, `make labN-profile`), `auto` runs untraced and
// `required` stops.
//
// A launch the trusted driver makes itself (poisoning an output, loading a run's inputs) is
// made inside a TrustedLaunches scope on its thread and is not counted; every other launch, on
// any thread, is.
#pragma once
#include <cstdint>
#include <string>

enum class LaunchTraceMode { off, automatic, required };

// Parses "off", "auto" or "required"; false for anything else.
bool parse_launch_trace_mode(const std::string& text, LaunchTraceMode& mode);

// Launches counted so far, by kind (an API call each: a graph launch may run many kernels).
struct LaunchCounts {
    uint64_t kernels = 0;         // kernel launches, graph launches included
    uint64_t host_functions = 0;  // cudaLaunchHostFunc, cuLaunchHostFunc: host code on a stream
    uint64_t total() const { return kernels + host_functions; }
};

// Starts the trace once for the process (later calls return what the first decided). With
// `required`, a trace that cannot start stops the program (exit_code::io_error) with the reason.
// Returns whether launches are being counted.
bool start_launch_trace(LaunchTraceMode mode);
// Why the trace is not running ("" when it is).
const std::string& launch_trace_off_reason();

// Every launch counted since the process started the trace (all zero without a trace).
LaunchCounts counted_launches();

// While one lives on a thread, that thread's launches are the trusted driver's own.
class TrustedLaunches {
public:
    TrustedLaunches();
    ~TrustedLaunches();
    TrustedLaunches(const TrustedLaunches&) = delete;
    TrustedLaunches& operator=(const TrustedLaunches&) = delete;
};
