// The class report's figures as gnuplot scripts and their data (class_report.hpp); grade.sh
// runs each script from the figures' folder, so every name in them is a plain file name. Only
// numbers and the manifests' names reach them: no student's text.
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "class_report.hpp"
#include "json_text.hpp"
#include "table.hpp"

namespace {

// A gnuplot string literal: single quotes, in which only a doubled quote is special.
std::string quoted(const std::string& text) {
    std::string out = "'";
    for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
    return out + "'";
}

const std::vector<StudentLab>& students_of(const ClassReportInputs& in, const std::string& lab) {
    static const std::vector<StudentLab> none;
    auto it = in.students.find(lab);
    return it == in.students.end() ? none : it->second;
}

// The series that have a ratio to draw.
std::vector<RatioSeries> drawn_series(const ClassReportInputs& in, const std::string& lab) {
    std::vector<RatioSeries> all = performance_ratios(in.plans.at(lab), students_of(in, lab)), drawn;
    for (const RatioSeries& s : all)
        if (!s.ratios.empty()) drawn.push_back(s);
    return drawn;
}

std::string preamble(const std::string& png, const std::string& title) {
    return "# Drawn by gnuplot from this folder (grade.sh does): gnuplot " + png.substr(0, png.size() - 4) + ".gp\n"
           "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
           "    set terminal pngcairo size 900,520 font 'Sans,10'\n"
           "} else {\n"
           "    set terminal png size 900,520\n"
           "}\n"
           "set termoption noenhanced\n"
           "set output " + quoted(png) + "\n"
           "set title " + quoted(title) + "\n"
           "set grid ytics\n";
}

void totals_figure(const ClassReportInputs& in, const std::string& lab, std::map<std::string, std::string>& files) {
    const std::vector<StudentLab>& students = students_of(in, lab);
    std::vector<double> totals;
    double max = 0;
    for (const StudentLab& s : students) totals.push_back(s.score.points), max = std::max(max, s.score.max);
    Histogram h = totals_histogram(totals, max);
    std::string data;
    int highest = 0;
    for (size_t i = 0; i < h.counts.size(); ++i) {
        double top = std::min(double(i + 1) * h.width, std::max(max, h.width));
        data += format_general(double(i) * h.width) + " " + format_general(top) + " " + std::to_string(h.counts[i]) + "\n";
        highest = std::max(highest, h.counts[i]);
    }
    files[lab + "-totals.dat"] = data;
    files[lab + "-totals.gp"] =
        preamble(lab + "-totals.png", lab + ": " + in.plans.at(lab).title + ", the totals of " + std::to_string(students.size()) +
                                          " students") +
        "set xlabel " + quoted("points (out of " + json_number(max) + "), in bins of " + json_number(h.width)) + "\n"
        "set ylabel 'students'\n"
        "set xrange [0:" + format_general(std::max(max, h.width)) + "]\n"
        "set yrange [0:" + std::to_string(highest + 1) + "]\n" +
        (highest <= 12 ? "set ytics 1\n" : "") +
        "set style fill solid 0.6 border lc rgb 'black'\n"
        "plot " + quoted(lab + "-totals.dat") + " using (($1 + $2) / 2):3:($2 - $1) with boxes lc rgb '#1f77b4' notitle\n";
}

void ratios_figure(const ClassReportInputs& in, const std::string& lab, std::map<std::string, std::string>& files) {
    std::vector<RatioSeries> series = drawn_series(in, lab);
    if (series.empty()) return;
    bool several_cases = false;
    for (const RatioSeries& s : series) several_cases |= s.case_name != series.front().case_name;
    std::string points, full, zero, tics;
    double low = 1, high = 1;
    for (size_t k = 0; k < series.size(); ++k) {
        const RatioSeries& s = series[k];
        double x = double(k + 1);
        // Spread a category's points sideways, so that equal ratios stay visible.
        for (size_t j = 0; j < s.ratios.size(); ++j)
            points += format_general(x + (double(j % 9) - 4) * 0.05) + " " + format_general(s.ratios[j]) + "\n";
        full += format_general(x - 0.4) + " " + format_general(s.curve.full_ratio) + "\n" + format_general(x + 0.4) + " " + format_general(s.curve.full_ratio) + "\n\n";
        zero += format_general(x - 0.4) + " " + format_general(s.curve.zero_ratio) + "\n" + format_general(x + 0.4) + " " + format_general(s.curve.zero_ratio) + "\n\n";
        tics += std::string(k ? ", " : "") + quoted(several_cases ? s.part + " (" + s.case_name + ")" : s.part) + " " + format_general(x);
        low = std::min({low, s.ratios.front(), s.curve.full_ratio});
        high = std::max({high, s.ratios.back(), s.curve.zero_ratio});
    }
    files[lab + "-ratios.dat"] = points;
    // Two data sets (index 0 and 1), each a segment per part, for the curve's two ends.
    files[lab + "-curves.dat"] = full + "\n" + zero;
    files[lab + "-ratios.gp"] =
        preamble(lab + "-ratios.png", lab + ": each student's time over the reference solution's, by part") +
        "set logscale y\n"
        "set ylabel 'time / reference time (log scale; below 1 is faster)'\n"
        "set xrange [0.4:" + format_general(double(series.size()) + 0.6) + "]\n"
        "set yrange [" + format_general(low / 1.5) + ":" + format_general(high * 1.5) + "]\n"
        "set xtics (" + tics + ")" + (series.size() > 6 ? " rotate by -30" : "") + "\n"
        "set key outside bottom center horizontal\n"
        "plot " + quoted(lab + "-ratios.dat") + " using 1:2 with points pt 7 ps 0.9 lc rgb '#1f77b4' title 'a student', \\\n"
        "     1 with lines dt 2 lw 1.5 lc rgb 'black' title 'the reference (1x)', \\\n"
        "     " + quoted(lab + "-curves.dat") + " index 0 using 1:2 with lines lw 2 lc rgb '#2ca02c' title 'full points up to', \\\n"
        "     " + quoted(lab + "-curves.dat") + " index 1 using 1:2 with lines lw 2 lc rgb '#d62728' title 'no points from'\n";
}

}  // namespace

std::map<std::string, std::string> class_report_figures(const ClassReportInputs& in) {
    std::map<std::string, std::string> files;
    for (const std::string& lab : in.labs) {
        if (!students_of(in, lab).empty()) totals_figure(in, lab, files);
        ratios_figure(in, lab, files);
    }
    return files;
}

std::vector<std::string> class_report_figure_names(const ClassReportInputs& in) {
    std::vector<std::string> names;
    for (const std::string& lab : in.labs) {
        if (!students_of(in, lab).empty()) names.push_back(lab + "-totals.png");
        if (!drawn_series(in, lab).empty()) names.push_back(lab + "-ratios.png");
    }
    return names;
}
