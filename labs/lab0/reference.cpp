#include "reference.hpp"

#include <cmath>

#include "reference/matmul_reference.hpp"  // float_dot_gamma: gamma_k for float
#include "reference_hook.hpp"

AxpyReference axpy_reference(float a, const float* x, const float* y, size_t n) {
    const double gamma = float_dot_gamma(2);
    AxpyReference r;
    r.value.resize(n);
    r.bound.resize(n);
    for (size_t i = 0; i < n; ++i) {
        const double product = double(a) * x[i];  // exact: 24 + 24 bits fit in a double's 53
        r.value[i] = product + y[i];
        r.bound[i] = gamma * (std::fabs(product) + std::fabs(double(y[i])));
    }
    return r;
}

namespace {

const ReferenceHook<AxpyReferenceFunction>::Install install_axpy(&axpy_reference);

}  // namespace
