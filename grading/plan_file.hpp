// The plan of one lab in one grading run, OUT/.grader/plan/LAB.tsv (grading/FORMATS.md): what
// grade.sh decided once for the whole run, written by `grader plan --write` and read by every
// later command of the lab given --plan, so that none of it is forwarded by hand and a --resume
// (a Slurm task, its collection) grades with the same: the lab and the manifests it is read
// from, the drawn seeds, the time-limit cap and the wall margin.
#pragma once
#include <string>

struct PlanFile {
    std::string lab;
    std::string manifests;               // the folder of the labs' folders: the manifest is MANIFESTS/LAB/manifest
    unsigned long long grading_seed = 0;  // every graded case's seed is derived from it (lab_plan.hpp)
    unsigned long long sample_seed = 0;   // the positions the checked timed runs are sampled at (checked_runs.hpp)
    double time_limit = 0;                // the cap on every case's time limit (grade.sh --time-limit), 0: none
    double margin = 0;                    // seconds a process gets beyond its cases' limits (GRADE_WALL_MARGIN)
};

void write_plan_file(const std::string& path, const PlanFile& plan);
// Throws FormatError, naming the file and what is wrong.
PlanFile read_plan_file(const std::string& path);
