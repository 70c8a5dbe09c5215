// The performance curve of labs/MANIFEST.md: full, none, and linear in log(ratio) between.
#include <cmath>

#include "catch.hpp"
#include "perf_curve.hpp"

TEST_CASE("the curve gives full points up to full_ratio and none from zero_ratio", "[grading][curve]") {
    CHECK(perf_fraction(0.5, 1.2, 10) == 1);  // faster than the reference
    CHECK(perf_fraction(1.0, 1.2, 10) == 1);
    CHECK(perf_fraction(1.2, 1.2, 10) == 1);
    CHECK(perf_fraction(10, 1.2, 10) == 0);
    CHECK(perf_fraction(50, 1.2, 10) == 0);
}

TEST_CASE("between the two the curve is linear in log(ratio)", "[grading][curve]") {
    double middle = std::sqrt(1.2 * 10);  // the geometric mean: halfway in log
    CHECK(std::fabs(perf_fraction(middle, 1.2, 10) - 0.5) < 1e-12);
    CHECK(std::fabs(perf_fraction(2, 1, 4) - 0.5) < 1e-12);
    CHECK(perf_fraction(2.5, 1.2, 10) > perf_fraction(3, 1.2, 10));
}

TEST_CASE("a time that is not a positive number earns nothing", "[grading][curve]") {
    CHECK(perf_fraction(NAN, 1.2, 10) == 0);
    CHECK(perf_fraction(INFINITY, 1.2, 10) == 0);
    CHECK(perf_fraction(0, 1.2, 10) == 0);
    CHECK(perf_fraction(-1, 1.2, 10) == 0);
}
