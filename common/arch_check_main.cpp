// arch-check: would every kernel of these CUDA sources launch on every architecture the course
// builds for (README.md: sm_75 to sm_120)? No GPU is needed: it reads the PTX and the ptxas
// report that make builds for each source and architecture (BUILD/arch/sm_XX/SOURCE.ptx and
// .ptxas, the Makefile's "every architecture's resources"), and tests/scripts/arch.sh runs it:
//
//   arch-check --build build --archs "75 120" --manifest labs/lab1/manifest
//              --sources "labs/lab1/matmul.cu solutions/lab1/matmul.cu"
//
// Each kernel is checked on each architecture by check_launch_limits(), the launcher's own check,
// against that architecture's limits (common/arch_limits.hpp), with its registers and static shared
// memory as compiled for it. An architecture outside --archs gets the worst of the compiled ones:
// an estimate, and said so.
//
// What a launch asks for is read without running the host code, which needs a GPU:
//   - threads per block: the kernel's __launch_bounds__ where it has one (the runtime refuses a
//     larger block), else 1024, the most a block may have on any of these GPUs: the labs' drivers
//     let a student choose blocks up to 1024 threads (--block 1024, --tile 32), so every kernel
//     without a bound must be able to run them;
//   - dynamic shared memory: the manifest's launch.dynamic_shared, the largest amount each kernel's
//     launches ask for (labs/MANIFEST.md). A kernel that uses dynamic shared memory and is not
//     listed there fails: nothing else says how much it gets.
// Spills are warnings: such a kernel launches, and only runs slower.
//
// Exit status: 0 when every kernel launches everywhere, 1 when one does not, 2 on bad usage and
// 6 when a report cannot be read.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "arch_limits.hpp"
#include "args.hpp"
#include "exit_codes.hpp"
#include "fail.hpp"
#include "launch_limits.hpp"
#include "manifest.hpp"
#include "ptxas_report.hpp"

