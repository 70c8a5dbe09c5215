#include "run_report.hpp"

#include <algorithm>
#include <cstdio>

#include "fail.hpp"

namespace {

std::vector<Column> table_columns(const LabInfo& lab) {
    int part_width = 4;
    for (const std::string& p : lab.parts) part_width = std::max(part_width, int(p.size()));
    part_width = std::max(part_width, int(lab.yardstick.size()));
    std::vector<Column> columns = {{"part", -part_width}};
    for (const std::string& c : lab.config_columns) columns.push_back({c, std::max(5, int(c.size()))});
    columns.insert(columns.end(), {{"block", -9}, {"threads", 7}, {"launches", 8}, {"check", -15},
                                   {"median ms", 10}, {lab.metric.title, std::max(9, int(lab.metric.title.size()))}});
    if (!lab.yardstick.empty()) columns.push_back({"% " + lab.yardstick_title, 8});
    return columns;
}

std::string results_path(const std::string& dir) { return dir + "/results.tsv"; }

// The fastest the case's work can run on this GPU (its roofline ceiling), in ms; 0 for none.
double physical_floor_ms(const Metric& metric, double work, const GpuInfo& gpu) {
    switch (metric.bound) {
        case Metric::Bound::fp32_flops: return work / (peak_fp32_gflops(gpu) * 1e9) * 1e3;
        case Metric::Bound::memory_bytes: return work / (peak_memory_gbps(gpu) * 1e9) * 1e3;
        case Metric::Bound::none: break;
    }
    return 0;
}

}  // namespace

RunReport::RunReport(const LabInfo& lab, const DriverOptions& options, const LabCase& lab_case, std::string results_dir)
    : lab_(lab), options_(options), case_(lab_case), table_(table_columns(lab)) {
    if (results_dir.empty()) return;
    try {
        results_ = std::make_unique<ResultsWriter>(results_path(results_dir));
    } catch (const std::runtime_error& error) {
        fail(exit_code::io_error, std::string(error.what()) + " (does the --out folder exist, and may it be written?)");
    }
}

std::string RunReport::csv_header(const LabInfo& lab, const LabCase& lab_case) {
    std::vector<std::string> names;
    for (const auto& setting : lab_case.settings()) names.push_back(setting.first);
    names.push_back("part");
    names.insert(names.end(), lab.config_columns.begin(), lab.config_columns.end());
    names.insert(names.end(), {"block", "threads", "launches", "check", "median_ms", "q1_ms", "q3_ms", lab.metric.csv_name});
    if (!lab.yardstick.empty()) names.push_back("pct_" + lab.yardstick);
    return csv_row(names);
}

void RunReport::start(const GpuInfo* gpu, const std::string& case_name, const std::string& check_text) {
    if (results_) {
        Record record = {{"record", "run"}, {"lab", lab_.name}, {"gpu", gpu ? gpu->name() : "none"},
                         {"seed", std::to_string(options_.seed)}};
        if (!case_name.empty()) record["case"] = case_name;
        double floor_ms = gpu ? physical_floor_ms(lab_.metric, case_.work(), *gpu) : 0;
        if (floor_ms > 0) record["floor_ms"] = format_fixed(floor_ms, 6);
        for (const auto& [name, value] : case_.settings()) record[name] = value;
        results_->write(record);
    }
    if (options_.csv) return;
    std::printf("GPU    %s\n", gpu ? gpu->summary().c_str() : "none (this lab runs on the CPU)");
    std::printf("case   %s%s, seed %llu\n", case_name.empty() ? "" : (case_name + ": ").c_str(), case_.describe().c_str(),
                static_cast<unsigned long long>(options_.seed));
    std::printf("check  %s\n", check_text.c_str());
    std::printf("time   median of %d runs after %d warm-up runs, %s\n\n", options_.reps, options_.warmup,
                gpu ? "CUDA events" : "the host clock");
    table_.print_header();
}

void RunReport::add(const PartRow& row, bool is_yardstick) {
    if (is_yardstick && row.timed) yardstick_ms_ = row.median_ms;
    std::string ms = row.timed ? format_fixed(row.median_ms, 4) : "";
    std::string rate = row.timed ? format_fixed(case_.work() / (row.median_ms * 1e-3) / lab_.metric.scale, 1) : "";
    std::string percent = row.timed && yardstick_ms_ > 0 ? format_fixed(100.0 * yardstick_ms_ / row.median_ms, 1) : "";
    std::vector<std::string> config = row.config;
    config.resize(lab_.config_columns.size(), "-");

    if (options_.csv) {
        std::vector<std::string> fields;
        for (const auto& setting : case_.settings()) fields.push_back(setting.second);
        fields.push_back(row.part);
        fields.insert(fields.end(), config.begin(), config.end());
        fields.insert(fields.end(), {row.block, row.threads, row.launches, row.check, ms,
                                     row.timed ? format_fixed(row.q1_ms, 4) : "", row.timed ? format_fixed(row.q3_ms, 4) : "", rate});
        if (!lab_.yardstick.empty()) fields.push_back(percent);
        std::printf("%s\n", csv_row(fields).c_str());
        std::fflush(stdout);
    } else {
        std::vector<std::string> cells = {row.part};
        cells.insert(cells.end(), config.begin(), config.end());
        cells.insert(cells.end(), {row.block, row.threads, row.launches, row.check, ms, rate});
        if (!lab_.yardstick.empty()) cells.push_back(percent);
        if (!row.message.empty()) cells.push_back(row.message);
        table_.print_row(cells);
    }
    if (results_ && !is_yardstick) {
        Record record = {{"record", "part"}, {"part", row.part}, {"status", status_name(row.status)},
                         {"message", row.message}, {"launches", row.launches}};
        if (row.timed) record["time_ms"] = format_fixed(row.median_ms, 6);
        if (!row.output_file.empty()) record["output"] = row.output_file;
        results_->write(record);
    }
}
