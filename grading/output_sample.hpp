// The reference of a checked timed run, kept small. A student's driver hands in the outputs of
// two timed runs chosen at random (common/part_loop.cpp); grade.sh makes the reference solution's
// output for each such run once and keeps only a sample of it: the values and error bounds at
// most `at_most` positions among those the reference bounded, drawn from the grading run's
// secret sample seed, so a class's worth of them stays a few megabytes. The student's whole
// output is compared at those positions, which its program never learns.
//
// File: the text line "labsample 1 <dtype> <count> <size>", then <count> records of a u64
// position, the f64 value and the f64 bound there, little-endian.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "output_check.hpp"
#include "result_files.hpp"

struct OutputSample {
    DType dtype = DType::f64;
    uint64_t size = 0;  // elements of the whole output
    std::vector<uint64_t> positions;
    std::vector<double> values, bounds;
};

// At most `at_most` of the elements `reference` bounds (a NaN bound: not computed), in order.
OutputSample sample_output(const OutputArray& reference, size_t at_most, uint64_t seed);
void write_output_sample(const std::string& path, const OutputSample& sample);  // atomically; throws
OutputSample read_output_sample(const std::string& path);                       // throws FormatError

// The student's output against the sample: the same rule as check_output_files at each position.
OutputVerdict compare_with_sample(const OutputArray& student, const OutputSample& reference, double tolerance);
OutputVerdict check_output_against_sample(const std::string& student_path, const std::string& sample_path,
                                          double tolerance);
