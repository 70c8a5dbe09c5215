// Lab 4's CPU references and error bounds, without a GPU: values computed by hand, the border
// rule, the bounds holding for honest float evaluations and failing for the student report's mistakes,
// the samples, and what the lab declares to the driver core.
#include <cmath>
#include <string>
#include <vector>

#include "catch.hpp"
#include "lab4.hpp"
#include "random_data.hpp"
#include "reference.hpp"
#include "reference/matmul_reference.hpp"
#include "reference_hook.hpp"
#include "stencil.h"

namespace {

const double gamma_stencil = float_dot_gamma(stencil_roundings);

// A float evaluation of the stencil with the coefficients, offsets and power given: the honest
// one (squares) and the student report's mistakes.
// power 0 means x * x; otherwise std::pow(x, power) in float (powf).
std::vector<float> stencil_float(const std::vector<float>& A, int n, int offset = 0, float power = 0, int terms = 5) {
    std::vector<float> B(n);
    for (int i = 0; i < n; ++i) {
        float sum = 0;
        for (int k = 0; k < terms; ++k) {
            const float a = A[i + k + offset];
            sum += stencil_coefficients[k] * (power == 0 ? a * a : std::pow(a, power));
        }
        B[i] = sum * (1.f / 24.f);  // the float 1/24, rounded, then the product: two roundings
    }
    return B;
}

// The stencil in float with every square as the worst powf(x, 2) that CUDA's documentation
// allows: 4 ulp away from x * x (the float nearest x^2, itself within half an ulp), each moved
// the way that pushes its term, and so B[i], away from the exact value; the rest is the
// honest float arithmetic of stencil_float. `direction` +1 pushes B up, -1 down.
std::vector<float> stencil_worst_powf(const std::vector<float>& A, int n, int direction) {
    std::vector<float> B(n);
    for (int i = 0; i < n; ++i) {
        float sum = 0;
        for (int k = 0; k < 5; ++k) {
            const float a = A[i + k], c = stencil_coefficients[k];
            float square = a * a;
            const float away = (c > 0) == (direction > 0) ? INFINITY : 0.f;
            for (int ulp = 0; ulp < 4; ++ulp) square = std::nextafter(square, away);
            sum += c * square;
        }
        B[i] = sum * (1.f / 24.f);
    }
    return B;
}

// Values whose squares lie just above a power of two, where an ulp is largest against the
// value (2u |y|): a, with a^2 = 2^e (1 + small), for e from -20 to 0.
std::vector<float> just_above_powers_of_two(int count, uint64_t seed) {
    const std::vector<float> r = random_floats(size_t(count), seed);
    std::vector<float> A(r.size());
    for (int i = 0; i < count; ++i) {
        const int e = -(i % 21);
        const double y = std::ldexp(1.0, e) * (1 + 1e-6 * std::fabs(r[i]));
        A[i] = float(std::sqrt(y)) * (r[i] < 0 ? -1.f : 1.f);
    }
    return A;
}

// How many elements of `got` lie outside the reference's bound.
size_t outside(const std::vector<float>& got, const Lab4Reference& r) {
    size_t bad = 0;
    for (size_t i = 0; i < got.size(); ++i)
        if (!(std::fabs(double(got[i]) - r.value[i]) <= r.bound[i])) ++bad;
    return bad;
}

// A float convolution in the order of the course slides' loop; flip = true reverses the filter (a
// convolution in the textbook sense, which is not what the lab computes).
std::vector<float> convolution_float(const std::vector<float>& in, int width, int height, const std::vector<float>& f,
                                     int r, bool flip = false) {
    const int side = 2 * r + 1;
    std::vector<float> out(in.size());
    for (int i = 0; i < height; ++i)
        for (int j = 0; j < width; ++j) {
            float tmp = 0;
            for (int ik = -r; ik <= r; ++ik)
                for (int jk = -r; jk <= r; ++jk) {
                    const int y = i + ik, x = j + jk;
                    if (y < 0 || y >= height || x < 0 || x >= width) continue;
                    const int a = flip ? r - ik : ik + r, b = flip ? r - jk : jk + r;
                    tmp += in[size_t(y) * width + x] * f[a * side + b];
                }
            out[size_t(i) * width + j] = tmp;
        }
    return out;
}

}  // namespace