namespace {

std::string read_file(const std::string& path) {
    std::ifstream in(path);
    if (!in) fail(exit_code::io_error, "cannot read " + path + " (tests/scripts/arch.sh builds it with make)");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string without_blanks(std::string s) {
    s.erase(std::remove_if(s.begin(), s.end(), [](char c) { return c == ' ' || c == '\t'; }), s.end());
    return s;
}

// launch.dynamic_shared = NAME=BYTES ...: the kernel's name as this tool prints it.
std::map<std::string, size_t> declared_dynamic_shared(const Manifest& manifest) {
    std::map<std::string, size_t> declared;
    for (const std::string& word : manifest.list("launch.dynamic_shared")) {
        size_t eq = word.rfind('=');
        char* end = nullptr;
        unsigned long long bytes = eq == std::string::npos ? 0 : std::strtoull(word.c_str() + eq + 1, &end, 10);
        if (eq == std::string::npos || eq == 0 || !end || *end != '\0' || end == word.c_str() + eq + 1)
            fail(exit_code::bad_usage, manifest.origin() + ": launch.dynamic_shared: '" + word +
                                           "' is not KERNEL=BYTES (labs/MANIFEST.md)");
        declared[without_blanks(word.substr(0, eq))] = size_t(bytes);
    }
    return declared;
}

// One kernel of one source (by its symbol: overloads share a name): what it needs on each
// compiled architecture.
struct Kernel {
    std::string source, symbol, name;
    std::map<int, CompiledKernel> on;  // by architecture
};

// The worst (largest) registers and static shared memory over the compiled architectures.
CompiledKernel worst(const Kernel& k) {
    CompiledKernel w = k.on.begin()->second;
    for (const auto& [sm, c] : k.on) {
        w.registers = std::max(w.registers, c.registers);
        w.static_shared_bytes = std::max(w.static_shared_bytes, c.static_shared_bytes);
        w.stack_frame_bytes = std::max(w.stack_frame_bytes, c.stack_frame_bytes);
        w.spill_store_bytes = std::max(w.spill_store_bytes, c.spill_store_bytes);
        w.spill_load_bytes = std::max(w.spill_load_bytes, c.spill_load_bytes);
        w.uses_dynamic_shared = w.uses_dynamic_shared || c.uses_dynamic_shared;
        w.launch_bound = w.launch_bound && c.launch_bound ? std::min(w.launch_bound, c.launch_bound) : 0;
    }
    return w;
}

std::string list_archs(const std::vector<int>& archs) {
    std::string text;
    for (int sm : archs) text += (text.empty() ? "" : " ") + architecture_name(sm);
    return text;
}

// Every kernel of every source, as compiled for each architecture of `compiled`.
std::vector<Kernel> read_kernels(const std::string& build, const std::vector<int>& compiled,
                                 const std::vector<std::string>& sources) {
    std::vector<Kernel> kernels;
    for (const std::string& source : sources) {
        for (int sm : compiled) {
            std::string base = build + "/arch/" + architecture_name(sm) + "/" + source;
            std::vector<CompiledKernel> found;
            try {
                found = read_compiled_kernels(read_file(base + ".ptx"), read_file(base + ".ptxas"));
            } catch (const PtxasReportError& e) {
                fail(exit_code::io_error, base + ".ptxas: " + e.what());
            }
            for (CompiledKernel& c : found) {
                auto same = [&](const Kernel& k) { return k.source == source && k.symbol == c.symbol; };
                auto it = std::find_if(kernels.begin(), kernels.end(), same);
                if (it == kernels.end()) it = kernels.insert(kernels.end(), Kernel{source, c.symbol, c.name, {}});
                it->on[sm] = c;
            }
        }
    }
    return kernels;
}

struct Findings {
    std::vector<std::string> lines;  // "FAIL  ..." and "warn  ...", printed after the table
    int failures = 0, warnings = 0;
    void fail(const std::string& text) { lines.push_back("FAIL  " + text), ++failures; }
    void warn(const std::string& text) { lines.push_back("warn  " + text), ++warnings; }
};

// Checks one kernel on every architecture and prints its row of the table.
void check_kernel(const Kernel& k, const std::map<std::string, size_t>& declared, const std::string& manifest,
                  const std::vector<int>& compiled, Findings& findings) {
    const CompiledKernel w = worst(k);
    auto listed = declared.find(without_blanks(k.name));
    const size_t dynamic = listed == declared.end() ? 0 : listed->second;
    if (w.uses_dynamic_shared && listed == declared.end())
        findings.fail(k.source + ": " + k.name + " uses dynamic shared memory (extern __shared__), but " +
                      (manifest.empty() ? std::string("no manifest") : manifest) +
                      "'s launch.dynamic_shared does not say how much its launches ask for");

    const int threads = w.launch_bound > 0 ? std::min(w.launch_bound, 1024) : 1024;
    const std::string launch =
        std::to_string(threads) + " threads" +
        (w.launch_bound > 0 ? " (its __launch_bounds__)" : " (no __launch_bounds__ limits it)") +
        (dynamic ? ", " + std::to_string(dynamic) + " B of dynamic shared memory (the manifest)" : "");
    // The architectures where it would not launch, by reason: most reasons hold on several.
    std::vector<std::pair<std::string, std::string>> refusals;  // reason, architectures
    int fewest_threads = 1024;                                   // the largest block its registers allow everywhere
    for (int sm : known_architectures()) {
        const cudaDeviceProp gpu = architecture_limits(sm);
        const bool estimated = !k.on.count(sm);
        const CompiledKernel& c = estimated ? w : k.on.at(sm);
        KernelResources resources{c.registers, c.static_shared_bytes,
                                  max_threads_for_registers(gpu, c.registers, c.launch_bound)};
        fewest_threads = std::min(fewest_threads, resources.max_threads_per_block);
        try {
            check_launch_limits(gpu, resources, LaunchConfig{dim3(1), dim3(unsigned(threads)), dynamic});
        } catch (const LaunchRefused& e) {
            std::string where = architecture_name(sm) + (estimated ? "*" : "") + " (" + architecture_family(sm) + ")";
            auto same = std::find_if(refusals.begin(), refusals.end(), [&](const auto& r) { return r.first == e.what(); });
            if (same == refusals.end()) refusals.push_back({e.what(), where});
            else same->second += ", " + where;
        }
    }
    for (const auto& [reason, where] : refusals)
        findings.fail(k.source + ": " + k.name + " on " + where + ": " + reason + "; launched with " + launch +
                      (where.find('*') != std::string::npos
                           ? " (* its resources estimated from " + list_archs(compiled) + ")"
                           : ""));
    for (const auto& [sm, c] : k.on)
        if (c.spill_store_bytes || c.spill_load_bytes)
            findings.warn(k.source + ": " + k.name + " spills on " + architecture_name(sm) + ": " +
                          std::to_string(c.spill_store_bytes) + " bytes stored, " +
                          std::to_string(c.spill_load_bytes) + " loaded (" + std::to_string(c.registers) +
                          " registers; it launches, but its spilled values go through local memory)");

    int worst_sm = k.on.begin()->first;
    for (const auto& [sm, c] : k.on)
        if (c.registers > k.on.at(worst_sm).registers) worst_sm = sm;
    std::string regs = std::to_string(w.registers) + " " + architecture_name(worst_sm);
    std::string block = w.launch_bound > 0 ? std::to_string(threads) : "any";
    std::string spills = std::to_string(w.spill_store_bytes) + "/" + std::to_string(w.spill_load_bytes);
    std::printf("%-30s %-34s %14s %7zu %8zu %6s %7d %6d %14s\n", k.source.c_str(), k.name.c_str(), regs.c_str(),
                w.static_shared_bytes, dynamic, block.c_str(), fewest_threads, w.stack_frame_bytes, spills.c_str());
}

}  // namespace

int main(int argc, char** argv) {
    ArgParser args("arch-check", "Checks every kernel of the sources against the launch limits of sm_75 to sm_120, "
                                 "from the PTX and ptxas reports make builds under BUILD/arch (no GPU needed).");
    args.option("build", "DIR", "build", "where make put BUILD/arch/sm_XX/SOURCE.ptx and .ptxas");
    args.option("archs", "\"75 120\"", "75 120", "the architectures compiled for (the others are estimated)");
    args.option("manifest", "FILE", "", "the manifest whose launch.dynamic_shared says what launches ask for");
    args.option("sources", "\"A.cu B.cu\"", "", "the sources to check, as paths from the repository root");
    args.parse(argc, argv);

    std::vector<int> compiled;
    for (const std::string& word : split_words(args.text("archs"))) {
        int sm = std::atoi(word.c_str());
        try {
            architecture_limits(sm);
        } catch (const std::invalid_argument& e) {
            fail(exit_code::bad_usage, std::string("--archs: ") + e.what());
        }
        compiled.push_back(sm);
    }
    const std::vector<std::string> sources = split_words(args.text("sources"));
    if (compiled.empty() || sources.empty()) fail(exit_code::bad_usage, "--archs and --sources are needed (see --help)");
    std::map<std::string, size_t> declared;
    const std::string manifest = args.text("manifest");
    if (!manifest.empty()) {
        try {
            declared = declared_dynamic_shared(Manifest::load(manifest));
        } catch (const ManifestError& e) {
            fail(exit_code::io_error, e.what());
        }
    }
    const std::vector<Kernel> kernels = read_kernels(args.text("build"), compiled, sources);

    std::printf("registers: the most a thread over the compiled architectures, and where; static and dynamic:\n"
                "shared memory bytes a block; block: the kernel's __launch_bounds__, or any; max: the largest\n"
                "block its registers allow on every architecture; stack: local memory bytes a thread.\n");
    std::printf("%-30s %-34s %14s %7s %8s %6s %7s %6s %14s\n", "source", "kernel", "registers", "static",
                "dynamic", "block", "max", "stack", "spills st/ld");
    Findings findings;
    for (const Kernel& k : kernels) check_kernel(k, declared, manifest, compiled, findings);
    // A listed kernel must exist and use dynamic shared memory: a stale entry hides nothing, but
    // says something false.
    for (const auto& [name, bytes] : declared) {
        bool used = std::any_of(kernels.begin(), kernels.end(), [&](const Kernel& k) {
            return without_blanks(k.name) == name && worst(k).uses_dynamic_shared;
        });
        if (!used)
            findings.fail(manifest + ": launch.dynamic_shared lists " + name + ", but no kernel of " +
                          args.text("sources") + " by that name uses dynamic shared memory");
    }
    for (const std::string& line : findings.lines) std::printf("%s\n", line.c_str());

    std::vector<int> estimated;
    for (int sm : known_architectures())
        if (std::find(compiled.begin(), compiled.end(), sm) == compiled.end()) estimated.push_back(sm);
    const std::string estimated_text = estimated.empty() ? "" : " and " + list_archs(estimated) + " (estimated)";
    std::printf("%zu kernels on %s (compiled)%s: %d failures, %d spill warnings\n", kernels.size(),
                list_archs(compiled).c_str(), estimated_text.c_str(), findings.failures, findings.warnings);
    return findings.failures ? 1 : 0;
}
