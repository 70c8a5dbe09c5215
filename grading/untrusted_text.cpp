#include "untrusted_text.hpp"

#include <deque>
#include <fstream>
#include <sstream>

namespace {

// Length of a valid UTF-8 sequence starting at text[i], or 0 when invalid.
size_t utf8_length(const std::string& text, size_t i) {
    unsigned char c = text[i];
    size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > text.size()) return 0;
    for (size_t k = 1; k < n; ++k)
        if ((static_cast<unsigned char>(text[i + k]) >> 6) != 0x2) return 0;
    return n;
}

std::string clean(const std::string& text, size_t max_bytes, bool keep_lines) {
    std::string out;
    bool cut = false;
    for (size_t i = 0; i < text.size();) {
        size_t n = utf8_length(text, i);
        std::string piece = n == 0 ? std::string("?") : text.substr(i, n);
        if (n == 1) {
            char c = piece[0];
            bool control = static_cast<unsigned char>(c) < 0x20 || c == 0x7F;
            if (control && !(keep_lines && (c == '\n' || c == '\t'))) piece = " ";
        }
        if (out.size() + piece.size() > max_bytes) {
            cut = true;
            break;
        }
        out += piece;
        i += n == 0 ? 1 : n;
    }
    return cut ? out + " [...]" : out;
}

}  // namespace

std::string valid_utf8(const std::string& text) {
    std::string out;
    for (size_t i = 0; i < text.size();) {
        size_t n = utf8_length(text, i);
        out += n == 0 ? std::string("?") : text.substr(i, n);
        i += n == 0 ? 1 : n;
    }
    return out;
}

std::string clean_line(const std::string& text, size_t max_bytes) {
    std::string line = clean(text, max_bytes, false);
    size_t end = line.find_last_not_of(' ');
    return end == std::string::npos ? "" : line.substr(0, end + 1);
}

std::string clean_block(const std::string& text, size_t max_bytes) { return clean(text, max_bytes, true); }

std::string read_text_tail(const std::string& path, size_t max_bytes) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) return "";
    std::streamoff size = in.tellg();
    if (size <= 0) return "";
    std::streamoff start = size > std::streamoff(max_bytes) ? size - std::streamoff(max_bytes) : 0;
    in.seekg(start);
    std::string text(static_cast<size_t>(size - start), '\0');
    in.read(&text[0], std::streamsize(text.size()));
    return text;
}

std::string log_excerpt(const std::string& path, const std::vector<std::string>& markers, size_t max_lines) {
    std::istringstream in(read_text_tail(path, 1 << 20));
    std::vector<std::string> matching;
    std::deque<std::string> last;
    for (std::string line; std::getline(in, line);) {
        for (const std::string& marker : markers)
            if (line.find(marker) != std::string::npos) {
                if (matching.size() < max_lines) matching.push_back(line);
                break;
            }
        last.push_back(line);
        if (last.size() > max_lines) last.pop_front();
    }
    std::string excerpt;
    for (const std::string& line : matching.empty() ? std::vector<std::string>(last.begin(), last.end()) : matching)
        excerpt += line + "\n";
    return clean_block(excerpt, 4000);
}
