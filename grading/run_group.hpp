// One student x lab's sandboxed runs in one round (`grader run-group`, for grading/lib/runs.sh):
// the batches of its cases, a part run alone where a batch died, its sanitizer runs and its
// second timing, each in a fresh copy of its built work folder, through grading/sandbox.sh.
// Bash keeps what is about the class (the pool, the rounds, the GPU locks); this keeps what is
// about one student x lab: its ledger (run_ledger.hpp), in memory, written once at the end, and
// its evidence, filed as each process ends (run_files.hpp).
//
// A student's cases run in few processes (CUDA starts once for many cases). When a batch dies
// part-way (a crash, a stuck kernel, the wall clock), the first part it left without a record
// (the one that was running) is run again on its own, for its own evidence, and the parts after
// it go on in a new batch, so a failing part costs only its own points.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "lab_plan.hpp"
#include "run_ledger.hpp"

struct RunGroupSetup {
    LabPlan plan;
    WallRules rules;
    std::string dir;          // the student x lab's folder: runs/, sanitize/
    std::string built;        // its built work folder; each process gets a fresh copy beside it
    std::string ledger_path;  // started here when missing, with `budget` (0: the default)
    long long budget = 0;
    std::optional<int> uid;          // the sandbox uid the copies are lent to (chown), if any
    std::string gpu;                 // CUDA_VISIBLE_DEVICES of every run
    std::string cpus;                // a timed run's CPUs (sandbox.sh --cpus), "" for any
    bool shared = false;             // the GPU is shared with other runners during these runs
    std::string hidden_data;         // grading/hidden/LAB, copied into the copies of hidden runs
    std::vector<std::string> driver_args;  // before --cases in every driver command line
    long long output_limit = 256ll << 20;  // bytes a process may write (sandbox.sh --fsize)
    std::vector<std::string> sandbox;      // grading/sandbox.sh and its options for this runner
};

// What one call runs, in this order.
struct RunGroupWork {
    bool sanitize = false;            // the lab's sanitizer tools on its sanitize case
    std::string sanitize_script;      // mk/sanitize.sh's text; "" : compute-sanitizer is missing
    std::vector<std::string> cases;   // every part of these cases
    // The second timing (scoring.hpp, parts_to_time_again): these CASE/PART pairs, one batch.
    std::vector<std::string> time_again;
    bool hidden = false;  // the cases are hidden: their copies get the hidden data
};

// `grader run-group`'s exit status for the two ends other than done.
constexpr int kRunAgainAlone = 10;  // gpu_short
constexpr int kAskTheGpu = 11;      // gpu_suspect

enum class RunGroupEnd {
    done,            // the ledger is written
    gpu_short,       // the GPU may have been short while shared: the ledger is as it was, run again alone
    gpu_suspect,     // done, and a run may have taken the GPU down (ask the GPU before the next)
};

// What the log should say goes to `log`, a line each. Throws std::runtime_error when a copy,
// a cases file or the evidence cannot be made, std::invalid_argument for an unknown case or part.
RunGroupEnd run_group(const RunGroupSetup& setup, const RunGroupWork& work, std::vector<std::string>& log);

// Removes PATH and everything under it, a folder a program may have left unreadable included
// (made readable first); a missing PATH is fine. Throws std::runtime_error when it stays.
void remove_tree(const std::string& path);
// FROM's tree copied to TO (which must not exist): folders, plain files with their modes, links
// as links; anything else (a FIFO a build left) is left out.
void copy_tree(const std::string& from, const std::string& to);
