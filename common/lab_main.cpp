#include "lab_main.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include "driver_options.hpp"
#include "cuda_check.hpp"
#include "exit_codes.hpp"
#include "fail.hpp"
#include "launch_trace.hpp"
#include "part_loop.hpp"
#include "run_report.hpp"

namespace {

struct CaseLine {
    std::string name;
    std::vector<std::string> args;
};

bool plain_name(const std::string& name) {
    return !name.empty() && name != "." && name != ".." &&
           std::all_of(name.begin(), name.end(), [](char c) { return isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-'; });
}

// One case a line: a name, then its options; blank lines and '#' lines are ignored.
std::vector<CaseLine> read_cases(const std::string& path) {
    std::ifstream in(path);
    if (!in) fail(exit_code::io_error, "--cases: cannot read " + path);
    std::vector<CaseLine> cases;
    std::set<std::string> names;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        std::istringstream words(line);
        CaseLine c;
        if (!(words >> c.name) || c.name[0] == '#') continue;
        std::string where = path + ":" + std::to_string(number) + ": ";
        if (!plain_name(c.name)) fail(exit_code::bad_usage, where + "a case name is letters, digits, . _ -, not '" + c.name + "'");
        if (!names.insert(c.name).second) fail(exit_code::bad_usage, where + "case '" + c.name + "' is named twice");
        for (std::string w; words >> w;) {
            if (w == "--cases" || w.rfind("--cases=", 0) == 0) fail(exit_code::bad_usage, where + "a case cannot name --cases");
            c.args.push_back(w);
        }
        cases.push_back(c);
    }
    if (cases.empty()) fail(exit_code::bad_usage, "--cases: " + path + " holds no case");
    return cases;
}

ArgParser make_parser(const LabInfo& lab) {
    std::string parts;
    for (const std::string& p : lab.parts) parts += (parts.empty() ? "" : ", ") + p;
    ArgParser args(lab.name, lab.summary + "\nparts: " + parts);
    if (lab.declare_options) lab.declare_options(args);
    declare_driver_options(args, lab.parts);
    return args;
}

// A case ready to run: its options, checked, and the case made from them.
struct PreparedCase {
    std::string name;  // "" outside a cases file
    DriverOptions options;
    std::unique_ptr<LabCase> lab_case;
};

void make_folder(const std::string& path) {
    if (mkdir(path.c_str(), 0777) != 0 && errno != EEXIST) fail(exit_code::io_error, "cannot make the folder " + path);
}

int worse(int a, int b) {
    auto rank = [](int code) { return code == exit_code::bad_usage ? 2 : code == exit_code::wrong_result ? 1 : 0; };
    return rank(a) >= rank(b) ? a : b;
}

class Driver {
public:
    explicit Driver(const LabInfo& lab) : lab_(lab) {}

    int main(int argc, char** argv) {
        // Every case's options are read and checked before anything runs, and before the GPU
        // is looked for: a mistake is reported at once, also on a machine without a GPU.
        std::vector<PreparedCase> cases;
        ArgParser args = make_parser(lab_);
        args.parse(argc, argv);
        DriverOptions options = read_driver_options(args, lab_.parts);
        if (options.cases_file.empty()) {
            cases.push_back({"", options, lab_.make_case(args, options)});
        } else {
            for (const CaseLine& line : read_cases(options.cases_file)) {
                std::vector<const char*> case_argv(argv, argv + argc);
                for (const std::string& a : line.args) case_argv.push_back(a.c_str());
                ArgParser case_args = make_parser(lab_);
                case_args.parse(int(case_argv.size()), case_argv.data());
                DriverOptions case_options = read_driver_options(case_args, lab_.parts);
                case_options.csv_header = options.csv_header && cases.empty();
                cases.push_back({line.name, case_options, lab_.make_case(case_args, case_options)});
            }
        }

        // Every launch counted from here on, however it is spelled (launch_trace.hpp): before
        // the GPU is looked for, so that a trace the grader requires and cannot have stops the
        // program at once.
        start_launch_trace(options.launch_trace);
        const GpuInfo* gpu = nullptr;
        if (lab_.needs_gpu) {
            std::string reason = why_no_gpu(options.device);
            if (!reason.empty() && !lab_.host_parts.empty() && only_host_parts(cases)) {
                std::fprintf(stderr, "No GPU (%s): the parts chosen run on the CPU, so they run without one.\n", reason.c_str());
            } else {
                if (!reason.empty() && !lab_.host_parts.empty())
                    std::fprintf(stderr, "Without a GPU only the CPU parts run: --part %s\n", join_names(lab_.host_parts).c_str());
                gpu_ = require_gpu(options.device);
                gpu = &gpu_;
            }
        }
        int status = exit_code::ok;
        for (PreparedCase& c : cases) {
            std::string out = c.options.out_dir;
            if (!out.empty() && !c.name.empty()) {
                out += "/" + c.name;
                make_folder(out);
            }
            c.lab_case->setup(gpu, stream_);
            if (c.options.csv && c.options.csv_header) std::printf("%s\n", RunReport::csv_header(lab_, *c.lab_case).c_str());
            status = worse(status, run_case_parts(lab_, c.options, *c.lab_case, gpu, stream_, c.name, out));
            c.lab_case.reset();  // its device memory is free before the next case
            if (!c.options.csv && &c != &cases.back()) std::printf("\n");
        }
        return status;
    }

private:
    bool only_host_parts(const std::vector<PreparedCase>& cases) const {
        for (const PreparedCase& c : cases)
            for (const std::string& part : c.options.parts)
                if (std::find(lab_.host_parts.begin(), lab_.host_parts.end(), part) == lab_.host_parts.end()) return false;
        return true;
    }
    // The parts among `names` (host_parts also lists host yardsticks), comma-separated.
    std::string join_names(const std::vector<std::string>& names) const {
        std::string text;
        for (const std::string& n : names)
            if (std::find(lab_.parts.begin(), lab_.parts.end(), n) != lab_.parts.end()) text += (text.empty() ? "" : ",") + n;
        return text;
    }

    const LabInfo& lab_;
    GpuInfo gpu_;
    // Every part runs and is timed on CUDA's legacy default stream, which waits for all work on
    // every other blocking stream: whatever a part starts, on cudaStreamPerThread, a side stream
    // or the default stream, finishes inside its time and before its output is read.
    cudaStream_t stream_ = cudaStreamLegacy;
};

}  // namespace

int run_lab(const LabInfo& lab, int argc, char** argv) { return Driver(lab).main(argc, argv); }
