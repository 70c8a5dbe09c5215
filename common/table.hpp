// Results tables: printed row by row as each result arrives (a slow rung should not hide
// the ones before it), with columns fixed up front; and CSV rows for the sweeps.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

struct Column {
    std::string title;
    int width;  // negative: left-aligned
};

class StreamingTable {
public:
    StreamingTable(std::vector<Column> columns, std::FILE* out = stdout)
        : columns_(std::move(columns)), out_(out) {}

    void print_header() {
        std::vector<std::string> titles;
        for (const Column& c : columns_) titles.push_back(c.title);
        print_row(titles);
        std::string rule;
        for (const Column& c : columns_) rule += std::string(std::abs(c.width), '-') + "  ";
        std::fprintf(out_, "%s\n", trim(rule).c_str());
    }

    // Cells past the last column are appended after it (a long message, say).
    void print_row(const std::vector<std::string>& cells) {
        std::string line;
        for (size_t i = 0; i < cells.size(); ++i) {
            int width = i < columns_.size() ? columns_[i].width : 0;
            std::string cell = cells[i];
            size_t pad = std::abs(width) > int(cell.size()) ? std::abs(width) - cell.size() : 0;
            line += width < 0 ? cell + std::string(pad, ' ') : std::string(pad, ' ') + cell;
            line += "  ";
        }
        std::fprintf(out_, "%s\n", trim(line).c_str());
        std::fflush(out_);
    }

private:
    static std::string trim(std::string s) {
        while (!s.empty() && s.back() == ' ') s.pop_back();
        return s;
    }
    std::vector<Column> columns_;
    std::FILE* out_;
};

// Quotes a CSV field when it holds a comma, a quote or a line break (RFC 4180).
inline std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

inline std::string csv_row(const std::vector<std::string>& fields) {
    std::string row;
    for (size_t i = 0; i < fields.size(); ++i) row += (i ? "," : "") + csv_field(fields[i]);
    return row;
}

std::string format_fixed(double value, int decimals);  // "12.35"
// As few digits as it needs, at most `significant` (printf's %g): "2", "1.15", "0.5"; 17 reads
// back as the same double.
std::string format_general(double value, int significant = 6);
