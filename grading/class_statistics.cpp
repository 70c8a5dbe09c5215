// What the class report counts from the students' score files: pass rates, failures grouped
// by their normalized message, performance ratios, the histogram of totals.
#include <algorithm>
#include <cctype>
#include <cmath>

#include "class_report.hpp"
#include "untrusted_text.hpp"

namespace {

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)); }
bool hex_digit(char c) { return std::isxdigit(static_cast<unsigned char>(c)); }

// The end of the number that starts at text[i], or i when none does: an optional sign, then a
// 0x prefix and hex digits, or digits with decimals (".5" too) and an exponent. A number
// does not start right after a letter, a digit, "_" or "." (v1.2, coarse2 and fw_2d are names).
size_t number_at(const std::string& text, size_t i) {
    if (i > 0 && (word_char(text[i - 1]) || text[i - 1] == '.')) return i;
    auto at = [&](size_t k) { return k < text.size() ? text[k] : '\0'; };
    size_t j = i;
    if ((at(j) == '-' || at(j) == '+') && (digit(at(j + 1)) || (at(j + 1) == '.' && digit(at(j + 2))))) ++j;
    if (at(j) == '0' && (at(j + 1) == 'x' || at(j + 1) == 'X') && hex_digit(at(j + 2))) {
        for (j += 2; hex_digit(at(j)); ++j) {}
        return j;
    }
    size_t digits = 0;
    for (; digit(at(j)); ++j) ++digits;
    if (at(j) == '.' && digit(at(j + 1)))
        for (++j; digit(at(j)); ++j) ++digits;
    if (digits == 0) return i;
    size_t k = j + 1;
    if (at(j) == 'e' || at(j) == 'E') {
        if (at(k) == '-' || at(k) == '+') ++k;
        if (digit(at(k))) {
            for (; digit(at(k)); ++k) {}
            j = k;
        }
    }
    return j;
}

}  // namespace

int PassRates::of(const std::string& case_name, const std::string& part) const {
    auto it = passed.find({case_name, part});
    return it == passed.end() ? 0 : it->second;
}

PassRates pass_rates(const std::vector<StudentLab>& students) {
    PassRates rates;
    for (const StudentLab& s : students) {
        if (s.score.state != "graded") continue;
        ++rates.graded;
        for (const ScoreItem& i : s.score.items)
            if (i.kind == "correctness") rates.passed[{i.case_name, i.part}] += i.passed ? 1 : 0;
    }
    return rates;
}

std::string normalized_message(const std::string& message) {
    std::string text = clean_line(message, 300), out;
    for (size_t i = 0; i < text.size();) {
        size_t end = number_at(text, i);
        if (end > i) {
            out += 'N';
            i = end;
        } else {
            out += text[i++];
        }
    }
    return out;
}

std::vector<FailureGroup> frequent_failures(const std::vector<StudentLab>& students, size_t limit) {
    std::vector<FailureGroup> groups;
    std::map<std::string, size_t> index;
    for (const StudentLab& s : students) {
        if (s.score.state != "graded") continue;
        for (const ScoreItem& i : s.score.items) {
            bool failed = (i.kind == "correctness" && !i.passed) || (i.kind == "sanitizer" && i.points < 0);
            if (!failed) continue;
            std::string key = normalized_message(i.message);
            auto [it, is_new] = index.emplace(key, groups.size());
            if (is_new) groups.push_back({key, clean_line(i.message, 300), 0, {}});
            FailureGroup& g = groups[it->second];
            ++g.count;
            if (g.students.empty() || g.students.back().first != s.student) g.students.push_back({s.student, {}});
            g.students.back().second.push_back((i.kind == "sanitizer" ? i.tool : i.part) + " on " + i.case_name);
        }
    }
    std::stable_sort(groups.begin(), groups.end(), [](const FailureGroup& a, const FailureGroup& b) {
        if (a.count != b.count) return a.count > b.count;
        if (a.students.size() != b.students.size()) return a.students.size() > b.students.size();
        return a.message < b.message;
    });
    if (groups.size() > limit) groups.resize(limit);
    return groups;
}

std::vector<RatioSeries> performance_ratios(const LabPlan& plan, const std::vector<StudentLab>& students) {
    std::vector<RatioSeries> series;
    for (const CasePlan& c : plan.cases) {
        if (!c.perf) continue;
        for (const PartPlan& p : plan.parts) {
            if (p.perf_points <= 0) continue;
            RatioSeries one{p.name, c.name, p.curve, {}};
            for (const StudentLab& s : students)
                for (const ScoreItem& i : s.score.items)
                    if (i.kind == "performance" && i.part == p.name && i.case_name == c.name && i.ratio > 0)
                        one.ratios.push_back(i.ratio);
            std::sort(one.ratios.begin(), one.ratios.end());
            series.push_back(one);
        }
    }
    return series;
}

Histogram totals_histogram(const std::vector<double>& totals, double max) {
    Histogram h;
    double rough = max > 0 ? max / 10 : 1;
    double scale = std::pow(10.0, std::floor(std::log10(rough)));
    for (double step : {1.0, 2.0, 5.0, 10.0})
        if (step * scale >= rough * 0.999) {
            h.width = step * scale;
            break;
        }
    size_t bins = std::max<size_t>(1, size_t(std::ceil(max / h.width - 1e-9)));
    h.counts.assign(bins, 0);
    for (double t : totals) {
        size_t bin = t <= 0 ? 0 : size_t(std::floor(t / h.width + 1e-9));
        ++h.counts[std::min(bin, bins - 1)];
    }
    return h;
}
