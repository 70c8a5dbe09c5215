// The per-part loop every lab shares: for one case, the yardstick and then each chosen part,
// in order. For each: poison the outputs, load the case's inputs, run it once through the
// launcher (which records every launch), wait with a deadline, check the output against the
// CPU reference (the checked run), then time it (warm-ups, repetitions, each after the
// poisoning and on inputs from a seed drawn for it then; median and quartiles). After each
// timed run has ended, whether its output is kept is drawn (kept_runs.hpp): the two kept are
// checked too, and written for the grader with their seeds. Then the row is reported.
#pragma once
#include <cuda_runtime.h>

#include <string>

#include "driver_options.hpp"
#include "gpu.hpp"
#include "lab_case.hpp"

// Returns the case's exit code: ok, wrong_result (a part failed its check or threw) or
// bad_usage (a launch was refused). A crash or a timeout ends the process (the CUDA context is
// lost) after recording that part; the parts before it are already recorded.
// out_dir: where results.tsv and the outputs go ("" for none).
int run_case_parts(const LabInfo& lab, const DriverOptions& options, LabCase& lab_case, const GpuInfo* gpu,
                   cudaStream_t stream, const std::string& case_name, const std::string& out_dir);
