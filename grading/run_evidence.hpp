// What one sandboxed run left behind, read back and validated. Two files per run folder:
//   sandbox.tsv  written by grading/sandbox.sh (trusted): how the process ended;
//   out/results.tsv  written by the student's process (untrusted): one record per part.
// A record is only believed as far as the checker can verify it: its status says why a
// part has no output (not implemented, refused, crashed, timeout); a pass is decided by
// comparing the output file with the reference. The time it reports is used for the
// performance points (a known limit: a hostile program could forge it; grading/README.md).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "part_status.hpp"

struct SandboxOutcome {
    bool present = false;
    std::string outcome;  // exited, timeout, output-limit, cpu-limit, signal, setup-failed
    int exit_code = -1;
    std::string signal;   // SIGSEGV, ... when killed by a signal
    double seconds = 0;
    double wall_limit = 0;
    std::string isolation;
    // "the program was stopped after 120 s (wall-clock limit)", "... exited with code 4", ...
    std::string describe() const;
};

SandboxOutcome read_sandbox_outcome(const std::string& path);

// Whether a run's end says the GPU may have been short through no fault of its own, because a
// classmate's program held it (run_group.hpp ends the group, and grading/lib/runs.sh runs it
// again with the GPU to itself): while the GPU was shared with other runners, the driver
// exited saying the GPU was short of memory (exit_code::gpu_short) or that none was usable
// (exit_code::no_gpu), or a sanitizer's log (`log_path`, "" for none: compute-sanitizer ends
// with its own status) shows a CUDA call that failed for memory.
bool gpu_may_have_been_short(const SandboxOutcome& outcome, bool gpu_shared, const std::string& log_path);

// Whether a run's end may have taken the GPU down with it: killed by a signal or by its wall
// clock, or exited saying no GPU was usable, or after a fault or a stuck kernel. Before the GPU
// gets more students, the grader then asks it whether it still works (run_group.hpp's
// gpu_suspect, grading/lib/runs.sh's group_runs).
bool may_have_taken_the_gpu_down(const SandboxOutcome& outcome);

struct PartRecord {
    PartStatus status = PartStatus::error;
    std::string message;  // cleaned for display
    std::string output;   // the checked run's output: a plain file name in the run folder, or empty
    double time_ms = 0;   // 0 when absent or invalid
    // The timed runs whose outputs the driver kept, by run index (their files are
    // <part>.run<index>.out), and the seeds of their inputs, in the same order: whole numbers as
    // written (a seed below 2^62), not yet checked against the case's runs (checked_runs.hpp,
    // kept_runs_named).
    std::vector<unsigned long long> checked_runs, checked_seeds;
    bool checked_runs_malformed = false;  // a field held something else than such numbers
    double floor_ms = 0;  // the part's work at the GPU's peak rate; only the reference run's is believed
    double cpu_ms = 0;    // a part timed on the host: CPU time per timed run
    std::string host_cpus;  // and the CPUs it was pinned to (cleaned)
};

// The file of a checked timed run's output: "tiled.run17.out"; and, under the reference folder,
// the sample of the reference's output on the inputs of that run's seed:
// "big/seed5039120772431/out/tiled.sample".
std::string checked_run_file(const std::string& part, unsigned long long index);
std::string checked_run_sample(const std::string& case_name, const std::string& part, unsigned long long seed);

struct RunEvidence {
    std::string dir;         // sandbox.tsv, stdout.txt, stderr.txt (trusted: written by the grader)
    std::string output_dir;  // dir/out: results.tsv and the outputs, collected from the student's run
    SandboxOutcome sandbox;
    bool results_present = false;
    // The case's physical bound on the GPU it ran on (the run record's floor_ms; 0: none). Only
    // the reference run's is believed.
    double floor_ms = 0;
    std::map<std::string, PartRecord> parts;  // valid records by part name
    std::vector<std::string> rejected;        // parts whose records were rejected, and why
    std::vector<std::string> problems;        // for the feedback: what was wrong with results.tsv
};

// Never throws for anything the student's process wrote; `part_names` are the manifest's.
RunEvidence read_run(const std::string& dir, const std::vector<std::string>& part_names);

// The folder of a case's n-th batch run (n from 1): "batch-1". A batch run is one process that
// ran several cases and parts (grading/lib/runs.sh); a part run again on its own has the
// part's name instead, which cannot clash (part names have no '-').
std::string batch_folder(int n);
// The folder of a case's second timing (scoring.hpp, parts_to_time_again), and the kind of that
// run for the ledger (run_ledger.hpp, spent_from_budget).
constexpr const char* kSecondTiming = "second-timing";

// Parts with neither a valid nor a rejected record: the ones to rerun on their own.
std::vector<std::string> unrecorded_parts(const RunEvidence& run, const std::vector<std::string>& part_names);

// Parts whose record says the driver's watchdog stopped them (status timeout): the grader stops
// running a part that the time limit stopped on three cases (run_ledger.hpp). A forged record of this kind
// can only keep the student's own part from running.
std::vector<std::string> stopped_parts(const RunEvidence& run, const std::vector<std::string>& part_names);
