// The interface between the shared driver core (lab_main.hpp) and one lab's driver.
//
// The core owns everything a lab does not teach: the options every lab shares, the GPU, the
// per-part loop (poison the outputs, run the part once, record its launches, wait with a
// deadline, check it against the CPU reference, time it), the table, the CSV rows, the result
// files for the grader and lists of cases in one process. A lab's driver says only what is
// its own: its options and data (a LabCase), its CPU reference and error bound, its parts and
// its yardstick, and the unit its table reports.
#pragma once
#include <cuda_runtime.h>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "args.hpp"
#include "driver_options.hpp"
#include "gpu.hpp"
#include "launcher.cuh"
#include "result_files.hpp"

// The rate a lab's table shows beside the time: work() units per second, over `scale`.
struct Metric {
    // Which roofline ceiling bounds the work: with fp32_flops, work() counts floating-point
    // operations; with memory_bytes, the bytes the case must move at least once. The driver
    // records the time that work takes at the GPU's peak (results.tsv: floor_ms), and the grader
    // gives no performance points to a time below it (no honest measurement can be).
    enum class Bound { none, fp32_flops, memory_bytes };
    std::string title;     // table column: "GFLOP/s", "GB/s", "Gkeys/s"
    std::string csv_name;  // CSV column: "gflops"
    double scale = 1e9;
    Bound bound = Bound::none;
};

// What a part did, once it has run and been timed: what PartRun::note describes.
struct PartResult {
    const OutputArray* output = nullptr;  // the last timed run's output; null when not checked
    const std::vector<LaunchConfig>* launches = nullptr;  // the launches of one run, in order
    double median_ms = 0;
};

// How to run one part, or the yardstick, on the current case.
struct PartRun {
    // Puts one run on launcher.stream() through the launcher; must not synchronise. A part or
    // yardstick that does not run in a case says so with `skip` below, not by leaving this empty.
    std::function<void(Launcher&)> run;
    // Values of LabInfo::config_columns for this part ("-" where a setting does not apply).
    std::vector<std::string> config;
    // A rule of the lab that this part's launches must follow (lab1: the dynamic part asks for
    // dynamic shared memory). Returns what is wrong, or "" when nothing is.
    std::function<std::string(const std::vector<LaunchConfig>&)> launch_rule;
    // The work runs on the host (OpenMP, a CPU yardstick): timed with the host clock.
    bool host_timed = false;
    // The output it writes, by the name the case gives it ("C"); parts that compute the same
    // thing write the same output and are checked against the same reference.
    std::string output = "out";
    // False for a yardstick whose output is not the parts' answer (lab2's plain device copy
    // beside its transpose): nothing is checked or downloaded, only the time counts.
    bool checked = true;
    // Where one case holds parts of different kinds (lab2: multiplies and a transpose), a part
    // names its own metric (a csv_name of LabInfo::metrics; "": the first), the work it does
    // in that metric's units (0: the case's work()) and the yardstick its "%" compares with
    // (a name of LabInfo::yardsticks; "": the first). Several names, separated by spaces: the
    // fastest of them in the same run (lab2's transpose: a cudaMemcpy2D and a copy kernel,
    // whichever moves the matrix faster on this GPU).
    std::string metric;
    double work = 0;
    std::string yardstick;
    // Text the table shows at the end of the part's row once it has run and been timed (lab 5:
    // the sum, the grid of each launch, the speedup over the rows above). For the screen only:
    // it goes neither into the CSV rows nor into results.tsv.
    std::function<std::string(const PartResult&)> note;
    // A yardstick that does not run in this case, and why (lab3: the CPU's triple loop above
    // --cpu-max-n, which would take minutes a run). Its row says so; the parts measured against
    // it show no "%". Nothing is run, checked or timed, and no reference is computed for it.
    // A part may sit out the same way where it does not apply to the case (lab6: the one-block
    // sorts for arrays longer than a block holds): results.tsv records it as `skipped` with the
    // reason, and the grader scores it there as on the cases it ran (grading/FORMATS.md).
    // Decide it from the case's options alone, never from what the student's code does.
    std::string skip;
};

// What an output is made of: its element type and how many elements it has.
struct OutputShape {
    DType dtype = DType::f64;
    size_t count = 0;
};

// What the CPU reference says the output should be: every element or a sample of them, and
// how far each may lie from the exact answer (a bound that follows from the arithmetic; zero
// for exact results).
struct Reference {
    std::vector<size_t> positions;  // empty: every element, in order
    std::vector<double> value, bound;
    std::string how;         // which elements: "every element", "4200 elements (...)"
    std::string bound_name;  // what the bound is: "gamma_K (|A||B|)_ij", "0 (exact)"
};

// The outcome of checking one output against the reference.
struct Verdict {
    bool pass = false;
    std::string detail;  // for a failure: the first wrong element and how many were wrong
};

// One case of a lab: its data on the GPU and everything the core asks about it. The lab's
// make_case reads and checks the case's options (so a bad one is refused even where there is
// no GPU); setup() then makes the data and puts it on the GPU.
class LabCase {
public:
    virtual ~LabCase() = default;
    // gpu is null for a lab that needs no GPU; the parts run on `stream`.
    virtual void setup(const GpuInfo* gpu, cudaStream_t stream) = 0;

