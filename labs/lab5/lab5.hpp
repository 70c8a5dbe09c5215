// Lab 5 as the shared driver core sees it (common/lab_case.hpp): its driver's main() and its
// GPU tests run the same lab, and the tests run the same parts.
#pragma once
#include <string>
#include <vector>

#include "lab_case.hpp"
#include "random_data.hpp"
#include "reduce.h"

struct ReducePart {
    const char* name;         // as in the manifest's `parts` and --part
    const char* book_kernel;  // its name in the textbook's ladder ("reduceNeighbored"); beyond it, a description
    bool in_place;            // the textbook's rungs overwrite their input
    void (*run)(const ReduceProblem&, Launcher&);
};

// The rungs, in ladder order: the driver runs them and the tests check them from this one list
// (common/part_table.hpp looks a rung up by name).
const std::vector<ReducePart>& reduce_parts();

// The largest n the driver takes (2^30: 8 GiB).
constexpr long long max_reduce_n = 1ll << 30;
// The input of a run: n doubles, uniform in +-[0.5, 1) with random signs, from `seed` (a run's
// own: the case's --seed for the checked run, one drawn for every other run, common/lab_case.hpp).
// Every value is a multiple of 2^-53, so it is exact as a double; its magnitude is at least 0.5,
// so a value dropped or counted twice moves the sum by more than the allowed error for n <= 2^25. Element i comes from the
// i-th draw of SeededRandom(seed) alone (splitmix_at), so the GPU draws it on its own.
RANDOM_HD inline double reduce_value(uint64_t bits) {
    double magnitude = 0.5 + double(bits >> 12) * 0x1p-53;  // [0.5, 1) on a grid of 2^-53: exact
    return (bits & 1) ? -magnitude : magnitude;
}
// On the host (the CPU reference) ...
std::vector<double> reduce_input(size_t n, uint64_t seed);
// ... and the same values on the GPU, into dst (n doubles), on `stream`: every run's input, in
// microseconds.
void draw_reduce_input(double* dst, size_t n, uint64_t seed, cudaStream_t stream);

LabInfo lab5();
