// A temporary folder for a test, removed with everything in it when the test ends.
#pragma once
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>
#include <string>

#include "result_files.hpp"

class TempFolder {
public:
    TempFolder() {
        char pattern[] = "/tmp/grading-test-XXXXXX";
        path_ = mkdtemp(pattern);
    }
    ~TempFolder() { std::system(("rm -rf '" + path_ + "'").c_str()); }
    TempFolder(const TempFolder&) = delete;
    TempFolder& operator=(const TempFolder&) = delete;

    const std::string& path() const { return path_; }
    std::string operator/(const std::string& name) const { return path_ + "/" + name; }

    // Writes `text` to `name` (folders made as needed) and returns its path.
    std::string write(const std::string& name, const std::string& text) const {
        std::string full = path_ + "/" + name;
        std::system(("mkdir -p \"$(dirname '" + full + "')\"").c_str());
        std::ofstream(full, std::ios::binary) << text;
        return full;
    }

    std::string write_floats(const std::string& name, const std::vector<float>& values,
                             const std::vector<double>& bound = {}) const {
        write(name, "");
        std::string full = path_ + "/" + name;
        write_output_array(full, OutputArray{DType::f32, std::vector<double>(values.begin(), values.end()), bound});
        return full;
    }

private:
    std::string path_;
};

// The whole of a file, "" when it cannot be read.
inline std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}
