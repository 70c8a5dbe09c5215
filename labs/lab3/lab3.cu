// Lab 3 trusted driver: only what is about Floyd-Warshall. The graph comes from a file (--graph,
// graph.hpp reads it) or from the seeded generator; the driver builds the distance matrix the
// parts start from and, before every run, puts that run's own graph there (the parts work in
// place; run_graph.hpp: the checked run computes on the case's graph, every other run on a graph
// of its own drawn on the GPU from the run's seed). It checks every part exactly against the CPU
// reference (reference.hpp): the triple loop up to N = 2048, else a sample of rows by Dijkstra.
// Yardsticks in the same run: the CPU's triple loop for the one-launch-per-k parts (skipped above
// --cpu-max-n), the driver's own 2D kernel for the blocked part, and the CPU's loop over the
// matrix for the diameter. Options, timing, tables and result files are the shared driver core's.
#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "device_buffer.hpp"
#include "floyd.h"
#include "graph.hpp"
#include "lab3.hpp"
#include "random_data.hpp"
#include "reference.hpp"
#include "reference_hook.hpp"
#include "run_graph.hpp"
#include "table.hpp"

namespace {

// Up to this N (8.6e9 relaxations, seconds on one core) --check auto runs the triple loop over
// the whole matrix; above it, rows by Dijkstra.
constexpr int full_check_max_n = 2048;
constexpr int sampled_rows = 16;
// Where a sample is asked for (a timed run's kept output, the grader's reference run), up to this
// N the whole matrix is still compared: the triple loop takes a few hundredths of a second there.
constexpr int whole_sample_max_n = 400;

// The yardstick of the blocked part, and how the driver makes the diameter part's input: the
// plain 2D kernel, the student report's without its index detour. One thread per element, one launch per k,
// every element read and written at every step. Row k and column k do not change in step k
// (dist[k][k] = 0), so their threads have nothing to do, and no thread writes what another reads.
__global__ void trusted_fw_2d_kernel(int* dist, int n, int k) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= n || j >= n || i == k || j == k) return;
    dist[i * n + j] = min(dist[i * n + j], dist[i * n + k] + dist[k * n + j]);
}

// The GPU's min-plus limit: relaxations d = min(a + b, d) a second when a kernel does nothing
// else, the ceiling of every Floyd-Warshall kernel (the blocked part's "% of the limit"). Each
// thread relaxes an 8 x 16 tile of distances against 8 + 16 entries in registers, as the
// blocked kernel's inner loop does against a row and a column of its tiles; the 8 row entries
// grow by one every step (8 adds a step beside the 128 relaxations, so the measured limit is
// within 6% of the pure one), so that no step repeats the last and none can be folded away.
// One __viaddmin_s32 (DPX) a relaxation on sm_90 and later, an add and a min before.
constexpr int limit_rows = 8, limit_cols = 16, limit_steps = 1024, limit_threads = 128;

__device__ __forceinline__ int limit_relax(int a, int b, int d) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    return __viaddmin_s32(a, b, d);
#else
    return min(a + b, d);
#endif
}

__global__ void __launch_bounds__(limit_threads) minplus_limit_kernel(int* sink, int seed) {
    int a[limit_rows], b[limit_cols], d[limit_rows][limit_cols];
#pragma unroll
    for (int i = 0; i < limit_rows; ++i) a[i] = seed + int(threadIdx.x) + 3 * i;
#pragma unroll
    for (int j = 0; j < limit_cols; ++j) b[j] = seed ^ (5 * j);
#pragma unroll
    for (int i = 0; i < limit_rows; ++i)
#pragma unroll
        for (int j = 0; j < limit_cols; ++j) d[i][j] = FW_INF - i - j;
    for (int step = 0; step < limit_steps; ++step) {
#pragma unroll
        for (int i = 0; i < limit_rows; ++i)
#pragma unroll
            for (int j = 0; j < limit_cols; ++j) d[i][j] = limit_relax(a[i], b[j], d[i][j]);
#pragma unroll
        for (int i = 0; i < limit_rows; ++i) a[i] += 1;
    }
    int least = FW_INF;
#pragma unroll
    for (int i = 0; i < limit_rows; ++i)
#pragma unroll
        for (int j = 0; j < limit_cols; ++j) least = min(least, d[i][j]);
    if (least == seed) *sink = least;  // never true for the -1 the driver passes: keeps the work
}

