// `make limits`: the launch limits of this machine's GPU, the limits the CUDA C++ Programming Guide lists per compute capability.
#include <cstdio>

#include "gpu.hpp"
#include "host_info.hpp"

int main() {
    print_gpu_limits(require_gpu(0));
    // The machine's CPU too: a sweep's head records it (mk/sweep.sh), for the labs' CPU rows.
    std::printf("  Host CPU                                 %s\n", cpu_model_name().c_str());
    return 0;
}
