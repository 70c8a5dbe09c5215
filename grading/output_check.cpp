#include "output_check.hpp"
#include "table.hpp"

#include <sys/stat.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace {

}  // namespace

std::string shape_mismatch(DType student, size_t student_count, DType reference, size_t reference_count) {
    if (student != reference)
        return std::string("the output holds ") + dtype_name(student) + " values, expected " + dtype_name(reference);
    if (student_count != reference_count)
        return "the output has " + std::to_string(student_count) + " values, expected " + std::to_string(reference_count);
    if (reference_count == 0) return "the reference output is empty: nothing to compare";
    return "";
}

OutputVerdict verdict_of(const Comparison& c) {
    OutputVerdict v;
    if (c.checked == 0) {
        v.reason = "the reference output bounds no element: nothing to compare";
        return v;
    }
    v.checked = c.checked;
    v.bad = c.bad;
    v.first = c.first;
    v.pass = c.ok();
    if (!v.pass) {
        const Mismatch& m = c.first.front();
        v.reason = std::to_string(c.bad) + " of " + std::to_string(c.checked) + " values wrong; the first: [" +
                   std::to_string(m.position) + "] = " + format_general(m.got, 9) + ", expected " + format_general(m.want, 9) +
                   " (allowed error " + format_general(m.allowed, 9) + ")";
    }
    return v;
}

// One pass, no copies: a lab 2 output has 25 million elements, and a grading run compares
// thousands of them.
OutputVerdict compare_outputs(const OutputArray& student, const OutputArray& reference, double tolerance) {
    OutputVerdict v;
    v.reason = shape_mismatch(student.dtype, student.values.size(), reference.dtype, reference.values.size());
    if (!v.reason.empty()) return v;
    // A sampled reference (the grader's reference of a checked timed run) bounds only the
    // elements it computed, NaN elsewhere: those alone are compared.
    Comparison c;
    const bool bounded = !reference.bound.empty();
    for (size_t i = 0; i < reference.values.size(); ++i) {
        if (bounded && std::isnan(reference.bound[i])) continue;
        compare_element(c, i, student.values[i], reference.values[i], bounded ? tolerance * 2 * reference.bound[i] : 0.0);
    }
    return verdict_of(c);
}

OutputVerdict check_output_files(const std::string& student_path, const std::string& reference_path,
                                 double tolerance) {
    OutputArray reference = read_output_array(reference_path);  // trusted: errors are the grader's
    OutputVerdict v;
    OutputArray student;
    try {
        student = read_output_array(student_path);
    } catch (const FormatError& e) {
        struct stat info {};
        v.reason = stat(student_path.c_str(), &info) != 0 ? "no output was written"
                                                          : std::string("the output file is malformed: ") + e.what();
        return v;
    }
    return compare_outputs(student, reference, tolerance);
}
