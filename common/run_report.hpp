// What a driver shows and records for one case: the heading and a table row per part as each
// finishes (or a CSV row, for the sweeps), and, with --out, results.tsv, the grader's record
// of every part (common/result_files.hpp). The metrics, the yardsticks and the columns of
// per-part settings are the lab's (LabInfo); the rest is the same for every lab.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "driver_options.hpp"
#include "gpu.hpp"
#include "lab_case.hpp"
#include "part_status.hpp"
#include "result_files.hpp"
#include "table.hpp"

struct PartRow {
    std::string part;
    std::vector<std::string> config;  // LabInfo::config_columns
    std::string block = "-", threads = "-", launches = "-";
    PartStatus status = PartStatus::ran;
    std::string check;    // PASS, FAIL or unchecked when it ran; otherwise the status's name
    std::string message;  // why it failed, was refused, crashed ...
    std::string note;     // PartRun::note's text: shown at the end of the table's row only
    std::string output_file;   // the checked run's output
    std::string checked_runs;   // the timed runs whose outputs were kept too, by index: "9 17"
    std::string checked_seeds;  // and the seeds of their inputs, in the same order
    bool timed = false;
    double median_ms = 0, q1_ms = 0, q3_ms = 0;
    std::string metric;     // PartRun::metric: "" for the lab's first
    double work = 0;        // in that metric's units
    std::string yardstick;  // PartRun::yardstick: "" for the lab's first; several: the fastest
    double floor_ms = 0;    // the part's work at the GPU's peak rate (0: no bound, or no GPU)
    std::string host_cpus;  // a part timed on the host: the CPUs it was pinned to
    double cpu_ms = 0;      // a part timed on the host: CPU time per timed run, every thread
};

// The lab's metric of that csv_name ("": its first); stops on a name the lab does not declare.
const Metric& metric_named(const LabInfo& lab, const std::string& csv_name);
// The fastest `work` units of `metric` can run on this GPU (its roofline ceiling), in ms; 0
// for a metric with no bound.
double physical_floor_ms(const Metric& metric, double work, const GpuInfo& gpu);

class RunReport {
public:
    // results_dir: where results.tsv goes, "" for none.
    RunReport(const LabInfo& lab, const DriverOptions& options, const LabCase& lab_case, std::string results_dir);

    // floor_ms: the least time any part of the case could take on this GPU (0: unknown);
    // host_rows: some row is timed on the host, so the heading names the CPU too.
    void start(const GpuInfo* gpu, const std::string& case_name, const std::string& check_text, double floor_ms,
               bool host_rows);
    void add(const PartRow& row, bool is_yardstick);

    // The CSV column names, for --csv-header.
    static std::string csv_header(const LabInfo& lab, const LabCase& lab_case);

private:
    const LabInfo& lab_;
    const DriverOptions& options_;
    const LabCase& case_;
    StreamingTable table_;
    std::unique_ptr<ResultsWriter> results_;
    std::map<std::string, double> yardstick_ms_;  // by name
};
