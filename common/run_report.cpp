#include "run_report.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "fail.hpp"
#include "host_info.hpp"

namespace {

// One yardstick: "% cuBLAS". Several: each part compares with its own, "% yardstick".
std::string percent_title(const LabInfo& lab) {
    return lab.yardsticks.size() == 1 ? "% " + lab.yardsticks.front().title : "% yardstick";
}

std::vector<Column> table_columns(const LabInfo& lab) {
    int part_width = 4;
    for (const std::string& p : lab.parts) part_width = std::max(part_width, int(p.size()));
    for (const LabInfo::Yardstick& y : lab.yardsticks) part_width = std::max(part_width, int(y.name.size()));
    std::vector<Column> columns = {{"part", -part_width}};
    for (const std::string& c : lab.config_columns) columns.push_back({c, std::max(5, int(c.size()))});
    columns.insert(columns.end(), {{"block", -9}, {"threads", 7}, {"launches", 8}, {"check", -15}, {"median ms", 10}});
    for (const Metric& m : lab.metrics) columns.push_back({m.title, std::max(9, int(m.title.size()))});
    if (!lab.yardsticks.empty()) columns.push_back({percent_title(lab), std::max(8, int(percent_title(lab).size()))});
    return columns;
}

std::string results_path(const std::string& dir) { return dir + "/results.tsv"; }

}  // namespace

const Metric& metric_named(const LabInfo& lab, const std::string& csv_name) {
    if (lab.metrics.empty()) fail(exit_code::bad_usage, "lab " + lab.name + " declares no metric (a bug in the driver)");
    if (csv_name.empty()) return lab.metrics.front();
    for (const Metric& m : lab.metrics)
        if (m.csv_name == csv_name) return m;
    fail(exit_code::bad_usage, "a part reports in '" + csv_name + "', which lab " + lab.name +
                                   " does not declare among its metrics (a bug in the driver)");
}

double physical_floor_ms(const Metric& metric, double work, const GpuInfo& gpu) {
    switch (metric.bound) {
        case Metric::Bound::fp32_flops: return work / (peak_fp32_gflops(gpu) * 1e9) * 1e3;
        case Metric::Bound::memory_bytes: return work / (peak_memory_gbps(gpu) * 1e9) * 1e3;
        case Metric::Bound::none: break;
    }
    return 0;
}

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
    names.insert(names.end(), {"block", "threads", "launches", "check", "median_ms", "q1_ms", "q3_ms"});
    for (const Metric& m : lab.metrics) names.push_back(m.csv_name);
    if (lab.yardsticks.size() == 1) names.push_back("pct_" + lab.yardsticks.front().name);
    if (lab.yardsticks.size() > 1) names.push_back("pct_yardstick");
    return csv_row(names);
}

void RunReport::start(const GpuInfo* gpu, const std::string& case_name, const std::string& check_text,
                      double floor_ms, bool host_rows) {
    if (results_) {
        Record record = {{"record", "run"}, {"lab", lab_.name}, {"gpu", gpu ? gpu->name() : "none"},
                         {"seed", std::to_string(options_.seed)}};
        if (!case_name.empty()) record["case"] = case_name;
        if (floor_ms > 0) record["floor_ms"] = format_fixed(floor_ms, 6);
        for (const auto& [name, value] : case_.settings()) record[name] = value;
        results_->write(record);
    }
    if (options_.csv) return;
    std::printf("GPU    %s\n", gpu ? gpu->summary().c_str() : "none (this lab runs on the CPU)");
    if (host_rows) std::printf("CPU    %s\n", cpu_model_name().c_str());
    std::printf("case   %s%s, --seed %llu\n", case_name.empty() ? "" : (case_name + ": ").c_str(), case_.describe().c_str(),
                static_cast<unsigned long long>(options_.seed));
    std::printf("check  %s\n", check_text.c_str());
    if (options_.reps > 0)
        std::printf("time   median of %d runs after %d warm-up runs, %s; every run on inputs of its own\n", options_.reps,
                    options_.warmup, gpu ? "CUDA events" : "the host clock");
    else
        std::printf("time   not timed (--reps 0)\n");
    for (const std::string& line : case_.notes()) std::printf("%s\n", line.c_str());
    if (lab_.yardsticks.size() > 1 && !options_.no_yardstick) {
        std::printf("%%      each part against its own yardstick:");
        for (const LabInfo::Yardstick& y : lab_.yardsticks) std::printf(" %s (row %s)", y.title.c_str(), y.name.c_str());
        std::printf("\n");
    }
    std::printf("\n");
    table_.print_header();
}