OutputArray as_output(const int* values, size_t count) {
    return OutputArray{DType::i32, std::vector<double>(values, values + count), {}};
}

bool is_power_of_two(long long x) { return x > 0 && (x & (x - 1)) == 0; }

std::string launches_text(const std::vector<LaunchConfig>& launches) {
    std::string shapes;
    for (const LaunchConfig& c : launches) {
        std::string s = std::to_string(c.block.x) + "x" + std::to_string(c.block.y) +
                        (c.block.z > 1 ? "x" + std::to_string(c.block.z) : "");
        if (shapes.find(s) == std::string::npos) shapes += (shapes.empty() ? "" : ", ") + s;
    }
    return std::to_string(launches.size()) + " (blocks " + shapes + ")";
}

class FloydCase : public LabCase {
public:
    FloydCase(const ArgParser& args, const DriverOptions& options)
        : block_(int(args.integer("block", 1, 64))), cpu_max_n_(int(args.integer("cpu-max-n", 0, max_vertices))),
          seed_(options.seed), sample_seed_(options.sample_seed), parts_(options.parts),
          yardsticks_(!options.no_yardstick) {
        if (!lab3_block_accepted(block_))
            fail(exit_code::bad_usage, "--block must be a power of two from 1 to 64 (the handout's experiment: 8, 16, "
                                       "32), got " + std::to_string(block_));
        graph_file_ = args.text("graph");
        if (!graph_file_.empty()) {
            for (const char* option : {"n", "density", "min-weight", "max-weight", "components"})
                if (args.is_set(option))
                    fail(exit_code::bad_usage, std::string("--graph reads the graph from a file, and --") + option +
                                                   " describes a generated one: give one or the other");
            try {
                graph_ = read_graph(graph_file_);
            } catch (const GraphFileMissing& e) {
                fail(exit_code::io_error, e.what());
            } catch (const GraphError& e) {
                fail(exit_code::bad_usage, e.what());
            }
            n_ = graph_.n;
        } else {
            spec_.n = int(args.integer("n", 1, max_vertices));
            spec_.density = args.number("density", 0, 1);
            spec_.min_weight = int(args.integer("min-weight", 0, FW_INF - 1));
            spec_.max_weight = int(args.integer("max-weight", 0, FW_INF - 1));
            spec_.components = int(args.integer("components", 1, max_vertices));
            try {
                check_random_spec(spec_);
            } catch (const GraphError& e) {
                fail(exit_code::bad_usage, e.what());
            }
            n_ = spec_.n;
        }
    }

