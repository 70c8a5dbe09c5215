// Lab 0's CPU reference and its error bound, without a GPU: values worked by hand, the bound
// holding for every honest float evaluation (a product then a sum, a fused multiply-add, the
// double result rounded once) and failing for the usual mistakes, and what the lab declares.
#include <cmath>
#include <string>
#include <vector>

#include "catch.hpp"
#include "lab0.hpp"
#include "random_data.hpp"
#include "reference.hpp"
#include "reference/matmul_reference.hpp"

namespace {

const double gamma_2 = float_dot_gamma(2);

// How many z[i] lie outside the reference's bound (NaN counts as outside).
size_t outside(const std::vector<float>& z, const AxpyReference& r) {
    size_t count = 0;
    for (size_t i = 0; i < z.size(); ++i)
        if (!(std::fabs(double(z[i]) - r.value[i]) <= r.bound[i])) ++count;
    return count;
}

enum class Evaluation { product_then_sum, fused, rounded_once, no_y, x_shifted, first_half_only };

std::vector<float> evaluate(Evaluation how, float a, const std::vector<float>& x, const std::vector<float>& y) {
    const size_t n = x.size();
    std::vector<float> z(n);
    for (size_t i = 0; i < n; ++i) {
        volatile float product = a * x[i];  // volatile: rounded to float, never fused with the sum
        switch (how) {
            case Evaluation::product_then_sum: z[i] = product + y[i]; break;
            case Evaluation::fused: z[i] = std::fma(a, x[i], y[i]); break;
            case Evaluation::rounded_once: z[i] = float(double(a) * x[i] + y[i]); break;
            case Evaluation::no_y: z[i] = product; break;
            case Evaluation::x_shifted: z[i] = a * x[(i + 1) % n] + y[i]; break;
            case Evaluation::first_half_only: z[i] = i < n / 2 ? product + y[i] : std::nanf(""); break;
        }
    }
    return z;
}

}  // namespace

TEST_CASE("the axpy reference on values worked by hand") {
    const std::vector<float> x = {0.5f, -1, 0}, y = {0.25f, 0.5f, 0};
    AxpyReference r = axpy_reference(1.5f, x.data(), y.data(), 3);
    REQUIRE(r.value.size() == 3);
    CHECK(r.value[0] == 1.0);    // 1.5 * 0.5 + 0.25
    CHECK(r.value[1] == -1.0);   // 1.5 * -1 + 0.5
    CHECK(r.value[2] == 0.0);
    CHECK(r.bound[0] == Approx(gamma_2 * (0.75 + 0.25)).epsilon(1e-15));
    CHECK(r.bound[1] == Approx(gamma_2 * (1.5 + 0.5)).epsilon(1e-15));  // |a x| + |y|, not |a x + y|
    CHECK(r.bound[2] == 0.0);  // an exact zero must be exactly zero
}

TEST_CASE("the bound holds for every honest float evaluation and catches the usual mistakes") {
    const size_t n = 200000;
    for (float a : {1.5f, -3.25f, 1e-3f, 1000.f}) {
        INFO("a = " << a);
        const std::vector<float> x = random_floats(n, 5), y = random_floats(n, 6);
        AxpyReference r = axpy_reference(a, x.data(), y.data(), n);
        CHECK(outside(evaluate(Evaluation::product_then_sum, a, x, y), r) == 0);
        CHECK(outside(evaluate(Evaluation::fused, a, x, y), r) == 0);
        CHECK(outside(evaluate(Evaluation::rounded_once, a, x, y), r) == 0);
        CHECK(outside(evaluate(Evaluation::no_y, a, x, y), r) > n / 2);
        CHECK(outside(evaluate(Evaluation::x_shifted, a, x, y), r) > n / 2);
        CHECK(outside(evaluate(Evaluation::first_half_only, a, x, y), r) == n - n / 2);  // a grid that stops early
    }
}

TEST_CASE("the bound is tight: a product then a sum can use most of it") {
    // Where both roundings go the same way the error comes within a small factor of
    // gamma_2 (|a x| + |y|): a bound of u or of the fused form's u |a x + y| would fail honest
    // code. Find the largest error over many draws, relative to the bound.
    const size_t n = 1000000;
    const float a = 1.1f;
    const std::vector<float> x = random_floats(n, 9), y = random_floats(n, 10);
    AxpyReference r = axpy_reference(a, x.data(), y.data(), n);
    const std::vector<float> z = evaluate(Evaluation::product_then_sum, a, x, y);
    double worst = 0;
    for (size_t i = 0; i < n; ++i)
        if (r.bound[i] > 0) worst = std::max(worst, std::fabs(double(z[i]) - r.value[i]) / r.bound[i]);
    CHECK(worst <= 1.0);
    CHECK(worst > 0.25);
}

TEST_CASE("the lab declares the manifest's two parts, in GB/s against a copy kernel") {
    LabInfo lab = lab0();
    CHECK(lab.parts == std::vector<std::string>{"one_per_thread", "grid_stride"});
    REQUIRE(lab.metrics.size() == 1);
    CHECK(lab.metrics[0].csv_name == "gbps");
    REQUIRE(lab.yardsticks.size() == 1);
    CHECK(lab.yardsticks[0].name == "copy");
}
