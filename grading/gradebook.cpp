// The class gradebook: gradebook.csv for the LMS, and the same numbers as a table on screen.
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "json_text.hpp"
#include "reports.hpp"
#include "table.hpp"

namespace {

const LabScore* find_lab(const StudentReport& r, const std::string& lab) {
    for (const LabScore& s : r.labs)
        if (s.lab == lab) return &s;
    return nullptr;
}

}  // namespace

std::string spreadsheet_text(const std::string& cell) {
    if (!cell.empty() && std::string("=+-@\t\r").find(cell[0]) != std::string::npos) return "'" + cell;
    return cell;
}

std::string gradebook_csv(const std::vector<StudentReport>& reports, const std::vector<std::string>& labs) {
    std::vector<std::string> header = {"student"};
    for (const std::string& lab : labs) header.push_back(spreadsheet_text(lab));
    header.push_back("total");
    std::string csv = csv_row(header) + "\n";
    for (const StudentReport& r : reports) {
        std::vector<std::string> row = {spreadsheet_text(r.student)};
        for (const std::string& lab : labs) {
            const LabScore* s = find_lab(r, lab);
            row.push_back(json_number(s ? s->points : 0));
        }
        row.push_back(json_number(r.total()));
        csv += csv_row(row) + "\n";
    }
    return csv;
}

std::string summary_table(const std::vector<StudentReport>& reports, const std::vector<std::string>& labs) {
    std::vector<Column> columns = {{"student", -20}};
    for (const std::string& lab : labs) columns.push_back({lab, 12});
    columns.push_back({"total", 12});
    columns.push_back({"notes", -1});
    char* text = nullptr;
    size_t size = 0;
    std::FILE* out = open_memstream(&text, &size);
    StreamingTable table(columns, out);
    table.print_header();
    for (const StudentReport& r : reports) {
        std::vector<std::string> cells = {r.student};
        std::string notes;
        for (const std::string& lab : labs) {
            const LabScore* s = find_lab(r, lab);
            cells.push_back(s ? json_number(s->points) + "/" + json_number(s->max) : "-");
            if (s && !s->note.empty()) notes += (notes.empty() ? "" : "; ") + lab + ": " + s->note;
        }
        cells.push_back(json_number(r.total()) + "/" + json_number(r.max()));
        cells.push_back(notes);
        table.print_row(cells);
    }
    std::fclose(out);
    std::string result(text, size);
    std::free(text);

    std::string below;
    for (const StudentReport& r : reports)
        for (const LabScore& lab : r.labs)
            for (const ScoreItem& i : lab.items)
                if (i.kind == "below-bound") below += "  " + r.student + "  " + lab.lab + "  " + i.message + "\n";
    if (!below.empty())
        result += "\nTimes below the physical bound of their case (no performance points; look at these submissions: "
                  "a forged time or skipped work):\n" + below;
    return result;
}