void RunReport::add(const PartRow& row, bool is_yardstick) {
    if (is_yardstick && row.timed) yardstick_ms_[row.part] = row.median_ms;
    std::string ms = row.timed ? format_fixed(row.median_ms, 4) : "";
    // One cell per metric of the lab; the part's own holds its rate.
    const Metric& metric = metric_named(lab_, row.metric);
    std::vector<std::string> rates;
    for (const Metric& m : lab_.metrics)
        rates.push_back(row.timed && &m == &metric ? format_fixed(row.work / (row.median_ms * 1e-3) / m.scale, 1) : "");
    std::string percent;
    if (row.timed && !lab_.yardsticks.empty()) {  // a yardstick's own row shows 100
        std::string against = is_yardstick ? row.part : row.yardstick.empty() ? lab_.yardsticks.front().name : row.yardstick;
        double fastest_ms = 0;  // of the yardsticks named that were timed in this run
        std::istringstream names(against);
        for (std::string name; names >> name;) {
            auto y = yardstick_ms_.find(name);
            if (y != yardstick_ms_.end() && (fastest_ms == 0 || y->second < fastest_ms)) fastest_ms = y->second;
        }
        if (fastest_ms > 0) percent = format_fixed(100.0 * fastest_ms / row.median_ms, 1);
    }
    std::vector<std::string> config = row.config;
    config.resize(lab_.config_columns.size(), "-");

    if (options_.csv) {
        std::vector<std::string> fields;
        for (const auto& setting : case_.settings()) fields.push_back(setting.second);
        fields.push_back(row.part);
        fields.insert(fields.end(), config.begin(), config.end());
        fields.insert(fields.end(), {row.block, row.threads, row.launches, row.check, ms,
                                     row.timed ? format_fixed(row.q1_ms, 4) : "", row.timed ? format_fixed(row.q3_ms, 4) : ""});
        fields.insert(fields.end(), rates.begin(), rates.end());
        if (!lab_.yardsticks.empty()) fields.push_back(percent);
        std::printf("%s\n", csv_row(fields).c_str());
        std::fflush(stdout);
    } else {
        std::vector<std::string> cells = {row.part};
        cells.insert(cells.end(), config.begin(), config.end());
        cells.insert(cells.end(), {row.block, row.threads, row.launches, row.check, ms});
        cells.insert(cells.end(), rates.begin(), rates.end());
        if (!lab_.yardsticks.empty()) cells.push_back(percent);
        if (!row.message.empty()) cells.push_back(row.message);
        if (!row.note.empty()) cells.push_back(row.note);
        table_.print_row(cells);
    }
    if (results_ && !is_yardstick) {
        Record record = {{"record", "part"}, {"part", row.part}, {"status", status_name(row.status)},
                         {"message", row.message}, {"launches", row.launches}};
        if (row.timed) record["time_ms"] = format_fixed(row.median_ms, 6);
        if (!row.output_file.empty()) record["output"] = row.output_file;
        if (!row.checked_runs.empty()) record["checked_runs"] = row.checked_runs;
        if (!row.checked_seeds.empty()) record["checked_seeds"] = row.checked_seeds;
        if (row.floor_ms > 0) record["floor_ms"] = format_fixed(row.floor_ms, 6);
        if (!row.host_cpus.empty()) record["host_cpus"] = row.host_cpus;
        if (row.cpu_ms > 0) record["cpu_ms"] = format_fixed(row.cpu_ms, 3);
        results_->write(record);
    }
}
