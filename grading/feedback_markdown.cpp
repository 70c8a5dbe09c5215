// feedback.md: what a student reads. Public cases show their arguments, the first wrong
// value and how to rerun them; hidden cases show only pass or fail and the points.
#include <algorithm>
#include <sstream>

#include "args.hpp"
#include "json_text.hpp"
#include "reports.hpp"
#include "untrusted_text.hpp"

namespace {

std::string pts(double v) { return json_number(v); }

const ScoreItem* find_item(const LabScore& lab, const std::string& kind, const std::string& case_name,
                           const std::string& part) {
    for (const ScoreItem& i : lab.items)
        if (i.kind == kind && i.case_name == case_name && i.part == part) return &i;
    return nullptr;
}

void write_state(std::ostringstream& md, const LabScore& lab) {
    for (const ScoreItem& i : lab.items) {
        if (i.kind == "submission") {
            md << "**Your submission for " << lab.lab << " could not be graded:**\n\n";
            std::istringstream lines(i.detail);
            for (std::string line; std::getline(lines, line);) md << "- " << markdown_inline(line) << "\n";
            md << "\n";
        } else if (i.kind == "build" && !i.passed) {
            md << "**Build failed: " << markdown_inline(i.message) << ".** Every case scores zero. The compiler said:\n\n"
               << markdown_block(i.detail) << "\n";
        } else if (i.kind == "forbidden") {
            md << "**" << markdown_inline(i.message) << "**\n\n" << markdown_block(i.detail) << "\n";
        } else if (i.kind == "below-bound") {
            md << "**Performance: "
               << (i.hidden ? "part " + markdown_inline(i.part) + " reported a time on a hidden case below the physical bound "
                                                                  "of that case on this GPU, which earns no points"
                            : markdown_inline(i.message))
               << ".** The instructor is told.\n\n";
        }
    }
    for (const ScoreItem& i : lab.items)
        if (i.kind == "run") md << "**" << markdown_inline(i.message) << ".** Your score will be set when they run.\n\n";
    if (lab.state == "not-graded") md << "**" << markdown_inline(lab.note) << ".**\n\n";
}

void write_correctness(std::ostringstream& md, const LabScore& lab, const LabPlan& plan) {
    std::vector<std::string> parts = plan.part_names();
    md << "### Correctness\n\n| case | visibility | " << join_list(parts, " | ") << " |\n|---|---|";
    for (size_t i = 0; i < parts.size(); ++i) md << "---|";
    md << "\n";
    std::vector<std::string> failures;
    for (const CasePlan& c : plan.cases) {
        md << "| " << c.name << " | " << (c.hidden ? "hidden" : "public") << " |";
        for (const std::string& part : parts) {
            const ScoreItem* item = find_item(lab, "correctness", c.name, part);
            if (!item) {
                md << " - |";
                continue;
            }
            md << " " << (item->passed ? "pass " : "FAIL ") << pts(item->points) << "/" << pts(item->max) << " |";
            if (item->passed) continue;
            std::string line = "- **" + part + "** on case `" + c.name + "`: ";
            if (c.hidden) {
                std::string outcome = hidden_outcome(*item);
                line += outcome == "failed" ? "failed (a hidden case: no details are given)." : markdown_inline(outcome) + ".";
            } else {
                line += markdown_inline(item->message) + ". Rerun it: `make " + plan.lab + " ARGS=\"" +
                        join_list(plan.student_args(c), " ") + " --part " + part + "\"`";
                if (!item->detail.empty()) line += "\n\n" + markdown_block(item->detail);
            }
            failures.push_back(line);
        }
        md << "\n";
    }
    md << "\n";
    if (!failures.empty() && lab.state == "graded") md << "What went wrong:\n\n" << join_list(failures, "\n") << "\n\n";
    md << "Public cases run with these arguments" << (plan.grading_seed ? " (the seed that this grading drew for each)" : "")
       << ":\n\n";
    for (const CasePlan& c : plan.cases)
        if (!c.hidden) md << "- `" << c.name << "`: `" << join_list(plan.student_args(c), " ") << "`\n";
    md << "\n";
}

void write_performance(std::ostringstream& md, const LabScore& lab, const LabPlan& plan) {
    for (const CasePlan& c : plan.cases) {
        if (!c.perf) continue;
        md << "### Performance on case `" << c.name << "`" << (c.hidden ? " (hidden)" : "") << "\n\n"
           << "Your median time against the reference solution's, both measured in this grading run, and the curve: "
              "full points up to the first ratio, none from the second, and in between in proportion to log(ratio).\n\n"
           << "| part | your ms | reference ms | ratio | curve | points |\n|---|---|---|---|---|---|\n";
        for (const PartPlan& p : plan.parts) {
            const ScoreItem* item = find_item(lab, "performance", c.name, p.name);
            if (!item) continue;
            std::string curve = pts(p.curve.full_ratio) + "x to " + pts(p.curve.zero_ratio) + "x";
            std::string points = pts(item->points) + "/" + pts(item->max);
            if (c.hidden)
                md << "| " << p.name << " | - | - | - | " << curve << " | " << points << " |\n";
            else if (item->ratio > 0)
                md << "| " << p.name << " | " << pts(item->student_ms) << " | " << pts(item->reference_ms) << " | "
                   << pts(item->ratio) << "x | " << curve << " | " << points << " |\n";
            else
                md << "| " << p.name << " | - | - | - | " << curve << " | " << points << " ("
                   << markdown_inline(item->message) << ") |\n";
        }
        md << "\n";
        // A slow part is told what the rung expects and what would show its absence.
        for (const PartPlan& p : plan.parts) {
            const ScoreItem* item = find_item(lab, "performance", c.name, p.name);
            if (!item || c.hidden || p.hint.empty() || item->ratio <= 0 || item->points >= item->max) continue;
            md << "- **" << p.name << "** is slower than the curve's full points (" << pts(item->ratio)
               << "x the reference): " << markdown_inline(p.hint) << "\n";
        }
        md << "\n";
    }
}

void write_sanitizers(std::ostringstream& md, const LabScore& lab) {
    bool heading = false;
    for (const ScoreItem& i : lab.items) {
        if (i.kind != "sanitizer") continue;
        if (!heading) md << "### compute-sanitizer\n\n";
        heading = true;
        md << "- " << markdown_inline(i.message) << (i.points < 0 ? ": " + pts(i.points) + " points" : "") << "\n";
        if (!i.detail.empty()) md << "\n" << markdown_block(i.detail) << "\n";
    }
    if (heading) md << "\n";
}

}  // namespace