TEST_CASE("the stencil reference on values worked by hand") {
    const std::vector<float> A = {1, 2, 3, 4, 5, 6};
    Lab4Reference r = stencil_reference(A.data(), 2);
    REQUIRE(r.value.size() == 2);
    // B[0] = (1 + 2*4 + 9 - 3*16 + 5*25) / 24, B[1] = (4 + 2*9 + 16 - 3*25 + 5*36) / 24
    CHECK(r.value[0] == Approx(95.0 / 24).epsilon(1e-15));
    CHECK(r.value[1] == Approx(143.0 / 24).epsilon(1e-15));
    // The bound weighs every term by |c_k|: the -3 counts as 3.
    CHECK(r.bound[0] == Approx(gamma_stencil * (1 + 8 + 9 + 48 + 125) / 24.0).epsilon(1e-12));
    CHECK(r.bound[1] == Approx(gamma_stencil * (4 + 18 + 16 + 75 + 180) / 24.0).epsilon(1e-12));
}

TEST_CASE("B[i] reads A[i .. i+4]: n outputs from n + 4 inputs, mixed signs allowed") {
    const std::vector<float> A = {0, 0, 0, 1, 0};  // only A[3], with coefficient -3
    Lab4Reference r = stencil_reference(A.data(), 1);
    CHECK(r.value[0] == Approx(-3.0 / 24));
    const std::vector<float> zeros(9, 0.f);
    Lab4Reference z = stencil_reference(zeros.data(), 5);
    for (double b : z.bound) CHECK(b == 0);  // an exact zero must be exactly zero
}

TEST_CASE("the stencil bound holds for float evaluations and catches the student report's mistakes") {
    const int n = 100000;
    std::vector<float> A = random_floats(n + 4, 77);
    Lab4Reference r = stencil_reference(A.data(), n);
    CHECK(outside(stencil_float(A, n), r) == 0);
    CHECK(outside(stencil_in_float(A), r) == 0);  // the driver's own B for the max part
    CHECK(outside(stencil_float(A, n, 0, 2), r) == 0);  // powf(x, 2), as a student might
    // Fifth powers (the student report's global kernel), B read one element off, a term dropped.
    CHECK(outside(stencil_float(A, n, 0, 5), r) > n / 2);
    CHECK(outside(stencil_float(A, n, 1), r) > n / 2);
    CHECK(outside(stencil_float(A, n, 0, 0, 4), r) > n / 2);
}

TEST_CASE("a correct stencil with the worst powf CUDA documents (4 ulp a square) passes the bound") {
    // 4 ulp of y is up to 8u |y|: the count of section 8 of the handout (8 + 1 + 4 + 2 = 15,
    // gamma_16). The reference solution's B (x * x) lies within the bound too, so the grader's
    // |student - reference| <= 2 x bound follows with tolerance 1.
    REQUIRE(stencil_roundings >= 15);
    const int n = 100000;
    for (uint64_t seed : {7, 8}) {
        const std::vector<float> random_A = random_floats(n + 4, seed), edge_A = just_above_powers_of_two(n + 4, seed);
        for (const std::vector<float>* A : {&random_A, &edge_A}) {
            Lab4Reference r = stencil_reference(A->data(), n);
            const std::vector<float> honest = stencil_float(*A, n);
            for (int direction : {+1, -1}) {
                const std::vector<float> worst = stencil_worst_powf(*A, n, direction);
                INFO("seed " << seed << (A == &edge_A ? ", squares just above powers of two" : ", uniform inputs")
                             << ", direction " << direction);
                CHECK(outside(worst, r) == 0);
                // The test has teeth: had powf been counted as one rounding, as x * x is (8 in all,
                // gamma_8), this correct stencil would fail.
                if (A == &edge_A) {
                    Lab4Reference x_times_x = r;
                    for (double& b : x_times_x.bound) b *= float_dot_gamma(8) / float_dot_gamma(stencil_roundings);
                    CHECK(outside(worst, x_times_x) > 0);
                }
                // What the grader compares: the student's output against the reference run's.
                size_t beyond_tolerance = 0;
                for (int i = 0; i < n; ++i)
                    beyond_tolerance += !(std::fabs(double(worst[i]) - double(honest[i])) <= 2 * r.bound[i]);
                CHECK(beyond_tolerance == 0);
            }
        }
    }
}

