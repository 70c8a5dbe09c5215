// Text that came from a student's program (a results.tsv message, a compiler or sanitizer
// log) is shown in feedback but never trusted: it is cut to a length, stripped of control
// characters and invalid UTF-8, so it cannot break the Markdown, JSON or CSV it lands in.
#pragma once
#include <string>
#include <vector>

// Invalid UTF-8 bytes become "?"; everything else is kept.
std::string valid_utf8(const std::string& text);
// One line: control characters (line breaks included) become spaces; at most max_bytes.
std::string clean_line(const std::string& text, size_t max_bytes = 300);
// Several lines: keeps line breaks and tabs, drops other control characters and invalid
// UTF-8, cuts to max_bytes.
std::string clean_block(const std::string& text, size_t max_bytes = 4000);
// The first `max_lines` lines of a file that match one of `markers` (case-sensitive
// substrings), or, when none does, its last `max_lines` lines; empty when the file is absent.
std::string log_excerpt(const std::string& path, const std::vector<std::string>& markers, size_t max_lines);
// The whole file, or "" when absent; at most max_bytes (the tail is kept).
std::string read_text_tail(const std::string& path, size_t max_bytes);