std::string markdown_inline(const std::string& text) {
    std::string out;
    for (char c : clean_line(text, 600)) {
        if (std::string("\\`*_[]<>|!#~").find(c) != std::string::npos) out += '\\';
        out += c;
    }
    return out;
}

std::string markdown_block(const std::string& text) {
    std::string body = clean_block(text, 4000);
    size_t fence = 3;  // longer than any run of backticks inside
    for (size_t run = 0, i = 0; i < body.size(); ++i) {
        run = body[i] == '`' ? run + 1 : 0;
        fence = std::max(fence, run + 1);
    }
    std::string marks(fence, '`');
    if (!body.empty() && body.back() != '\n') body += '\n';
    return marks + "\n" + body + marks + "\n";
}

std::string feedback_markdown(const StudentReport& report, const std::map<std::string, LabPlan>& plans,
                              const RunDescription& run) {
    std::ostringstream md;
    md << "# Feedback for " << markdown_inline(report.student) << "\n\n"
       << "Graded " << markdown_inline(run.when) << " on " << markdown_inline(run.gpu) << ". Sandbox: "
       << markdown_inline(run.isolation) << ".\n\n"
       << "**Total: " << pts(report.total()) << " / " << pts(report.max()) << "**\n\n";
    for (const std::string& note : report.notes) md << "Note: " << markdown_inline(note) << "\n\n";
    if (report.off_leaderboard)
        md << "You are left off the class leaderboard, as the file NO-LEADERBOARD in your submission asks.\n\n";
    else if (!report.pseudonym.empty())
        md << "On the class leaderboard your times appear under the pseudonym **" << markdown_inline(report.pseudonym)
           << "**, for each part that passed every case. To be left off it, add a file named NO-LEADERBOARD to your "
              "submission.\n\n";
    for (const LabScore& lab : report.labs) {
        md << "## " << lab.lab << ": " << markdown_inline(lab.title) << " (" << pts(lab.points) << " / " << pts(lab.max)
           << ")\n\n";
        write_state(md, lab);
        auto plan = plans.find(lab.lab);
        if (plan == plans.end()) continue;
        write_correctness(md, lab, plan->second);
        if (lab.state == "graded") {
            write_performance(md, lab, plan->second);
            write_sanitizers(md, lab);
        }
    }
    return md.str();
}
