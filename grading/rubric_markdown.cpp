#include "rubric_markdown.hpp"

#include <string>
#include <vector>

#include "args.hpp"  // join_list
#include "table.hpp"  // format_general

namespace {

std::string code(const std::string& text) { return "`" + text + "`"; }

// A paragraph broken into lines of at most `width` characters, as the handouts are written,
// between words and never inside a code span.
std::string wrapped(const std::string& paragraph, size_t width = 96) {
    std::vector<std::string> words;
    std::string word;
    bool in_code = false;
    for (char ch : paragraph) {
        if (ch == '`') in_code = !in_code;
        if (ch == ' ' && !in_code) {
            if (!word.empty()) words.push_back(word);
            word.clear();
        } else {
            word += ch;
        }
    }
    if (!word.empty()) words.push_back(word);
    // Characters, not bytes: the text holds ≤ and ×.
    auto length = [](const std::string& t) {
        size_t n = 0;
        for (unsigned char ch : t) n += (ch & 0xC0) != 0x80;
        return n;
    };
    std::string out, line;
    for (const std::string& w : words) {
        if (!line.empty() && length(line) + 1 + length(w) > width) {
            out += line + "\n";
            line.clear();
        }
        line += (line.empty() ? "" : " ") + w;
    }
    return out + line + "\n";
}

// "a", "a and b", "a, b and c".
std::string listed(const std::vector<std::string>& items) {
    std::string out;
    for (size_t i = 0; i < items.size(); ++i)
        out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
    return out;
}

std::string plural(size_t count, const std::string& one, const std::string& many) {
    return std::to_string(count) + " " + (count == 1 ? one : many);
}

// A public case's options as a student reruns them: the manifest's seed is left out, since every
// graded run draws its own (LabPlan::student_args), unless the seed is part of the case's design.
std::string shown_options(const CasePlan& c) {
    std::vector<std::string> words;
    for (size_t i = 0; i < c.args.size(); ++i) {
        if (!c.fixed_seed && c.args[i] == "--seed" && i + 1 < c.args.size()) {
            ++i;
            continue;
        }
        words.push_back(c.args[i]);
    }
    return code(join_list(words, " "));
}

// "1 point", "2 points", "0.5 points".
std::string points(double value) { return format_general(value) + (value == 1 ? " point" : " points"); }

// The lab's correctness and performance points, over every part: what max_points adds up.
struct Totals {
    double correctness = 0, performance = 0;
};

Totals totals(const LabPlan& plan) {
    Totals t;
    for (const PartPlan& p : plan.parts) {
        t.correctness += plan.correctness_points(p);
        t.performance += plan.performance_points(p);
    }
    return t;
}

std::vector<const CasePlan*> timed_cases(const LabPlan& plan) {
    std::vector<const CasePlan*> out;
    for (const CasePlan& c : plan.cases)
        if (c.perf) out.push_back(&c);
    return out;
}

std::string cases_table(const LabPlan& plan) {
    std::string out = "| case | kind | points per part | options |\n| --- | --- | ---: | --- |\n";
    size_t shown = 0, hidden = 0;
    // The public cases first, which a student can run, then the hidden ones, in the manifest's order.
    for (bool hidden_pass : {false, true})
        for (const CasePlan& c : plan.cases) {
            if (c.hidden != hidden_pass) continue;
            (c.hidden ? hidden : shown) += 1;
            std::string kind = c.hidden ? "hidden" : c.perf ? "public, timed" : "public";
            if (c.name == plan.sanitize_case) kind += ", sanitizers";
            out += "| " + code(c.name) + " | " + kind + " | " + format_general(c.points) + " | " +
                   (c.hidden ? "—" : shown_options(c)) + " |\n";
        }
    double per_part = plan.parts.empty() ? 0 : plan.correctness_points(plan.parts.front());
    std::string text = plural(shown, "public case", "public cases") + " and " + plural(hidden, "hidden one", "hidden ones") +
                       ": " + format_general(per_part) + " correctness points per part.";
    // The checker's rule (grading/output_check.hpp): |student - reference| <= tolerance x 2 x bound.
    bool one_tolerance = true;
    for (const CasePlan& c : plan.cases) one_tolerance = one_tolerance && c.tolerance == plan.cases.front().tolerance;
    text += " A part passes a case when each element of its output differs from the reference solution's, on the same "
            "inputs, by at most ";
    if (one_tolerance && !plan.cases.empty()) {
        text += format_general(2 * plan.cases.front().tolerance) + " × the error bound the reference run gives it.";
    } else {
        std::vector<std::string> multiples;
        for (const CasePlan& c : plan.cases) multiples.push_back(code(c.name) + " " + format_general(2 * c.tolerance));
        text += "a multiple of the error bound the reference run gives it (" + listed(multiples) + ").";
    }
    if (!plan.grading_args.empty())
        text += " Every graded run adds " + code(join_list(plan.grading_args, " ")) + " to the case's options";
    else
        text += " Every graded run takes the case's options";
    text += " and draws its own `--seed`.";
    // One time limit for every case, or each case's.
    bool one_limit = true;
    for (const CasePlan& c : plan.cases) one_limit = one_limit && c.time_limit == plan.cases.front().time_limit;
    if (one_limit && !plan.cases.empty()) {
        text += " A part still running after " + format_general(plan.cases.front().time_limit) + " s is stopped.";
    } else {
        std::vector<std::string> limits;
        for (const CasePlan& c : plan.cases) limits.push_back(code(c.name) + " " + format_general(c.time_limit) + " s");
        text += " A part still running after its case's time limit is stopped: " + listed(limits) + ".";
    }
    return out + "\n" + wrapped(text);
}

std::string parts_table(const LabPlan& plan) {
    const std::vector<const CasePlan*> timed = timed_cases(plan);
    std::string out;
    if (timed.empty()) {
        out = "| part | correctness |\n| --- | ---: |\n";
        for (const PartPlan& p : plan.parts) out += "| " + code(p.name) + " | " + format_general(plan.correctness_points(p)) + " |\n";
        return out + "\n" + wrapped("No case is timed for points in this lab.");
    }
    out = "| part | correctness | performance | full points at | none from |\n| --- | ---: | ---: | ---: | ---: |\n";
    for (const PartPlan& p : plan.parts) {
        std::string perf = format_general(plan.performance_points(p));
        if (timed.size() > 1) perf += " (" + format_general(p.perf_points) + " a case)";
        if (p.speed) perf += ", speed part";
        bool earns = p.perf_points > 0;
        out += "| " + code(p.name) + " | " + format_general(plan.correctness_points(p)) + " | " + perf + " | " +
               (earns ? "r ≤ " + format_general(p.curve.full_ratio) : "") + " | " + (earns ? "r ≥ " + format_general(p.curve.zero_ratio) : "") +
               " |\n";
    }
    const Totals lab = totals(plan);
    out += "| in all | " + format_general(lab.correctness) + " | " + format_general(lab.performance) + " | | |\n";
    std::vector<std::string> names;
    for (const CasePlan* c : timed) names.push_back(code(c->name));
    std::string text = "r is a correct part's median time on " + std::string(timed.size() > 1 ? "a timed case (" : "the timed case (") +
           listed(names) +
           ") over the reference solution's, timed on the same GPU in the same grading run. Between its two ends a "
           "curve gives points × log(none / r) / log(none / full), so each doubling of the time costs the same.";
    bool any_speed = false;
    for (const PartPlan& p : plan.parts) any_speed = any_speed || p.speed;
    if (any_speed) text += " A speed part earns at least as many points for its time as for being correct.";
    return out + "\n" + wrapped(text);
}

std::string sanitizer_sentence(const LabPlan& plan) {
    if (plan.sanitize_case.empty() || plan.sanitize_tools.empty()) return wrapped("No sanitizer runs in this lab.");
    std::vector<std::string> tools;
    for (const std::string& t : plan.sanitize_tools) tools.push_back(code(t));
    const size_t n = tools.size();
    std::string out = "compute-sanitizer: " + listed(tools) + (n == 1 ? " runs" : " run") + " case " + code(plan.sanitize_case) +
                      (n == 1 ? ": an error it reports takes " : ": each tool that reports an error takes ") +
                      points(plan.sanitize_points) + ", once however many it reports";
    if (n > 1) out += " (" + format_general(plan.sanitize_points * double(n)) + " at most)";
    return wrapped(out + ".");
}

std::string total_sentence(const LabPlan& plan) {
    const Totals lab = totals(plan);
    std::string out = "**In all: " + points(plan.max_points()) + "** (";
    out += lab.performance > 0 ? format_general(lab.correctness) + " for correctness, " + format_general(lab.performance) + " for performance"
                               : "all for correctness";
    out += ")";
    double deductions = plan.sanitize_case.empty() ? 0 : plan.sanitize_points * double(plan.sanitize_tools.size());
    if (deductions > 0) out += ", less up to " + format_general(deductions) + " for the " + (plan.sanitize_tools.size() == 1 ? "sanitizer" : "sanitizers");
    return wrapped(out + "; a lab's total never goes below zero.");
}

// How a student sees these numbers before handing in: make LAB-check (grading/self-check.sh),
// said once here rather than in every handout.
std::string self_check_paragraph(const LabPlan& plan) {
    return wrapped("Before you submit, run **`make " + plan.lab +
                   "-check`**: it grades your files as the grader will, with the same build, checks, sandbox and "
                   "checker, on every public case and the sanitizer case, and prints the points each part earns "
                   "there, each failing case with the grader's message, the sanitizer's verdict and how many hidden "
                   "cases remain (they run only at grading). Your copy has no reference solution, so it compares "
                   "your outputs with the CPU reference's answers, within the same tolerance; your times are "
                   "compared with the reference's measured on the same GPU model where the course ships them "
                   "(otherwise those points are \"timed at grading\"). The cases need an NVIDIA GPU: on a machine "
                   "without one it still builds your files as the grader does and makes its static checks (the "
                   "forbidden APIs, symbols and headers), prints what they found, and says that the cases did not "
                   "run.");
}

}  // namespace

std::string rubric_begin_marker(const std::string& lab) {
    return "<!-- rubric: made by make handouts-rubric from labs/" + lab + "/manifest; do not edit -->";
}

std::string rubric_markdown(const LabPlan& plan) {
    return rubric_begin_marker(plan.lab) + "\n" + cases_table(plan) + "\n" + parts_table(plan) + "\n" + sanitizer_sentence(plan) +
           "\n" + total_sentence(plan) + "\n" + self_check_paragraph(plan) + rubric_end_marker + "\n";
}
