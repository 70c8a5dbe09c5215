// Lab 0 as the shared driver core sees it (common/lab_case.hpp): its driver's main() and its
// GPU tests run the same lab.
#pragma once
#include "lab_case.hpp"

// The largest n the driver takes: 2^26 floats (256 MiB) an array.
constexpr long long max_axpy_n = 1ll << 26;

LabInfo lab0();
