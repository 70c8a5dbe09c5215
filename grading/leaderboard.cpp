// leaderboard.md and leaderboard.csv (leaderboard.hpp): what may be published, so nothing in
// them names a student, and nothing a student wrote reaches them but numbers.
#include "leaderboard.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "json_text.hpp"
#include "reports.hpp"
#include "stats.hpp"
#include "table.hpp"

namespace {

std::string ratio_text(double ratio) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2fx", ratio);
    return text;
}

const ScoreItem* perf_item(const LabScore& score, const std::string& part, const std::string& case_name) {
    for (const ScoreItem& i : score.items)
        if (i.kind == "performance" && i.part == part && i.case_name == case_name) return &i;
    return nullptr;
}

}  // namespace

bool ranked_on(const LabScore& score, const std::string& part, const std::string& case_name) {
    if (score.state != "graded") return false;
    int cases = 0;
    for (const ScoreItem& i : score.items) {
        if (i.kind != "correctness" || i.part != part) continue;
        if (!i.passed) return false;
        ++cases;
    }
    const ScoreItem* timed = perf_item(score, part, case_name);
    return cases > 0 && timed && timed->student_ms > 0 && timed->ratio > 0;
}

std::vector<Leaderboard> leaderboards(const std::vector<std::string>& labs, const std::map<std::string, LabPlan>& plans,
                                      const std::map<std::string, std::vector<StudentLab>>& students,
                                      const std::map<std::string, std::string>& pseudonyms) {
    std::vector<Leaderboard> boards;
    for (const std::string& lab : labs) {
        const LabPlan& plan = plans.at(lab);
        auto class_of = students.find(lab);
        for (const CasePlan& c : plan.cases) {
            if (!c.perf) continue;
            for (const PartPlan& p : plan.parts) {
                if (p.perf_points <= 0) continue;
                Leaderboard board{lab, p.name, c.name, 0, {}};
                std::vector<double> reference;
                if (class_of != students.end())
                    for (const StudentLab& s : class_of->second) {
                        const ScoreItem* timed = perf_item(s.score, p.name, c.name);
                        if (timed && timed->reference_ms > 0) reference.push_back(timed->reference_ms);
                        auto name = pseudonyms.find(s.student);
                        if (name != pseudonyms.end() && ranked_on(s.score, p.name, c.name))
                            board.entries.push_back({0, name->second, timed->student_ms, timed->ratio});
                    }
                if (!reference.empty()) board.reference_ms = median(reference);
                std::sort(board.entries.begin(), board.entries.end(), [](const LeaderboardEntry& a, const LeaderboardEntry& b) {
                    return a.ms != b.ms ? a.ms < b.ms : a.name < b.name;
                });
                for (size_t i = 0; i < board.entries.size(); ++i)
                    board.entries[i].rank = i > 0 && board.entries[i].ms == board.entries[i - 1].ms ? board.entries[i - 1].rank
                                                                                                      : int(i + 1);
                boards.push_back(board);
            }
        }
    }
    return boards;
}

std::string leaderboard_markdown(const std::vector<Leaderboard>& boards, const LeaderboardPage& page) {
    std::ostringstream md;
    md << "# Leaderboard\n\n"
       << "The time of every submission whose part passed every case, public and hidden, on each performance case, "
          "fastest first, with the reference solution's time as a line among them";
    if (!page.gpu.empty()) md << ", timed on " << markdown_inline(page.gpu);
    if (!page.when.empty()) md << " (graded " << markdown_inline(page.when) << ")";
    md << ". Times are the medians of the timed runs, in milliseconds; \"x reference\" is the time over the reference "
          "solution's, timed on the same GPU in the same run. Students appear under a pseudonym, which their feedback "
          "tells them";
    if (page.opted_out > 0)
        md << "; " << page.opted_out << " student" << (page.opted_out == 1 ? "" : "s")
           << " asked to be left off (a file named NO-LEADERBOARD in the submission)";
    md << ".\n\n";
    std::string lab;
    for (const Leaderboard& b : boards) {
        if (b.lab != lab) {
            lab = b.lab;
            auto title = page.titles.find(lab);
            md << "## " << markdown_inline(lab) << (title == page.titles.end() ? "" : ": " + markdown_inline(title->second))
               << "\n\n";
        }
        md << "### " << markdown_inline(b.part) << ", case " << markdown_inline(b.case_name) << "\n\n";
        if (b.entries.empty()) md << "No submission is ranked here.\n\n";
        md << "| rank | who | ms | x reference |\n|---:|---|---:|---:|\n";
        bool reference_drawn = b.reference_ms <= 0;
        auto reference_line = [&] {
            md << "| | **the reference solution** | " << format_general(b.reference_ms, 4) << " | 1x |\n";
            reference_drawn = true;
        };
        for (const LeaderboardEntry& e : b.entries) {
            if (!reference_drawn && b.reference_ms < e.ms) reference_line();
            md << "| " << e.rank << " | " << markdown_inline(e.name) << " | " << format_general(e.ms, 4) << " | " << ratio_text(e.ratio)
               << " |\n";
        }
        if (!reference_drawn) reference_line();
        md << "\n";
    }
    if (boards.empty()) md << "No lab graded here has a part with performance points.\n";
    return md.str();
}

std::string leaderboard_csv(const std::vector<Leaderboard>& boards) {
    std::string csv = "lab,part,case,rank,name,time_ms,ratio\n";
    for (const Leaderboard& b : boards) {
        if (b.reference_ms > 0) csv += csv_row({b.lab, b.part, b.case_name, "", "reference", format_general(b.reference_ms, 4), "1"}) + "\n";
        for (const LeaderboardEntry& e : b.entries)
            csv += csv_row({b.lab, b.part, b.case_name, std::to_string(e.rank), e.name, format_general(e.ms, 4), json_number(e.ratio)}) + "\n";
    }
    return csv;
}
