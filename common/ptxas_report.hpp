// What each kernel of a source needs on one architecture, read without a GPU from the two files
// the compiler makes on the way: the PTX (nvcc -ptx), which says whether a kernel declares
// __launch_bounds__ and whether it uses dynamic shared memory, and ptxas's report of compiling
// that PTX (ptxas -v), which gives its registers, static shared memory, stack frame and spills.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

struct CompiledKernel {
    std::string symbol;                 // as the PTX names it (mangled)
    std::string name;                   // kernel_name(symbol): "dynamic_kernel<32>"
    int registers = 0;                  // per thread
    std::size_t static_shared_bytes = 0;
    int stack_frame_bytes = 0;          // local memory per thread: spills and local arrays
    int spill_store_bytes = 0, spill_load_bytes = 0;
    int launch_bound = 0;               // __launch_bounds__'s threads per block (.maxntid), 0 when none
    bool uses_dynamic_shared = false;   // reaches an `extern __shared__` array
};

struct PtxasReportError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Every kernel (.entry) of `ptx`, with what `ptxas_report` (ptxas -v's messages on compiling that
// PTX) says of it, in the PTX's order. Throws PtxasReportError when the report lacks a kernel of
// the PTX (it is not the report of this PTX).
std::vector<CompiledKernel> read_compiled_kernels(const std::string& ptx, const std::string& ptxas_report);

// A kernel's name as its source spells it, from its mangled symbol: no return type, no parameter
// list, no "(anonymous namespace)::"; template arguments kept ("regblock_kernel<true>").
std::string kernel_name(const std::string& symbol);