    void setup(const GpuInfo* gpu, cudaStream_t stream) override {
        stream_ = stream;
        if (gpu) {
            // A full wave of the min-plus limit kernel: as many blocks as every SM holds at once.
            int per_sm = 0;
            CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, minplus_limit_kernel, limit_threads, 0));
            limit_blocks_ = unsigned(std::max(per_sm, 1) * gpu->prop.multiProcessorCount);
        }
        limit_sink_ = DeviceBuffer<int>(1);
        // The checked run's graph, on the host: the file, or the generator's (once a case: at N = 2048
        // and density 0.1, about 0.11 s of CPU time on the development machine). The other runs'
        // graphs are drawn on the GPU (run_graph.hpp): their host twin takes about 0.09 s there,
        // which dozens of runs a part would multiply; the CPU reference alone draws on the host.
        if (graph_file_.empty()) graph_ = random_graph(spec_, seed_);
        adjacency_ = adjacency_matrix(graph_, &stats_);
        graph_.arcs = std::vector<Arc>();  // the matrix holds what the parts need
        if (graph_file_.empty()) draws_ = pair_draws(spec_);
        else jitter_ = weight_jitter(adjacency_, n_);
        const size_t count = entries();
        const bool wants_diameter = chosen("diameter");
        // Index 0's matrix, the work copy every part runs on, and the diameter's input.
        require_device_memory((wants_diameter ? 3 : 2) * count * sizeof(int) + partial_capacity() * sizeof(int) +
                              (wants_diameter && gpu ? 2 * size_t(gpu->prop.l2CacheSize) : 0));
        pristine_ = DeviceBuffer<int>(count);
        pristine_.upload(adjacency_);
        dist_ = DeviceBuffer<int>(count);
        // Allocated right after dist_: a kernel that writes a little past the matrix (an index
        // checked on one side only) lands here rather than in a buffer the driver relies on;
        // memcheck still reports it, as the write is outside dist_'s allocation.
        guard_ = DeviceBuffer<int>(4096);
        if (wants_diameter) {
            diameter_in_ = DeviceBuffer<int>(count);
            partial_ = DeviceBuffer<int>(partial_capacity());
            result_ = DeviceBuffer<int>(1);
            // Twice the L2 cache, written before every run of the diameter (untimed), after its input
            // is made: the run then reads the matrix from memory, as its GB/s and the memory-bound
            // floor assume, and not from an L2 that still holds it (16 MiB at N = 2048 would fit).
            l2_flush_ = DeviceBuffer<char>(2 * size_t(gpu ? gpu->prop.l2CacheSize : 0) + 1);
        }
    }

    std::string describe() const override {
        return "all-pairs shortest paths, N = " + std::to_string(n_) + " (" + graph_.origin + "), --block " +
               std::to_string(block_);
    }
    std::vector<std::pair<std::string, std::string>> settings() const override {
        return {{"n", std::to_string(n_)}, {"blocksize", std::to_string(block_)}, {"arcs", std::to_string(stats_.arcs)}};
    }
    // A relaxation, dist[i][j] = min(dist[i][j], dist[i][k] + dist[k][j]), for every k, i, j.
    double work() const override { return double(n_) * double(n_) * double(n_); }
    double matrix_bytes() const { return double(entries()) * sizeof(int); }

    std::vector<std::string> notes() const override {
        std::vector<std::string> lines;
        std::string graph = "graph  " + std::to_string(n_) + " vertices, " + std::to_string(stats_.arcs) + " arcs";
        if (stats_.parallel) graph += ", " + std::to_string(stats_.parallel) + " parallel (the smallest weight kept)";
        if (stats_.self_loops) graph += ", " + std::to_string(stats_.self_loops) + " self-loops (ignored: dist[i][i] = 0)";
        lines.push_back(graph);
        lines.push_back("INF    unreachable = FW_INF = " + std::to_string(FW_INF) +
                        " (2^30 - 1): FW_INF + FW_INF still fits in an int");
        lines.push_back(runs_note());
        if (!yardsticks_) return lines;
        if (cpu_runs())
            lines.push_back("cpu    the row cpu is the plain triple loop on one core of the CPU above");
        else if (n_ > cpu_max_n_)
            lines.push_back("cpu    not timed: N = " + std::to_string(n_) + " is above --cpu-max-n " +
                            std::to_string(cpu_max_n_) + " (N^3 = " + format_fixed(work() / 1e9, 1) +
                            "e9 relaxations on one core); raise --cpu-max-n to time it");
        if (chosen("diameter"))
            lines.push_back("diam.  the diameter part reduces the distance matrix of the driver's own 2D kernel");
        return lines;
    }

    PartRun part(const std::string& name) override {
        PartRun run;
        run.output = "dist";
        run.yardstick = "cpu";
        if (name == "fw_1d") {
            run.run = [this](Launcher& launch) { fw_1d(dist_.get(), n_, block_, launch); };
            run.launch_rule = [this](const std::vector<LaunchConfig>& launches) { return one_per_k(launches, false); };
        } else if (name == "fw_2d") {
            run.run = [this](Launcher& launch) { fw_2d(dist_.get(), n_, block_, launch); };
            run.launch_rule = [this](const std::vector<LaunchConfig>& launches) { return one_per_k(launches, true); };
        } else if (name == "fw_blocked") {
            run.yardstick = "trusted_2d";
            run.run = [this](Launcher& launch) { fw_blocked(dist_.get(), n_, launch); };
        } else {  // diameter
            run.output = "diameter";
            run.metric = "gbps";
            run.work = matrix_bytes();
            run.yardstick = "cpu_diameter";
            run.run = [this](Launcher& launch) {
                diameter(diameter_in_.get(), n_, block_,
                         DiameterBuffers{partial_.get(), partial_capacity(), result_.get()}, launch);
            };
        }
        return run;
    }

    PartRun yardstick(const std::string& name) override {
        PartRun run;
        if (name == "cpu") {
            run.output = "dist_cpu";
            run.host_timed = true;
            if (!cpu_runs())
                run.skip = n_ > cpu_max_n_ ? "N = " + std::to_string(n_) + " is above --cpu-max-n " +
                                                 std::to_string(cpu_max_n_)
                                           : "no part chosen is timed against it";
            run.run = [this](Launcher&) { ReferenceHook<FloydCpuFunction>::get()(cpu_work_.data(), n_); };
        } else if (name == "trusted_2d") {
            run.output = "dist";
            if (!chosen("fw_blocked")) run.skip = "no part chosen is timed against it";
            run.run = [this](Launcher& launch) {
                const dim3 block{unsigned(block_), unsigned(block_)};
                const dim3 grid(ceil_div(unsigned(n_), unsigned(block_)), ceil_div(unsigned(n_), unsigned(block_)));
                for (int k = 0; k < n_; ++k) launch(trusted_fw_2d_kernel, grid, block, 0, dist_.get(), n_, k);
            };
        } else if (name == "minplus_limit") {
            // Nothing to check: only its rate counts (relaxations over time), beside fw_blocked's.
            run.output = "none";
            run.checked = false;
            if (!chosen("fw_blocked")) run.skip = "no part chosen is timed against it";
            run.work = double(limit_blocks_) * limit_threads * limit_steps * limit_rows * limit_cols;
            run.run = [this](Launcher& launch) {
                launch(minplus_limit_kernel, dim3(limit_blocks_), dim3(limit_threads), 0, limit_sink_.get(), -1);
            };
        } else {  // cpu_diameter
            run.output = "diameter_cpu";
            run.host_timed = true;
            run.metric = "gbps";
            run.work = matrix_bytes();
            if (!chosen("diameter")) run.skip = "no part chosen is timed against it";
            run.run = [this](Launcher&) {
                cpu_diameter_ = ReferenceHook<DiameterCpuFunction>::get()(diameter_host_.data(), entries());
            };
        }
        return run;
    }

    // The parts work in place: their output is their input, which load_inputs writes whole right
    // after this (a part that did nothing leaves the run's graph, which is wrong on every graph
    // with a shortest path of two arcs or more). The diameter's result gets -1, which no
    // diameter is.
    void poison(const std::string& output, cudaStream_t stream) override {
        if (output == "diameter") result_.fill_bytes(0xFF, stream);
        if (output == "diameter_cpu") cpu_diameter_ = -1;
    }

    // The graph of the run of `seed` where `part` starts from it: the adjacency matrix for the
    // Floyd-Warshall parts and yardsticks, its distance matrix (the driver's own 2D kernel's) for
    // the diameter. Before that, whatever the driver holds that is another part's answer is
    // cleared: a distance matrix (the diameter's input, the CPU yardstick's result or its host
    // copy) is the Floyd-Warshall parts' answer on the same graph (every part's checked run is
    // on the case's), and the CPU's diameter the diameter part's.
    void load_inputs(const std::string& part, uint64_t seed, cudaStream_t stream) override {
        if (part != "diameter" && part != "cpu_diameter" && diameter_in_holds_result_) {
            diameter_in_.fill_bytes(0xFF, stream);
            diameter_in_holds_result_ = false;
        }
        if (part != "cpu" && cpu_work_holds_result_) {
            std::fill(cpu_work_.begin(), cpu_work_.end(), -1);
            cpu_work_holds_result_ = false;
        }
        if (part != "cpu_diameter") diameter_host_ = std::vector<int>();
        cpu_diameter_ = -1;

        if (part == "cpu") {
            cpu_work_ = host_matrix(seed);
            cpu_work_holds_result_ = true;
        } else if (part == "diameter") {
            trusted_distances(diameter_in_.get(), seed, stream);
            l2_flush_.fill_bytes(0, stream);  // last: the run reads its matrix from memory
        } else if (part == "cpu_diameter") {
            diameter_host_ = trusted_distances_on_host(seed);
        } else if (part == "minplus_limit") {
            // registers only: no input
        } else {  // fw_1d, fw_2d, fw_blocked, trusted_2d
            load_matrix(dist_.get(), seed, stream);
        }
    }

    OutputArray download(const std::string& output) override {
        if (output == "dist_cpu") return as_output(cpu_work_.data(), cpu_work_.size());
        if (output == "diameter_cpu") return as_output(&cpu_diameter_, 1);
        if (output == "diameter") {
            std::vector<int> result = result_.download();
            return as_output(result.data(), 1);
        }
        std::vector<int> dist = dist_.download();
        return as_output(dist.data(), dist.size());
    }
    OutputShape output_shape(const std::string& output) const override {
        return {DType::i32, output == "diameter" || output == "diameter_cpu" ? 1 : entries()};
    }

    bool full_reference_is_cheap() const override { return n_ <= full_check_max_n; }
    Reference reference(const std::string& output, uint64_t seed, bool full) override {
        Reference r;
        if (output == "diameter" || output == "diameter_cpu") {
            std::vector<int> distances = trusted_distances_on_host(seed);
            r.value = {double(ReferenceHook<DiameterCpuFunction>::get()(distances.data(), entries()))};
            r.how = "the diameter of the driver's distance matrix";
        } else {
            // Both outputs are the same matrix: computed once per seed.
            full = full || n_ <= whole_sample_max_n;
            auto key = std::make_pair(seed, full);
            auto it = distances_.find(key);
            if (it == distances_.end())
                it = distances_.emplace(key, full ? full_reference(seed) : sampled_reference(seed)).first;
            r = it->second;
        }
        // After the copy above: the cached matrix carries no bound name of its own.
        r.bound_name = "0 (exact)";
        r.bound.assign(r.value.size(), 0.0);
        return r;
    }

    std::string element_name(const std::string& output, size_t index) const override {
        if (output == "diameter" || output == "diameter_cpu") return "the diameter";
        return "dist[" + std::to_string(index / size_t(n_)) + "][" + std::to_string(index % size_t(n_)) + "]";
    }

    // The core's exact comparison, and a hint where an entry came out negative: no path is, so
    // an int overflowed.
    Verdict verify(const std::string& output, const OutputArray& got, const Reference& reference,
                   double tolerance) override {
        Verdict v = LabCase::verify(output, got, reference, tolerance);
        if (v.pass || output == "diameter" || output == "diameter_cpu") return v;
        size_t negative = 0;
        for (double x : got.values) negative += x < 0;
        if (negative)
            v.detail += "; " + std::to_string(negative) +
                        " entries are negative, which no path is: an int overflowed (FW_INF + FW_INF fits, INT_MAX + "
                        "anything does not)";
        return v;
    }

