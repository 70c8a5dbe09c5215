#include "output_sample.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "atomic_file.hpp"
#include "random_data.hpp"

OutputSample sample_output(const OutputArray& reference, size_t at_most, uint64_t seed) {
    OutputSample sample;
    sample.dtype = reference.dtype;
    sample.size = reference.values.size();
    std::vector<uint64_t> bounded;
    for (size_t i = 0; i < reference.values.size(); ++i)
        if (i < reference.bound.size() && !std::isnan(reference.bound[i])) bounded.push_back(i);
    // The first at_most of a seeded shuffle (Fisher-Yates, stopped early), then in order.
    SeededRandom random(seed);
    size_t keep = std::min(at_most, bounded.size());
    for (size_t i = 0; i < keep; ++i) std::swap(bounded[i], bounded[i + random.next() % (bounded.size() - i)]);
    bounded.resize(keep);
    std::sort(bounded.begin(), bounded.end());
    for (uint64_t p : bounded) {
        sample.positions.push_back(p);
        sample.values.push_back(reference.values[p]);
        sample.bounds.push_back(reference.bound[p]);
    }
    return sample;
}

void write_output_sample(const std::string& path, const OutputSample& sample) {
    AtomicFile file(path);
    file.stream() << "labsample 1 " << dtype_name(sample.dtype) << " " << sample.positions.size() << " " << sample.size
                  << "\n";
    for (size_t i = 0; i < sample.positions.size(); ++i) {
        uint64_t p = sample.positions[i];
        file.stream().write(reinterpret_cast<const char*>(&p), 8);
        file.stream().write(reinterpret_cast<const char*>(&sample.values[i]), 8);
        file.stream().write(reinterpret_cast<const char*>(&sample.bounds[i]), 8);
    }
    file.commit();
}

OutputSample read_output_sample(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw FormatError("missing sampled reference " + path);
    std::string header;
    std::getline(in, header);
    std::istringstream words(header);
    std::string magic, version, dtype;
    uint64_t count = 0;
    OutputSample sample;
    if (!(words >> magic >> version >> dtype >> count >> sample.size) || magic != "labsample" || version != "1")
        throw FormatError(path + " is not a sampled reference");
    bool known = false;
    for (DType t : {DType::f32, DType::f64, DType::i32, DType::u32})
        if (dtype == dtype_name(t)) sample.dtype = t, known = true;
    if (!known || count > sample.size) throw FormatError(path + ": a bad header");
    for (uint64_t i = 0; i < count; ++i) {
        uint64_t p = 0;
        double value = 0, bound = 0;
        in.read(reinterpret_cast<char*>(&p), 8);
        in.read(reinterpret_cast<char*>(&value), 8);
        in.read(reinterpret_cast<char*>(&bound), 8);
        if (!in || p >= sample.size) throw FormatError(path + " is truncated or names a position outside the output");
        sample.positions.push_back(p);
        sample.values.push_back(value);
        sample.bounds.push_back(bound);
    }
    return sample;
}

OutputVerdict compare_with_sample(const OutputArray& student, const OutputSample& reference, double tolerance) {
    OutputVerdict v;
    v.reason = shape_mismatch(student.dtype, student.values.size(), reference.dtype, reference.size);
    if (!v.reason.empty()) return v;
    Comparison c;
    for (size_t i = 0; i < reference.positions.size(); ++i) {
        uint64_t p = reference.positions[i];
        compare_element(c, p, student.values[p], reference.values[i], tolerance * 2 * reference.bounds[i]);
    }
    return verdict_of(c);
}

OutputVerdict check_output_against_sample(const std::string& student_path, const std::string& sample_path,
                                          double tolerance) {
    OutputSample reference = read_output_sample(sample_path);  // trusted: errors are the grader's
    OutputArray student;
    try {
        student = read_output_array(student_path);
    } catch (const FormatError& e) {
        struct stat info {};
        OutputVerdict v;
        v.reason = stat(student_path.c_str(), &info) != 0 ? "no output was written"
                                                          : std::string("the output file is malformed: ") + e.what();
        return v;
    }
    return compare_with_sample(student, reference, tolerance);
}