TEST_CASE("the convolution reference: the slides' loop, zero padding, the filter not flipped") {
    const std::vector<float> image = {1, 2, 3, 4, 5, 6, 7, 8, 9};  // 3 x 3, row-major
    std::vector<float> ones(9, 1.f);
    Lab4Reference sum = convolution_reference(image.data(), 3, 3, ones.data(), 1);
    CHECK(sum.value[4] == 45);                  // the centre sees the whole image
    CHECK(sum.value[0] == 1 + 2 + 4 + 5);       // a corner: five of its nine taps are padding
    CHECK(sum.value[5] == 2 + 3 + 5 + 6 + 8 + 9);
    CHECK(sum.bound[4] == Approx(float_dot_gamma(9) * 45));

    std::vector<float> corner(9, 0.f);
    corner[0] = 1;  // filter[0][0]: ik = jk = -1, so out[i][j] = in[i-1][j-1]
    Lab4Reference shifted = convolution_reference(image.data(), 3, 3, corner.data(), 1);
    CHECK(shifted.value == std::vector<double>{0, 0, 0, 0, 1, 2, 0, 4, 5});

    const float f0 = 0.5f;  // radius 0: a scaling, bound gamma_1
    Lab4Reference scaled = convolution_reference(image.data(), 3, 3, &f0, 0);
    CHECK(scaled.value[8] == 4.5);
    CHECK(scaled.bound[8] == Approx(float_dot_gamma(1) * 4.5));
}

TEST_CASE("the convolution's rows, shared among the CPUs, are each pixel's own sum") {
    const int width = 301, height = 97, r = 8, side = 2 * r + 1;  // 86,989 taps a row: several threads
    std::vector<float> image = random_floats(size_t(width) * height, 3), filter = random_floats(side * side, 4);
    Lab4Reference full = convolution_reference(image.data(), width, height, filter.data(), r);
    std::vector<size_t> every(size_t(width) * height);
    for (size_t p = 0; p < every.size(); ++p) every[p] = p;
    Lab4Reference one_by_one = convolution_reference_at(image.data(), width, height, filter.data(), r, every);
    CHECK(full.value == one_by_one.value);
    CHECK(full.bound == one_by_one.bound);
}

TEST_CASE("a filter wider than the image, and images of one row or one column") {
    const int r = 8, side = 2 * r + 1;
    std::vector<float> filter = random_floats(side * side, 5);
    const float pixel = 0.75f;
    Lab4Reference one = convolution_reference(&pixel, 1, 1, filter.data(), r);
    CHECK(one.value[0] == Approx(double(pixel) * filter[r * side + r]));

    std::vector<float> row = random_floats(40, 6);
    Lab4Reference as_row = convolution_reference(row.data(), 40, 1, filter.data(), r);
    Lab4Reference as_column = convolution_reference(row.data(), 1, 40, filter.data(), r);
    // A row only meets the filter's middle row, a column its middle column.
    for (int j : {0, 7, 39}) {
        double want_row = 0, want_column = 0;
        for (int k = -r; k <= r; ++k)
            if (j + k >= 0 && j + k < 40) {
                want_row += double(row[j + k]) * filter[r * side + k + r];
                want_column += double(row[j + k]) * filter[(k + r) * side + r];
            }
        CHECK(as_row.value[j] == Approx(want_row).margin(1e-12));
        CHECK(as_column.value[j] == Approx(want_column).margin(1e-12));
    }
}

