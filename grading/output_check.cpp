#include "output_check.hpp"

#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace {

std::string number_text(double v) {
    char text[64];
    std::snprintf(text, sizeof text, "%.9g", v);
    return text;
}

const char* dtype_text(DType t) {
    switch (t) {
        case DType::f32: return "f32";
        case DType::f64: return "f64";
        case DType::i32: return "i32";
        case DType::u32: return "u32";
    }
    return "?";
}

}  // namespace

void check_output_size(const std::string& path) {
    struct stat info {};
    if (stat(path.c_str(), &info) != 0) throw FormatError("missing output file " + path);
    if (!S_ISREG(info.st_mode)) throw FormatError(path + " is not a regular file");
    std::ifstream in(path, std::ios::binary);
    std::string header;
    std::getline(in, header);
    std::istringstream fields(header);
    std::string magic, version, dtype;
    unsigned long long count = 0;
    int has_bound = 0;
    if (!(fields >> magic >> version >> dtype >> count >> has_bound) || magic != "labout")
        throw FormatError(path + ": not a lab output file (bad header)");
    unsigned long long width = dtype == "f64" ? 8 : 4;
    unsigned long long expected = header.size() + 1 + count * width + (has_bound ? count * 8 : 0);
    if (count > (1ull << 31) || static_cast<unsigned long long>(info.st_size) != expected)
        throw FormatError(path + ": its size does not match its header (" + std::to_string(count) + " values)");
}

OutputVerdict compare_outputs(const OutputArray& student, const OutputArray& reference, double tolerance) {
    OutputVerdict v;
    if (student.dtype != reference.dtype) {
        v.reason = std::string("the output holds ") + dtype_text(student.dtype) + " values, expected " +
                   dtype_text(reference.dtype);
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
    std::vector<double> allowed(reference.values.size(), 0.0);
    if (!reference.bound.empty())
        for (size_t i = 0; i < allowed.size(); ++i) allowed[i] = tolerance * 2 * reference.bound[i];
    Comparison c = compare_values(student.values.data(), reference.values.data(), allowed.data(),
                                  student.values.size(), 5);
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
        check_output_size(student_path);
        student = read_output_array(student_path);
    } catch (const FormatError& e) {
        struct stat info {};
        v.reason = stat(student_path.c_str(), &info) != 0 ? "no output was written"
                                                          : std::string("the output file is malformed: ") + e.what();
        return v;
    }
    return compare_outputs(student, reference, tolerance);
}