private:
    size_t entries() const { return size_t(n_) * size_t(n_); }
    size_t partial_capacity() const { return diameter_partial_capacity(n_, block_); }
    bool chosen(const std::string& part) const {
        return std::find(parts_.begin(), parts_.end(), part) != parts_.end();
    }
    bool cpu_runs() const { return yardsticks_ && n_ <= cpu_max_n_ && (chosen("fw_1d") || chosen("fw_2d")); }

    // The lab's rule for the one-launch-per-k parts: n launches of block x block threads, in 1D
    // blocks (fw_1d) or square 2D blocks (fw_2d).
    std::string one_per_k(const std::vector<LaunchConfig>& launches, bool two_d) const {
        const unsigned b = unsigned(block_);
        bool shaped = launches.size() == size_t(n_);
        for (const LaunchConfig& c : launches)
            shaped = shaped && c.block.z == 1 &&
                     (two_d ? c.block.x == b && c.block.y == b : c.block.x == b * b && c.block.y == 1);
        if (shaped) return "";
        return std::string(two_d ? "fw_2d" : "fw_1d") + " launches one kernel per k (" + std::to_string(n_) +
               " launches), each of " +
               (two_d ? std::to_string(b) + " x " + std::to_string(b) + " 2D blocks"
                      : "1D blocks of --block x --block = " + std::to_string(b * b) + " threads") +
               "; it launched " + launches_text(launches);
    }

    // Whether a run's seed is the case's own (--seed): the checked run's, which computes on the
    // case's graph itself. Every other run draws a seed of its own (common/part_loop.cpp).
    bool case_graph(uint64_t seed) const { return seed == seed_; }

    // The adjacency matrix of the run of `seed`, on the GPU into dst (n x n ints), on `stream`.
    void load_matrix(int* dst, uint64_t seed, cudaStream_t stream) {
        if (case_graph(seed))
            CUDA_CHECK(cudaMemcpyAsync(dst, pristine_.get(), entries() * sizeof(int), cudaMemcpyDeviceToDevice, stream));
        else if (!graph_file_.empty())
            jitter_adjacency_on_gpu(dst, pristine_.get(), entries(), jitter_, seed, stream);
        else
            draw_adjacency_on_gpu(dst, draws_, seed, stream);
    }

    // The same on the host, for the CPU reference and the CPU yardstick.
    std::vector<int> host_matrix(uint64_t seed) const {
        if (case_graph(seed)) return adjacency_;
        if (!graph_file_.empty()) return jittered_adjacency(adjacency_, jitter_, seed);
        return drawn_adjacency(draws_, seed);
    }

    // The distance matrix of the run of `seed` into dst (n x n ints) by the driver's own 2D
    // kernel, one launch per k, on `stream`: the diameter's input. The diameter's buffer then
    // holds what the Floyd-Warshall parts compute (cleared before they run: load_inputs).
    void trusted_distances(int* dst, uint64_t seed, cudaStream_t stream) {
        load_matrix(dst, seed, stream);
        const dim3 block(16, 16), grid(ceil_div(unsigned(n_), 16), ceil_div(unsigned(n_), 16));
        for (int k = 0; k < n_; ++k) {
            trusted_fw_2d_kernel<<<grid, block, 0, stream>>>(dst, n_, k);
            CUDA_CHECK_LAUNCH();
        }
        diameter_in_holds_result_ = true;
    }

    // The same on the host (the diameter's reference and the CPU's diameter), through the
    // diameter's buffer.
    std::vector<int> trusted_distances_on_host(uint64_t seed) {
        trusted_distances(diameter_in_.get(), seed, stream_);
        CUDA_CHECK(cudaStreamSynchronize(stream_));
        return diameter_in_.download();
    }

    // One line for the heading: which graph each run computes on.
    std::string runs_note() const {
        std::string text = "runs   run 0 (the checked run) on this graph; ";
        if (graph_file_.empty())
            return text + "every other run on a graph of its own, drawn from the same spec (a seed per run)";
        if (jitter_.spread == 0) return text + "the file has no nonzero weight to vary, so every other run on it too";
        return text + "every other run on the file's arcs with each nonzero weight moved by up to +-" +
               std::to_string(jitter_.spread) + " within " + std::to_string(jitter_.lo) + ".." +
               std::to_string(jitter_.hi) + " (a seed per run; zero weights and unreachable pairs stay)";
    }

    Reference full_reference(uint64_t seed) {
        Reference r;
        std::vector<int> d = host_matrix(seed);
        ReferenceHook<FloydCpuFunction>::get()(d.data(), n_);
        r.value.assign(d.begin(), d.end());
        r.how = "every element";
        return r;
    }

    // Rows 0 and N - 1 and rows drawn at random (from --sample-seed, the grader's secret), each
    // the distances from one vertex by Dijkstra: another algorithm than the one checked.
    Reference sampled_reference(uint64_t seed) {
        std::vector<int> sources = {0, n_ - 1};
        SeededRandom random(sample_seed_ ^ 0x5EEDull);
        while (int(sources.size()) < std::min(sampled_rows, n_)) {
            int s = int(random.integer(0, n_ - 1));
            if (std::find(sources.begin(), sources.end(), s) == sources.end()) sources.push_back(s);
        }
        std::sort(sources.begin(), sources.end());
        sources.erase(std::unique(sources.begin(), sources.end()), sources.end());
        std::vector<int> rows = ReferenceHook<ShortestRowsFunction>::get()(host_matrix(seed), n_, sources);
        Reference r;
        for (size_t s = 0; s < sources.size(); ++s)
            for (int j = 0; j < n_; ++j) r.positions.push_back(size_t(sources[s]) * size_t(n_) + size_t(j));
        r.value.assign(rows.begin(), rows.end());
        r.how = std::to_string(sources.size()) + " whole rows (0, the last and others at random) by Dijkstra";
        return r;
    }

    int n_ = 0, block_, cpu_max_n_;
    uint64_t seed_, sample_seed_;
    std::vector<std::string> parts_;
    bool yardsticks_;
    unsigned limit_blocks_ = 1;     // the min-plus limit kernel's grid: one full wave
    DeviceBuffer<int> limit_sink_;  // what the min-plus limit kernel would write (never does)
    std::string graph_file_;
    RandomGraphSpec spec_;
    Graph graph_;
    AdjacencyStats stats_;
    PairDraws draws_;      // a generated graph: how the runs after the checked run draw theirs
    WeightJitter jitter_;  // a file: how the runs after the checked run move its weights
    cudaStream_t stream_ = nullptr;
    std::vector<int> adjacency_;      // the checked run's matrix (pristine_ holds it on the GPU)
    std::vector<int> cpu_work_;       // the CPU yardstick's matrix, its result after a run
    std::vector<int> diameter_host_;  // the CPU diameter's input: a distance matrix
    int cpu_diameter_ = -1;
    bool diameter_in_holds_result_ = false, cpu_work_holds_result_ = false;
    DeviceBuffer<int> pristine_, dist_, guard_, diameter_in_, partial_, result_;
    DeviceBuffer<char> l2_flush_;
    std::map<std::pair<uint64_t, bool>, Reference> distances_;  // by seed and whole or sampled
};

}  // namespace

