// The CPU reference of lab 0 and the error bound that decides what "correct" means.
//
// z_i = a x_i + y_i in float is a product and a sum, each rounded to the nearest float with a
// relative error of at most u = 2^-24, or one fused multiply-add (what nvcc emits for
// a * x[i] + y[i]), rounded once. Either way (Higham, Accuracy and Stability of Numerical
// Algorithms, 3.1):
//     fl(fl(a x) + y) = (a x (1 + d1) + y)(1 + d2),  |d1|, |d2| <= u
// differs from a x + y by at most |a x| (2u + u^2) + |y| u <= gamma_2 (|a x_i| + |y_i|), with
// gamma_k = k u / (1 - k u); the fused form by at most u |a x + y|, less. So the bound is
// gamma_2 (|a x_i| + |y_i|): any honest float evaluation lies within it, and a kernel that
// reads the wrong element, forgets y, or leaves an element unwritten (NaN) misses it.
//
// The reference is computed in double, whose own error is a billion times smaller.
#pragma once
#include <cstddef>
#include <vector>

struct AxpyReference {
    std::vector<double> value;  // a x_i + y_i, to double precision
    std::vector<double> bound;  // gamma_2 (|a x_i| + |y_i|)
};

AxpyReference axpy_reference(float a, const float* x, const float* y, size_t n);

// The driver's way in (common/reference_hook.hpp), so that the grader's builds for submissions
// can leave this file out.
using AxpyReferenceFunction = AxpyReference(float a, const float* x, const float* y, size_t n);
