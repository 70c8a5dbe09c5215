#include "checked_positions.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

std::string checked_positions_file(const std::string& case_name, const std::string& part) {
    return case_name + "/positions/" + part + ".positions";
}

std::optional<CheckedPositions> read_checked_positions(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::string header;
    std::getline(in, header);
    std::istringstream words(header);
    std::string magic, version;
    uint64_t count = 0;
    CheckedPositions kept;
    if (!(words >> magic >> version >> count >> kept.size) || magic != "labpositions" || version != "1" || count > kept.size)
        throw std::runtime_error(path + " is not a file of checked positions");
    kept.positions.resize(count);
    if (!in.read(reinterpret_cast<char*>(kept.positions.data()), std::streamsize(count * 8)) ||
        in.peek() != std::char_traits<char>::eof())
        throw std::runtime_error(path + " does not hold the positions its header announces");
    for (size_t i = 0; i < count; ++i)
        if (kept.positions[i] >= kept.size || (i > 0 && kept.positions[i] <= kept.positions[i - 1]))
            throw std::runtime_error(path + ": position " + std::to_string(i) + " is out of place");
    return kept;
}

CheckedPositions keep_checked_positions(const std::string& path, const CheckedPositions& drawn) {
    namespace fs = std::filesystem;
    if (std::optional<CheckedPositions> kept = read_checked_positions(path)) return *kept;
    std::error_code error;
    fs::create_directories(fs::path(path).parent_path(), error);
    // Written aside under a name of its own, then linked into place, which fails where another
    // reference run of the part linked its own first: the first drawn stay.
    std::string aside = path + ".XXXXXX";
    const int fd = mkstemp(aside.data());
    if (fd < 0) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
    close(fd);
    {
        std::ofstream out(aside, std::ios::binary | std::ios::trunc);
        out << "labpositions 1 " << drawn.positions.size() << " " << drawn.size << "\n";
        out.write(reinterpret_cast<const char*>(drawn.positions.data()), std::streamsize(drawn.positions.size() * 8));
        if (!out.flush()) {
            fs::remove(aside, error);
            throw std::runtime_error("cannot write " + aside);
        }
    }
    const bool linked = link(aside.c_str(), path.c_str()) == 0 || errno == EEXIST;
    fs::remove(aside, error);
    if (!linked) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
    return *read_checked_positions(path);
}

CheckedPositions positions_of(const OutputSample& sample) { return {sample.size, sample.positions}; }

OutputSample sample_at(const OutputArray& reference, const CheckedPositions& positions) {
    if (reference.values.size() != positions.size)
        throw std::runtime_error("the reference output has " + std::to_string(reference.values.size()) +
                                 " elements, where its positions were drawn among " + std::to_string(positions.size));
    OutputSample sample;
    sample.dtype = reference.dtype;
    sample.size = positions.size;
    for (uint64_t p : positions.positions) {
        // The reference's sampled check bounds the same elements on every run's inputs: one it
        // left out now means the grader's assumption broke, which must not pass silently.
        if (p >= reference.bound.size() || std::isnan(reference.bound[p]))
            throw std::runtime_error("the reference output bounds no value at position " + std::to_string(p) +
                                     ", one of those its kept runs are compared at");
        sample.positions.push_back(p);
        sample.values.push_back(reference.values[p]);
        sample.bounds.push_back(reference.bound[p]);
    }
    return sample;
}

bool reduce_kept_output(const std::string& path, const CheckedPositions& positions) {
    struct stat info {};
    if (stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return false;
    OutputArray whole;
    try {
        whole = read_output_array(path);
    } catch (const FormatError&) {
        return false;  // its verdict says it is malformed, whole or not
    }
    if (whole.values.size() != positions.size) return false;  // its verdict names the sizes
    if (sparse_output_bytes(whole.dtype, positions.size, positions.positions.size()) >= uint64_t(info.st_size)) return false;
    std::vector<double> values;
    values.reserve(positions.positions.size());
    for (uint64_t p : positions.positions) values.push_back(whole.values[p]);
    write_sparse_output(path, whole.dtype, positions.size, positions.positions, values);
    return true;
}