TEST_CASE("the convolution bound holds for float loops at every radius and catches a flipped filter") {
    const int width = 61, height = 37;
    std::vector<float> image = random_floats(size_t(width) * height, 11);
    for (int r = 0; r <= max_radius; ++r) {
        const int side = 2 * r + 1;
        std::vector<float> filter = random_floats(side * side, 100 + r);
        Lab4Reference ref = convolution_reference(image.data(), width, height, filter.data(), r);
        INFO("radius " << r);
        CHECK(outside(convolution_float(image, width, height, filter, r), ref) == 0);
        if (r > 0) CHECK(outside(convolution_float(image, width, height, filter, r, true), ref) > image.size() / 2);
    }
}

TEST_CASE("the maximum is exact, and B may be all negative") {
    const std::vector<float> mixed = {-0.5f, 0.25f, -0.125f, 0.2500001f};
    CHECK(max_reference(mixed.data(), mixed.size()) == 0.2500001f);
    const std::vector<float> negative = {-0.5f, -0.0625f, -3.f};
    CHECK(max_reference(negative.data(), negative.size()) == -0.0625f);
    // The manifest's case `one`: n = 1 and seed 419 give a negative B[0], so a maximum that
    // starts at 0 fails there.
    SeededRandom random(419);
    std::vector<float> A(5);
    for (float& x : A) x = random.uniform(-1, 1);
    CHECK(stencil_in_float(A).at(0) < 0);
}

TEST_CASE("the driver's references: every element, or a sample that keeps the ends") {
    const int n = 20000;
    std::vector<float> A = random_floats(n + 4, 3);
    std::vector<size_t> positions;
    Lab4Reference full = ReferenceHook<StencilReferenceFunction>::get()(A.data(), n, true, 9, positions);
    CHECK(positions.empty());
    REQUIRE(full.value.size() == size_t(n));
    Lab4Reference sample = ReferenceHook<StencilReferenceFunction>::get()(A.data(), n, false, 9, positions);
    REQUIRE(positions.size() == sample.value.size());
    CHECK(positions.front() == 0);
    CHECK(positions.back() == size_t(n - 1));
    CHECK(positions.size() > 2048);
    for (size_t p = 0; p < positions.size(); ++p) {
        CHECK(sample.value[p] == full.value[positions[p]]);
        CHECK(sample.bound[p] == full.bound[positions[p]]);
    }

    const int width = 50, height = 30, r = 2;
    std::vector<float> image = random_floats(size_t(width) * height, 4), filter = random_floats(25, 8);
    Lab4Reference all = ReferenceHook<ConvolutionReferenceFunction>::get()(image.data(), width, height, filter.data(),
                                                                           r, true, 1, positions);
    CHECK(positions.empty());
    Lab4Reference some = ReferenceHook<ConvolutionReferenceFunction>::get()(image.data(), width, height, filter.data(),
                                                                            r, false, 1, positions);
    REQUIRE(positions.size() == some.value.size());
    for (size_t p = 0; p < positions.size(); ++p) CHECK(some.value[p] == all.value[positions[p]]);
    const float values[] = {1.f, -2.f};
    CHECK(ReferenceHook<MaxReferenceFunction>::get()(values, 2) == 1.f);
}

TEST_CASE("the lab declares its parts in ladder order, GB/s, and a yardstick for each kind of part") {
    LabInfo lab = lab4();
    CHECK(lab.parts == std::vector<std::string>{"stencil_global", "stencil_shared", "max", "conv_global", "conv_shared"});
    REQUIRE(lab.metrics.size() == 1);
    CHECK(lab.metrics[0].csv_name == "gbps");
    CHECK(lab.metrics[0].bound == Metric::Bound::memory_bytes);
    std::vector<std::string> names;
    for (const LabInfo::Yardstick& y : lab.yardsticks) names.push_back(y.name);
    CHECK(names == std::vector<std::string>{"cpu", "launch", "copy", "memcpy", "copy_half", "copy_image"});
    CHECK(lab.needs_gpu);
}
