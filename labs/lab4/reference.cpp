#include "reference.hpp"

#include <algorithm>
#include <cmath>

#include "parallel_ranges.hpp"
#include "random_data.hpp"
#include "reference/matmul_reference.hpp"  // float_dot_gamma (gamma_k)
#include "reference_hook.hpp"
#include "sample_positions.hpp"

namespace {

// B[i] and its bound, in double.
void stencil_at(const float* A, size_t i, double& value, double& bound) {
    double sum = 0, magnitude = 0;
    for (int k = 0; k < 5; ++k) {
        const double a = A[i + k], term = double(stencil_coefficients[k]) * a * a;
        sum += term;
        magnitude += std::fabs(term);
    }
    value = sum / stencil_divisor;
    bound = float_dot_gamma(stencil_roundings) * magnitude / stencil_divisor;
}

void convolution_at(const float* image, int width, int height, const float* filter, int radius, int row, int col,
                    double gamma, double& value, double& bound) {
    const int side = 2 * radius + 1;
    double sum = 0, magnitude = 0;
    for (int ik = -radius; ik <= radius; ++ik) {
        const int y = row + ik;
        if (y < 0 || y >= height) continue;
        for (int jk = -radius; jk <= radius; ++jk) {
            const int x = col + jk;
            if (x < 0 || x >= width) continue;
            const double product = double(image[size_t(y) * width + x]) * filter[(ik + radius) * side + jk + radius];
            sum += product;
            magnitude += std::fabs(product);
        }
    }
    value = sum;
    bound = gamma * magnitude;
}

}  // namespace

Lab4Reference stencil_reference(const float* A, int n) {
    Lab4Reference r;
    r.value.resize(size_t(n));
    r.bound.resize(size_t(n));
    for (size_t i = 0; i < size_t(n); ++i) stencil_at(A, i, r.value[i], r.bound[i]);
    return r;
}

Lab4Reference stencil_reference_at(const float* A, int n, const std::vector<size_t>& positions) {
    (void)n;
    Lab4Reference r;
    r.value.resize(positions.size());
    r.bound.resize(positions.size());
    for (size_t p = 0; p < positions.size(); ++p) stencil_at(A, positions[p], r.value[p], r.bound[p]);
    return r;
}

Lab4Reference convolution_reference(const float* image, int width, int height, const float* filter, int radius) {
    Lab4Reference r;
    const size_t count = size_t(width) * height;
    r.value.resize(count);
    r.bound.resize(count);
    const double gamma = float_dot_gamma((2 * radius + 1) * (2 * radius + 1));
    const double work_per_row = double(width) * (2 * radius + 1) * (2 * radius + 1);
    parallel_ranges(size_t(height), items_per_range(work_per_row), [&](size_t first_row, size_t end_row) {
        for (int row = int(first_row); row < int(end_row); ++row)
            for (int col = 0; col < width; ++col) {
                const size_t at = size_t(row) * width + col;
                convolution_at(image, width, height, filter, radius, row, col, gamma, r.value[at], r.bound[at]);
            }
    });
    return r;
}

Lab4Reference convolution_reference_at(const float* image, int width, int height, const float* filter, int radius,
                                       const std::vector<size_t>& positions) {
    Lab4Reference r;
    r.value.resize(positions.size());
    r.bound.resize(positions.size());
    const double gamma = float_dot_gamma((2 * radius + 1) * (2 * radius + 1));
    for (size_t p = 0; p < positions.size(); ++p)
        convolution_at(image, width, height, filter, radius, int(positions[p] / width), int(positions[p] % width), gamma,
                       r.value[p], r.bound[p]);
    return r;
}

float max_reference(const float* values, size_t count) { return *std::max_element(values, values + count); }

namespace {

Lab4Reference stencil_for_driver(const float* A, int n, bool full, unsigned long long seed,
                                 std::vector<size_t>& positions) {
    positions.clear();
    if (full) return stencil_reference(A, n);
    // The ends, where a tile's halo or the tail goes wrong, and a random sample between.
    const size_t count = size_t(n), ends = std::min<size_t>(count, 1024);
    for (size_t i = 0; i < ends; ++i) positions.push_back(i), positions.push_back(count - 1 - i);
    SeededRandom random(seed);
    for (int s = 0; s < 4096; ++s) positions.push_back(size_t(random.integer(0, int64_t(count) - 1)));
    std::sort(positions.begin(), positions.end());
    positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
    return stencil_reference_at(A, n, positions);
}

Lab4Reference convolution_for_driver(const float* image, int width, int height, const float* filter, int radius,
                                     bool full, unsigned long long seed, std::vector<size_t>& positions) {
    if (full) {
        positions.clear();
        return convolution_reference(image, width, height, filter, radius);
    }
    positions = sample_positions(height, width, 4096, seed);
    return convolution_reference_at(image, width, height, filter, radius, positions);
}

const ReferenceHook<StencilReferenceFunction>::Install install_stencil(&stencil_for_driver);
const ReferenceHook<ConvolutionReferenceFunction>::Install install_convolution(&convolution_for_driver);
const ReferenceHook<MaxReferenceFunction>::Install install_max(&max_reference);

}  // namespace
