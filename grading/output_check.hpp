// The checker: decides whether one output of a student's run matches the reference
// solution's output of the same case, outside the student's process. An element passes when
//     |student - reference| <= tolerance * 2 * bound
// where bound is the reference run's error bound for that element (labs/MANIFEST.md, "How
// correctness is decided"); NaN never passes. A missing, malformed or mis-sized file fails.
#pragma once
#include <string>
#include <vector>

#include "compare.hpp"
#include "result_files.hpp"

struct OutputVerdict {
    bool pass = false;
    std::string reason;            // one sentence, for a failure
    size_t checked = 0, bad = 0;
    std::vector<Mismatch> first;   // the first mismatches, in order
};

OutputVerdict compare_outputs(const OutputArray& student, const OutputArray& reference, double tolerance);

// The pieces of that rule, for a comparison at some positions only (output_sample.hpp): why two
// outputs' types or sizes differ ("" when they match), one element into a running comparison
// (keeping the first five mismatches), and the verdict, in words, of a whole comparison.
std::string shape_mismatch(DType student, size_t student_count, DType reference, size_t reference_count);
inline void compare_element(Comparison& c, size_t position, double got, double want, double allowed) {
    ++c.checked;
    if (within(got, want, allowed)) return;
    ++c.bad;
    if (c.first.size() < 5) c.first.push_back({position, got, want, allowed});
}
OutputVerdict verdict_of(const Comparison& c);

// Reads both files (the student's may be absent or hostile: read_output_array checks its
// size against its header before anything is allocated) and compares them.
OutputVerdict check_output_files(const std::string& student_path, const std::string& reference_path,
                                 double tolerance);