bool lab3_block_accepted(long long block) { return block >= 1 && block <= 64 && is_power_of_two(block); }

size_t diameter_partial_capacity(int n, int block) {
    const size_t threads = size_t(block) * size_t(block);
    return (size_t(n) * size_t(n) + threads - 1) / threads;
}

LabInfo lab3() {
    LabInfo lab;
    lab.name = LAB_NAME;
    lab.summary = "Runs the parts of floyd.cu on one graph (a file, --graph, or a seeded random one), checks them "
                  "exactly against a CPU reference and times them beside the CPU's triple loop, the plain 2D kernel "
                  "(for fw_blocked) and the CPU's loop over the matrix (for the diameter).";
    lab.parts = {"fw_1d", "fw_2d", "fw_blocked", "diameter"};
    // A relaxation is an add and a min on ints: no FP32 ceiling bounds it, so no floor. The
    // diameter reads the matrix once: the memory bandwidth bounds it.
    lab.metrics = {{"Grelax/s", "grelax", 1e9, Metric::Bound::none}, {"GB/s", "gbps", 1e9, Metric::Bound::memory_bytes}};
    lab.yardsticks = {{"cpu", "the CPU's triple loop"},
                      {"trusted_2d", "the plain 2D kernel"},
                      {"minplus_limit", "the GPU's min-plus limit (relaxations alone)"},
                      {"cpu_diameter", "the CPU's loop over the matrix"}};
    lab.declare_options = [](ArgParser& args) {
        args.option("graph", "FILE", "", "read the graph from FILE (.gr: DIMACS, else the plain format; "
                                         "labs/lab3/graphs/README.md) instead of generating one");
        args.option("n", "N", "1000", "vertices of the generated graph (at most 46340)");
        args.option("density", "P", "0.1", "probability of each arc i -> j of the generated graph");
        args.option("min-weight", "W", "1", "smallest arc weight of the generated graph (0 allowed)");
        args.option("max-weight", "W", "100", "largest arc weight of the generated graph");
        args.option("components", "K", "1", "split the generated graph into K parts with no arc between them");
        args.option("block", "B", "16", "fw_1d: 1D blocks of B x B threads; fw_2d: B x B blocks; diameter: B x B "
                                        "threads a block. A power of two from 1 to 64; 64 x 64 threads is more "
                                        "than a block may have, so the launcher refuses it (the handout's "
                                        "experiment: 8, 16, 32)");
        args.option("cpu-max-n", "N", "2048", "time the CPU's triple loop only up to this N (0: never)");
    };
    lab.make_case = make_case_of<FloydCase>;
    return lab;
}
