#include "output_check.hpp"

#include <sys/stat.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace {

std::string number_text(double v) {
    char text[64];
    std::snprintf(text, sizeof text, "%.9g", v);
    return text;
}

}  // namespace

OutputVerdict compare_outputs(const OutputArray& student, const OutputArray& reference, double tolerance) {
    OutputVerdict v;
    if (student.dtype != reference.dtype) {
        v.reason = std::string("the output holds ") + dtype_name(student.dtype) + " values, expected " +
                   dtype_name(reference.dtype);
        return v;
    }
    if (student.values.size() != reference.values.size()) {
        v.reason = "the output has " + std::to_string(student.values.size()) + " values, expected " +
                   std::to_string(reference.values.size());
        return v;
    }
    if (reference.values.empty()) {
        v.reason = "the reference output is empty: nothing to compare";
        return v;
    }
    // A sampled reference (the grader's reference of a checked timed run) bounds only the
    // elements it computed, NaN elsewhere: those alone are compared.
    std::vector<size_t> compared;
    for (size_t i = 0; i < reference.values.size(); ++i)
        if (reference.bound.empty() || !std::isnan(reference.bound[i])) compared.push_back(i);
    if (compared.empty()) {
        v.reason = "the reference output bounds no element: nothing to compare";
        return v;
    }
    std::vector<double> got, want, allowed;
    for (size_t i : compared) {
        got.push_back(student.values[i]);
        want.push_back(reference.values[i]);
        allowed.push_back(reference.bound.empty() ? 0.0 : tolerance * 2 * reference.bound[i]);
    }
    Comparison c = compare_values(got.data(), want.data(), allowed.data(), got.size(), 5);
    for (Mismatch& m : c.first) m.position = compared[m.position];
    v.checked = c.checked;
    v.bad = c.bad;
    v.first = c.first;
    v.pass = c.ok();
    if (!v.pass) {
        const Mismatch& m = c.first.front();
        v.reason = std::to_string(c.bad) + " of " + std::to_string(c.checked) + " values wrong; the first: [" +
                   std::to_string(m.position) + "] = " + number_text(m.got) + ", expected " + number_text(m.want) +
                   " (allowed error " + number_text(m.allowed) + ")";
    }
    return v;
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
