// `make limits`: the launch limits of this machine's GPU, the way seed 000 lists them.
#include "gpu.hpp"

int main() {
    print_gpu_limits(require_gpu(0));
    return 0;
}
