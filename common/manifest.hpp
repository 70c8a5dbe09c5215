// A lab's manifest (labs/<lab>/manifest): one `key = value` per line, '#' comment lines,
// blank lines ignored, keys unique. The format and every key are described in
// labs/MANIFEST.md; the shell reads the same file through mk/manifest.sh, this is the C++ reader.
#pragma once
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

struct ManifestError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Manifest {
public:
    static Manifest load(const std::string& path);          // throws ManifestError
    static Manifest parse(const std::string& text, const std::string& origin);

    bool has(const std::string& key) const { return values_.count(key) != 0; }
    // Throws ManifestError naming the file and the missing key.
    const std::string& get(const std::string& key) const;
    std::string get_or(const std::string& key, const std::string& fallback) const;
    double number(const std::string& key, double fallback) const;  // throws on a non-number
    std::vector<std::string> list(const std::string& key) const;   // whitespace-separated words
    // A case's setting, falling back to the lab-wide one: case.<name>.<key>, then <key>.
    std::string case_value(const std::string& case_name, const std::string& key,
                           const std::string& fallback) const;

    const std::map<std::string, std::string>& values() const { return values_; }
    const std::string& origin() const { return origin_; }

private:
    std::string origin_;
    std::map<std::string, std::string> values_;
};

std::vector<std::string> split_words(const std::string& text);
