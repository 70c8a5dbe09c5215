// What the host is, for tables that time work on the CPU beside the GPU (a CPU yardstick must
// say which CPU it ran on) and for drivers that must refuse data too large for its memory.
#pragma once
#include <cstddef>
#include <string>

// The CPU's model as /proc/cpuinfo names it ("model name", else "Model" or "Hardware", as ARM
// kernels spell it), followed by the number of logical CPUs: "AMD EPYC 9654 96-Core Processor
// (192 logical CPUs)". Where the file says nothing: "an unnamed CPU (N logical CPUs)".
std::string cpu_model_name();
// The model line of a /proc/cpuinfo text ("" when it has none): the part of cpu_model_name()
// that can be tested on any machine.
std::string cpu_model_from_cpuinfo(const std::string& cpuinfo);
// Bytes of physical memory of this machine (sysconf); 0 when it cannot be told.
size_t physical_memory_bytes();