    // One line: "C(1000x1000) = A(1000x1000) * B(1000x1000), --tile 32".
    virtual std::string describe() const = 0;
    // The case's settings, name and value, for the results record and the CSV rows.
    virtual std::vector<std::pair<std::string, std::string>> settings() const = 0;
    // Metric units one run does: 2 M N K operations, the bytes moved, the keys sorted.
    virtual double work() const = 0;
    // Lines the heading shows after setup(), each a complete line ("pitch  A: 4096 bytes ...").
    virtual std::vector<std::string> notes() const { return {}; }

    virtual PartRun part(const std::string& name) = 0;  // a name from LabInfo::parts
    virtual PartRun yardstick(const std::string& /*name: one of LabInfo::yardsticks*/) { return {}; }

    // Makes an output garbage (all bits set: NaN for floats) before every run of a part, so an
    // element the part never writes fails.
    virtual void poison(const std::string& output, cudaStream_t stream) = 0;
    // Puts in place the inputs drawn from `seed` for a run of `part` (a part's or a yardstick's
    // name), on the stream, before the run's start event, so it is never timed. Every run
    // computes on inputs of its own: the checked run on the case's (from --seed, or --data-seed),
    // every warm-up and timed run on a seed the driver draws from the operating system as it
    // calls this (part_loop.hpp), so that no run's inputs can be known before it: a result kept
    // from an earlier run is no answer to a later one, and the grader's reference run
    // (--data-seed) makes the same inputs again. The data comes from `seed` alone (SeededRandom,
    // random_data.hpp; the GPU draws them, random_fill.hpp), except where the case's own data is
    // the checked run's (lab 3's graph file: `seed` is then the case's --seed). Here a lab also
    // clears any buffer of its own that would hold the part's answer while it runs (lab 2: A
    // transposed, the input of one part, is the answer of another).
    virtual void load_inputs(const std::string& part, uint64_t seed, cudaStream_t stream) = 0;
    // An output after the last run, copied to the host (dtype as written for the grader).
    virtual OutputArray download(const std::string& output) = 0;
    // The element type and count of an output as download() returns it, known from the case's
    // options alone. --reference-outputs (make labN-check's reference side, built on the
    // starter) writes the CPU reference's answer in this shape without running, allocating
    // through or reading anything of the student file's: a starter's TODO returns nothing.
    virtual OutputShape output_shape(const std::string& output) const = 0;

    // True when the whole reference is cheap enough for --check auto.
    virtual bool full_reference_is_cheap() const { return true; }
    // The CPU reference of an output for the inputs drawn from `seed` (load_inputs): every
    // element, or (full = false) a sample where that is cheaper, its positions drawn from
    // --sample-seed (the grader's secret). Called once per output and seed: for the checked run,
    // and after the timing for the timed runs whose outputs were kept.
    virtual Reference reference(const std::string& output, uint64_t seed, bool full) = 0;
    // Host threads a part timed on the host is given (lab 7: --threads): the driver runs it on
    // exactly that many CPUs (part_loop.hpp). 0: it does not pin them.
    virtual int host_threads() const { return 0; }
    // How a message names element `index` of an output: "C[3][17]".
    virtual std::string element_name(const std::string& output, size_t index) const {
        return output + "[" + std::to_string(index) + "]";
    }
    // Checks an output against its reference, `tolerance` bounds allowed. The default compares
    // element by element (compare.hpp); a lab whose right answer is not unique overrides it.
    virtual Verdict verify(const std::string& output, const OutputArray& got, const Reference& reference,
                           double tolerance);
};

// What a lab tells the core about itself.
struct LabInfo {
    std::string name;     // the lab's folder name; drivers pass LAB_NAME, which the build sets
    std::string summary;  // one line for --help
    std::vector<std::string> parts;  // the graded parts, in ladder order: the manifest's `parts`
    // The rates its table shows; the first is every part's unless the part names another.
    std::vector<Metric> metrics;
    // What the parts are measured against in the same run (a library, a plain copy), each a
    // row of the table; a part's "%" column compares it with one of them. Empty: none.
    struct Yardstick {
        std::string name;   // its row: "cublas"
        std::string title;  // "cuBLAS", as in "% cuBLAS"
    };
    std::vector<Yardstick> yardsticks;
    std::vector<std::string> config_columns;  // per-part settings the table shows: "tile", "depth"
    bool needs_gpu = true;  // false only for the grader's CPU test lab
    // Parts and yardsticks that run on the host alone (lab7's OpenMP loops). Where no GPU is
    // usable and every part chosen is one of these, they run without it (and the other
    // yardsticks are left out); otherwise no GPU stops the driver as usual.
    std::vector<std::string> host_parts;
    // The clock of host-timed parts, in milliseconds (default: std::chrono::steady_clock).
    std::function<double()> host_clock_ms;
    std::function<void(ArgParser&)> declare_options;  // the lab's own options
    // One case from the parsed options (the seed is among the shared ones); it stops with fail()
    // on a bad value or combination. It must not touch the GPU: setup() does.
    std::function<std::unique_ptr<LabCase>(const ArgParser&, const DriverOptions&)> make_case;
};

// The make_case of a lab whose case reads its own options in its constructor, as every lab's
// does: `lab.make_case = make_case_of<MatmulCase>;`.
template <class Case>
std::unique_ptr<LabCase> make_case_of(const ArgParser& args, const DriverOptions& options) {
    return std::make_unique<Case>(args, options);
}

// Stops with a clear message when the GPU has fewer than `bytes` free (plus room to work).
void require_device_memory(size_t bytes);
