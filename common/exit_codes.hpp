// Exit codes shared by every lab driver, so make, the tests and the grader can tell
// "your kernel is wrong" from "your command line is wrong" from "this machine has no GPU".
#pragma once

namespace exit_code {
constexpr int ok = 0;
constexpr int wrong_result = 1;     // a rung ran but its output failed verification
constexpr int bad_usage = 2;        // bad argument, or a launch refused by a hardware limit
constexpr int no_gpu = 3;           // no usable CUDA device
constexpr int kernel_crashed = 4;   // a kernel faulted; the CUDA context is lost
constexpr int kernel_timeout = 5;   // a kernel ran past the time limit (endless loop?)
constexpr int io_error = 6;         // a file could not be read or written
// The GPU had too little free memory for the case. Not the program's fault where others share
// the GPU: the grader runs such a run again with the GPU to itself (grading/lib/runs.sh).
constexpr int gpu_short = 7;
// How the driver's message for it ends (require_device_memory, common/lab_case.cpp). Under
// compute-sanitizer the tool's exit status replaces the driver's, so the grader looks for this
// in the tool's log instead (grading/sanitizer_log.hpp).
constexpr const char* gpu_short_advice = "MiB free: choose smaller sizes, or wait for the GPU's other programs to end";
}  // namespace exit_code
