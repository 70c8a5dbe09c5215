// The positions at which a part's checked timed runs are compared on a case. They are drawn once
// per grading run, from its secret sample seed, among the elements the reference's sampled check
// bounds there (which depend on the case and that seed, never on a run's inputs). The first
// reference of the part's kept runs draws them: the reference's own check on fresh inputs,
// beside round 1, before any run is timed (reference.sh). They are kept under the reference
// folder, which no student's process sees, as <case>/positions/<part>.positions.
//
// Two readers take them:
//   - every later reference of the part's kept runs is sampled at them (keep_checked_run_samples);
//   - a student's kept run is reduced to them once its process has ended (grader check-outputs).
// Kept whole until its reference was made, beside round 3, a lab 2 student's kept runs took
// about 1.3 GB of disk: 200 such students would fill a 64 GB disk.
//
// File: the text line "labpositions 1 <count> <size>", then <count> u64 positions, ascending,
// each below <size> (the elements of the whole output), little-endian.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "output_sample.hpp"
#include "result_files.hpp"

struct CheckedPositions {
    uint64_t size = 0;                // elements of the whole output
    std::vector<uint64_t> positions;  // ascending
};

// "big/positions/tiled.positions", under the reference folder.
std::string checked_positions_file(const std::string& case_name, const std::string& part);

// The positions kept at `path`, or none yet. Throws std::runtime_error on a malformed file
// (the grader's own).
std::optional<CheckedPositions> read_checked_positions(const std::string& path);
// Keeps `drawn` at `path` unless positions are kept there already, and returns those kept: the
// first drawn stay, so that every sample of the part is taken at the same positions. Throws
// std::runtime_error.
CheckedPositions keep_checked_positions(const std::string& path, const CheckedPositions& drawn);

// The positions of a sample (output_sample.hpp), and the reference's output sampled at
// `positions`: throws std::runtime_error when it has another size, or bounds one of them not.
CheckedPositions positions_of(const OutputSample& sample);
OutputSample sample_at(const OutputArray& reference, const CheckedPositions& positions);

// A student's kept output at `path` (untrusted) reduced, in place, to its elements at
// `positions`, written sparse (write_sparse_output): compared at those positions, the file gets
// the verdict the whole one got. False, leaving the file as it is, where the reduction could
// change a verdict or would save nothing: a file that is missing or malformed, one that does not
// hold `positions.size` elements (its verdict says why), one no larger than its reduction.
// Throws std::runtime_error when the reduction cannot be written.
bool reduce_kept_output(const std::string& path, const CheckedPositions& positions);
