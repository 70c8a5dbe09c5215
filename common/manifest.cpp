#include "manifest.hpp"

#include <fstream>
#include <sstream>

namespace {

std::string trim(const std::string& s) {
    size_t begin = s.find_first_not_of(" \t\r");
    if (begin == std::string::npos) return "";
    size_t end = s.find_last_not_of(" \t\r");
    return s.substr(begin, end - begin + 1);
}

bool valid_key(const std::string& key) {
    if (key.empty()) return false;
    for (char c : key)
        if (!(isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-')) return false;
    return true;
}

}  // namespace

std::vector<std::string> split_words(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> words;
    for (std::string w; in >> w;) words.push_back(w);
    return words;
}

Manifest Manifest::load(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw ManifestError("cannot read manifest " + path);
    std::stringstream text;
    text << in.rdbuf();
    return parse(text.str(), path);
}

Manifest Manifest::parse(const std::string& text, const std::string& origin) {
    Manifest m;
    m.origin_ = origin;
    std::istringstream in(text);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        std::string content = trim(line);
        if (content.empty() || content[0] == '#') continue;
        size_t eq = content.find('=');
        std::string where = origin + ":" + std::to_string(number) + ": ";
        if (eq == std::string::npos) throw ManifestError(where + "expected `key = value`, got: " + content);
        std::string key = trim(content.substr(0, eq));
        if (!valid_key(key)) throw ManifestError(where + "bad key '" + key + "' (letters, digits, . _ - only)");
        if (m.values_.count(key)) throw ManifestError(where + "key '" + key + "' is set twice");
        m.values_[key] = trim(content.substr(eq + 1));
    }
    return m;
}

const std::string& Manifest::get(const std::string& key) const {
    auto it = values_.find(key);
    if (it == values_.end()) throw ManifestError(origin_ + ": missing key '" + key + "'");
    return it->second;
}

std::string Manifest::get_or(const std::string& key, const std::string& fallback) const {
    auto it = values_.find(key);
    return it == values_.end() ? fallback : it->second;
}

double Manifest::number(const std::string& key, double fallback) const {
    if (!has(key)) return fallback;
    const std::string& text = get(key);
    size_t used = 0;
    double value = 0;
    try {
        value = std::stod(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != text.size())
        throw ManifestError(origin_ + ": key '" + key + "' must be a number, got '" + text + "'");
    return value;
}

std::vector<std::string> Manifest::list(const std::string& key) const { return split_words(get_or(key, "")); }

std::string Manifest::case_value(const std::string& case_name, const std::string& key,
                                 const std::string& fallback) const {
    return get_or("case." + case_name + "." + key, get_or(key, fallback));
}
