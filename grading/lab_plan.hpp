// What the grader needs from a lab's manifest, read once and checked up front: the cases
// with their arguments, points and visibility, the parts, the performance curve, the
// sanitizer tools and the forbidden patterns. Every key is described in labs/MANIFEST.md;
// a lab plugs into the grader through its manifest alone, so nothing here names a lab.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "manifest.hpp"

struct CasePlan {
    std::string name;
    std::vector<std::string> args;  // driver arguments, words of case.<name>.args
    bool hidden = false;
    double points = 0;      // per part that passes
    double time_limit = 0;  // seconds; case.<name>.time_limit, else time_limit
    double tolerance = 1;   // case.<name>.tolerance, else tolerance
    bool perf = false;      // listed in perf.cases
    // case.<name>.fixed_seed: the manifest's seed is part of the case's design (lab 4's h-neg: a
    // seed whose every value of B is negative), so grading keeps it instead of drawing one.
    // Never a performance case, whose graded data must not be known before grading.
    bool fixed_seed = false;
};

// The performance curve (labs/MANIFEST.md): full points up to full_ratio, none from zero_ratio.
struct PerfCurve {
    double full_ratio = 1, zero_ratio = 1;
};

struct PartPlan {
    std::string name;
    std::vector<std::string> files;  // student files the part lives in (default: all)
    std::string forbidden;           // part.<name>.forbidden, empty when none
    // part.<name>.forbidden_ptx: a construct the part must not use, found in what the compiler
    // made of the student's files (their PTX: `atom.global.max`, `ld.volatile`), whatever the
    // source's spelling; empty when none.
    std::string forbidden_ptx;
    std::string forbidden_reason;    // part.<name>.forbidden.reason, else a generic sentence
    PerfCurve curve;                 // part.<name>.perf.*, else the lab's perf.*
    double perf_points = 0;          // per performance case: part.<name>.perf.points, else perf.points
    bool speed = false;              // listed in speed_parts: the part's lesson is speed
    std::string hint;                // part.<name>.perf.hint: what a slow part should look at
};

struct LabPlan {
    std::string lab, title;
    std::vector<std::string> student_files;
    std::vector<PartPlan> parts;
    std::vector<CasePlan> cases;
    // Driver arguments every graded run adds before the case's (grading.args): how the grader
    // runs the driver, not part of the case a student reruns, so feedback leaves them out.
    std::vector<std::string> grading_args;
    // Drawn when a grading run starts (grade.sh keeps it in its private folder, for --resume);
    // 0 outside a grading run. Every graded case then runs on a seed derived from it and the
    // case's own, so no graded input can be known before grading begins (a public case's
    // manifest seed is an example a student can rerun, not the data that is graded).
    unsigned long long grading_seed = 0;
    // The case's arguments as a student reruns it: with the graded seed, when there is one.
    std::vector<std::string> student_args(const CasePlan& c) const;
    // grading.args, then student_args, then, for a case without performance points,
    // --reps 1 --warmup 0 (its times are not used).
    std::vector<std::string> run_args(const CasePlan& c) const;
    // The timed runs of a part on a graded case, by run index (common/run_schedule.hpp: each part
    // has its own range, from its place in `parts`): the driver keeps the outputs of two of them,
    // chosen at random, for the checker.
    struct TimedRuns {
        unsigned long long first = 0, count = 0;
        bool contains(unsigned long long index) const { return index >= first && index < first + count; }
    };
    TimedRuns timed_runs(const CasePlan& c, const std::string& part) const;
    std::string forbidden, forbidden_reason;  // lab-wide; empty pattern when none
    std::vector<std::string> allowed_symbols;  // regexes the student objects may use beyond the base list
    std::string sanitize_case;  // empty when the lab has none
    std::vector<std::string> sanitize_tools;
    double sanitize_points = 0;

    const CasePlan* find_case(const std::string& name) const;
    const PartPlan* find_part(const std::string& name) const;
    std::vector<std::string> part_names() const;
    // Whether a part has a construct rule: only then does a student build make PTX to match it.
    bool has_construct_rules() const;
    // Correctness points plus performance points; sanitizer points are only ever taken away.
    double max_points() const;
    // A part's points over every case: correctness, and performance.
    double correctness_points(const PartPlan& part) const;
    double performance_points(const PartPlan& part) const;
};

// Throws ManifestError, naming the manifest and the key, for anything the grader cannot use:
// a missing key, a case without args or points, a bad visibility, an unknown part or case in
// a list, a ratio curve that does not rise, a regular expression that does not compile, a
// speed part (speed_parts) whose performance points are fewer than its correctness points.
LabPlan make_lab_plan(const Manifest& manifest, const std::string& lab);

// A student file name must be a plain name: it is copied into a fresh work folder and looked
// up in submissions, so a path could reach outside them.
bool is_plain_file_name(const std::string& name);
