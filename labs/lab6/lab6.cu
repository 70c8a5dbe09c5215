// Lab 6 trusted driver: only what is about sorting. Seeded batches of (key, value) pairs of
// uint32, the parts of sort.cu, the exact validator, and the yardsticks on the same data in the
// same run: CUB's segmented sort for a batch, thrust::sort_by_key for one array (and, as the
// student report this lab quotes did, for float keys). The parts and Thrust sort in place:
// before every run of every row the driver draws that run's own pairs on the GPU (sort_input's,
// from the run's seed), untimed, so no run can hand in an earlier run's answer, and every row
// finds its input in the L2 cache as far as it fits, as it was just written.
//
// The values are random 32-bit words, not positions: a value is information the part must
// move, so a part that never reads them (and writes, say, each key's input position) fails.
// Sorting networks are not stable: with equal keys, two correct sorts may leave their values in
// different orders. The output the driver checks and writes for the grader is therefore one
// canonical form of the sorted pairs (graded_output): the keys as the part left them, then the
// values with each run of equal keys' values in ascending order. That is the same for every
// correct sort (the CPU reference sorts the pairs by key, then by value) and differs for every
// wrong one (a key out of order, a lost or duplicated pair, a value beside another key), so the
// grader compares it exactly, element by element, with the reference solution's. (Keys without
// duplicates would make the sorted pairs unique too, but they would change the keys --seed
// draws, below --key-range, 65536 by default, and no array longer than the range can have them.)
#include <cub/device/device_segmented_sort.cuh>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/sort.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "fail.hpp"
#include "lab6.hpp"
#include "lab_main.hpp"
#include "part_table.hpp"
#include "random_data.hpp"
#include "random_fill.hpp"
#include "reference.hpp"
#include "reference_hook.hpp"
#include "table.hpp"

const std::vector<SortPart>& sort_parts() {
    static const std::vector<SortPart> parts = {
        {"bitonic_shared", "bitonicSortShared", true, bitonic_shared},
        {"bitonic", "bitonicSortShared1 + bitonicMergeGlobal + bitonicMergeShared", false, bitonic},
        {"oddeven_shared", "oddEvenMergeSortShared", true, oddeven_shared},
        {"oddeven", "oddEvenMergeSortShared + oddEvenMergeGlobal", false, oddeven},
    };
    return parts;
}

void check_sort_size(long long length, long long batch) {
    if (length < 1 || (length & (length - 1)) != 0)
        fail(exit_code::bad_usage, "--length must be a power of two (1, 2, 4, ..., 1024, ...), got " +
                                       std::to_string(length) +
                                       ": a sorting network of this kind compares pairs at power-of-two strides; pad "
                                       "the array with the largest key to the next power of two to sort other lengths");
    if (length > max_sort_length)
        fail(exit_code::bad_usage, "--length must be at most " + std::to_string(max_sort_length) + " (2^26), got " +
                                       std::to_string(length));
    if (batch < 1) fail(exit_code::bad_usage, "--batch must be at least 1, got " + std::to_string(batch));
    if (batch * length > max_sort_total)
        fail(exit_code::bad_usage, "batch x length must be at most " + std::to_string(max_sort_total) +
                                       " pairs (2^28: 32-bit indices, 2 GiB of pairs), got " + std::to_string(batch) +
                                       " x " + std::to_string(length) + " = " + std::to_string(batch * length));
}

SortInput sort_input(unsigned batch, unsigned length, uint64_t key_range, uint64_t seed) {
    SeededRandom random(seed);  // the keys first, then the values
    const size_t total = size_t(batch) * length;
    SortInput in;
    in.keys.resize(total);
    in.values.resize(total);
    for (uint32_t& key : in.keys) key = uint32_t((random.next() >> 32) % key_range);
    for (uint32_t& value : in.values) value = uint32_t(random.next() >> 32);
    return in;
}

namespace {

// Key i is draw i of the seed, value i draw total + i, as sort_input draws them on the host.
__global__ void draw_keys_kernel(uint32_t* keys, float* float_keys, size_t total, uint64_t seed, uint64_t key_range) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < total; i += size_t(gridDim.x) * blockDim.x) {
        const uint32_t key = uint32_t((splitmix_at(seed, i) >> 32) % key_range);
        keys[i] = key;
        if (float_keys) float_keys[i] = float(key);
    }
}

}  // namespace

void draw_sort_input(uint32_t* keys, uint32_t* values, float* float_keys, unsigned batch, unsigned length,
                     uint64_t key_range, uint64_t seed, cudaStream_t stream) {
    const size_t total = size_t(batch) * length;
    const unsigned threads = 256, blocks = unsigned(std::min<size_t>((total + threads - 1) / threads, 65535));
    draw_keys_kernel<<<blocks, threads, 0, stream>>>(keys, float_keys, total, seed, key_range);
    CUDA_CHECK_LAUNCH();
    fill_bits(values, total, seed, total, stream);
}

namespace {

std::string where(size_t array, size_t position) {
    return "array " + std::to_string(array) + ", position " + std::to_string(position);
}

uint64_t pair_word(uint32_t key, uint32_t value) { return uint64_t(key) << 32 | value; }

// The first problem of one array, or "".
std::string check_array(const uint32_t* input_keys, const uint32_t* input_values, const uint32_t* keys,
                        const uint32_t* values, size_t array, unsigned length, bool ascending, std::vector<uint32_t>& a,
                        std::vector<uint32_t>& b, std::vector<uint64_t>& pairs, std::vector<unsigned>& taken) {
    // The keys: the same multiset as the input's.
    a.assign(input_keys, input_keys + length);
    b.assign(keys, keys + length);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    if (a != b) {
        auto m = std::mismatch(a.begin(), a.end(), b.begin());
        uint32_t key = std::min(*m.first, *m.second);
        long in_count = std::count(a.begin(), a.end(), key), out_count = std::count(b.begin(), b.end(), key);
        return "array " + std::to_string(array) + ": its keys are not a permutation of the input's (key " +
               std::to_string(key) + " is there " + std::to_string(out_count) + " times, in the input " +
               std::to_string(in_count) + "): a key was lost or duplicated";
    }
    // The order.
    for (unsigned i = 1; i < length; ++i) {
        bool wrong = ascending ? keys[i - 1] > keys[i] : keys[i - 1] < keys[i];
        if (!wrong) continue;
        bool reversed = true;
        for (unsigned j = 1; j < length && reversed; ++j) reversed = ascending ? keys[j - 1] >= keys[j] : keys[j - 1] <= keys[j];
        if (reversed)
            return "array " + std::to_string(array) + " is sorted " + (ascending ? "descending" : "ascending") +
                   ", but --dir " + (ascending ? "up" : "down") + " asks for " + (ascending ? "ascending" : "descending");
        return where(array, i) + ": key " + std::to_string(keys[i]) + " follows " + std::to_string(keys[i - 1]) +
               ": not " + (ascending ? "ascending" : "descending");
    }
    // The values: every (key, value) pair of the output is a pair of the input, each as often as
    // there. The input's pairs sorted; taken[j] counts the output's pairs matched to the run of
    // equal pairs that starts at j.
    pairs.resize(length);
    for (unsigned i = 0; i < length; ++i) pairs[i] = pair_word(input_keys[i], input_values[i]);
    std::sort(pairs.begin(), pairs.end());
    taken.assign(length, 0);
    for (unsigned i = 0; i < length; ++i) {
        const uint64_t pair = pair_word(keys[i], values[i]);
        const size_t first = size_t(std::lower_bound(pairs.begin(), pairs.end(), pair) - pairs.begin());
        if (first < length && pairs[first] == pair && first + taken[first] < length && pairs[first + taken[first]] == pair) {
            ++taken[first];
            continue;
        }
        if (first < length && pairs[first] == pair)
            return where(array, i) + ": key " + std::to_string(keys[i]) + " with value " + std::to_string(values[i]) +
                   " appears more often than in the input: a pair was duplicated";
        return where(array, i) + ": key " + std::to_string(keys[i]) + " carries value " + std::to_string(values[i]) +
               ", which no pair of the input with that key has: a value was left behind (keys moved without their "
               "values) or never read";
    }
    return "";
}

}  // namespace

SortVerdict validate_sort(const std::vector<uint32_t>& input_keys, const std::vector<uint32_t>& input_values,
                          const std::vector<uint32_t>& keys, const std::vector<uint32_t>& values, unsigned batch,
                          unsigned length, bool ascending) {
    SortVerdict verdict;
    const size_t total = size_t(batch) * length;
    if (input_keys.size() != total || input_values.size() != total || keys.size() != total || values.size() != total) {
        verdict.ok = false;
        verdict.message = "the output has " + std::to_string(keys.size()) + " keys and " + std::to_string(values.size()) +
                          " values, expected " + std::to_string(total);
        verdict.wrong_arrays = batch;
        return verdict;
    }
    std::vector<uint32_t> a, b;
    std::vector<uint64_t> pairs;
    std::vector<unsigned> taken;
    for (size_t array = 0; array < batch; ++array) {
        size_t first = array * length;
        std::string problem = check_array(&input_keys[first], &input_values[first], &keys[first], &values[first], array,
                                          length, ascending, a, b, pairs, taken);
        if (problem.empty()) continue;
        if (verdict.ok) verdict.message = problem;
        verdict.ok = false;
        ++verdict.wrong_arrays;
    }
    if (!verdict.ok)
        verdict.message += "; " + std::to_string(verdict.wrong_arrays) + " of " + std::to_string(batch) + " arrays wrong";
    return verdict;
}

std::vector<double> graded_output(const std::vector<uint32_t>& keys, const std::vector<uint32_t>& values, unsigned batch,
                                  unsigned length) {
    const size_t total = size_t(batch) * length;
    std::vector<double> out(2 * total);
    std::vector<uint32_t> run;
    for (size_t array = 0; array < batch; ++array) {
        const size_t end = (array + 1) * length;
        for (size_t first = array * length; first < end;) {
            size_t last = first + 1;  // [first, last): a run of equal keys, within the array
            while (last < end && keys[last] == keys[first]) ++last;
            run.assign(values.begin() + first, values.begin() + last);
            std::sort(run.begin(), run.end());
            for (size_t i = first; i < last; ++i) out[i] = keys[i], out[total + i] = run[i - first];
            first = last;
        }
    }
    return out;
}

namespace {

// thrust::sort_by_key's temporary storage, from blocks kept across runs: a request takes a free
// kept block large enough, else a new one (cudaMalloc) is made. Thrust asks for the same blocks
// in every run (scratch for the keys, the values and the radix passes, several alive at once),
// so new blocks are made only in the first, untimed run, and no timed run allocates.
struct KeptBlocks {
    struct Block {
        char* ptr;
        size_t bytes;
        bool in_use;
    };
    std::vector<Block> blocks;
    ~KeptBlocks() {
        for (const Block& b : blocks) cudaFree(b.ptr);
    }
};

struct KeptAllocator {
    using value_type = char;
    KeptBlocks* kept;
    char* allocate(std::ptrdiff_t n) {
        for (KeptBlocks::Block& b : kept->blocks)
            if (!b.in_use && b.bytes >= size_t(n)) {
                b.in_use = true;
                return b.ptr;
            }
        char* ptr = nullptr;
        CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&ptr), std::max<size_t>(size_t(n), 1)));
        kept->blocks.push_back({ptr, size_t(n), true});
        return ptr;
    }
    void deallocate(char* ptr, size_t) {
        for (KeptBlocks::Block& b : kept->blocks)
            if (b.ptr == ptr) b.in_use = false;
    }
};

std::string dir_name(bool ascending) { return ascending ? "up" : "down"; }

class SortCase : public LabCase {
public:
    SortCase(const ArgParser& args, const DriverOptions&) {
        long long length = args.integer("length", 0, 1ll << 40);  // 0 and others: check_sort_size says why
        long long batch = args.integer("batch", 1, max_sort_total);
        if (args.text("total") != "0") {
            if (args.text("batch") != "1")
                fail(exit_code::bad_usage, "give --batch or --total (the pairs of the whole batch), not both");
            long long total = args.integer("total", 1, max_sort_total);
            if (total % length != 0 || total < length)
                fail(exit_code::bad_usage, "--total " + std::to_string(total) + " is not a multiple of --length " +
                                               std::to_string(length));
            batch = total / length;
        }
        check_sort_size(length, batch);
        length_ = unsigned(length);
        batch_ = unsigned(batch);
        std::string dir = args.text("dir");
        if (dir != "up" && dir != "down") fail(exit_code::bad_usage, "--dir must be up or down, got '" + dir + "'");
        ascending_ = dir == "up";
        key_range_ = uint64_t(args.integer("key-range", 1, 1ll << 32));
    }

    void setup(const GpuInfo*, cudaStream_t stream) override {
        stream_ = stream;
        const size_t n = total();
        CUDA_CHECK(cub::DeviceSegmentedSort::SortPairs(nullptr, cub_bytes_, static_cast<const uint32_t*>(nullptr),
                                                       static_cast<uint32_t*>(nullptr), static_cast<const uint32_t*>(nullptr),
                                                       static_cast<uint32_t*>(nullptr), int(n), int(batch_),
                                                       static_cast<const int*>(nullptr), static_cast<const int*>(nullptr),
                                                       stream));
        size_t cub_down_bytes = 0;
        CUDA_CHECK(cub::DeviceSegmentedSort::SortPairsDescending(
            nullptr, cub_down_bytes, static_cast<const uint32_t*>(nullptr), static_cast<uint32_t*>(nullptr),
            static_cast<const uint32_t*>(nullptr), static_cast<uint32_t*>(nullptr), int(n), int(batch_),
            static_cast<const int*>(nullptr), static_cast<const int*>(nullptr), stream));
        cub_bytes_ = std::max(cub_bytes_, cub_down_bytes);
        // keys and values: sorted in place, CUB's output; float keys for one array; CUB's
        // scratch; Thrust's (at most about two more copies of the pairs).
        require_device_memory(n * 8 * 2 + (batch_ == 1 ? n * 4 + n * 16 : 0) + cub_bytes_ + (batch_ + 1) * 4);
        for (auto* b : {&keys_, &cub_keys_}) *b = DeviceBuffer<uint32_t>(n);
        for (auto* b : {&values_, &cub_values_}) *b = DeviceBuffer<uint32_t>(n);
        std::vector<int> offsets(batch_ + 1);
        for (size_t a = 0; a <= batch_; ++a) offsets[a] = int(a * length_);
        offsets_ = DeviceBuffer<int>(batch_ + 1);
        offsets_.upload(offsets);
        cub_temp_ = DeviceBuffer<unsigned char>(std::max<size_t>(cub_bytes_, 1));
        if (batch_ == 1) float_keys_ = DeviceBuffer<float>(n);  // the student report's float experiment: the same keys as floats
    }

    std::string describe() const override {
        return std::to_string(batch_) + (batch_ == 1 ? " array" : " arrays") + " of " + std::to_string(length_) +
               " (key, value) pairs of uint32, " + (ascending_ ? "ascending" : "descending") + " (--dir " +
               dir_name(ascending_) + "); keys uniform below " + std::to_string(key_range_);
    }
    std::vector<std::pair<std::string, std::string>> settings() const override {
        return {{"length", std::to_string(length_)}, {"batch", std::to_string(batch_)}, {"dir", dir_name(ascending_)}};
    }
    double work() const override { return double(total()); }  // keys sorted

    std::vector<std::string> notes() const override {
        return {"input  " + format_fixed(total() * 8 / 1048576.0, 1) +
                    " MiB of pairs, values random 32-bit words; before every run the driver draws the run's own pairs "
                    "on the GPU (the parts and Thrust sort in place), untimed",
                "timed  from the unsorted pairs in device memory to the sorted pairs in device memory: every launch of "
                "a part, no copy to the host",
                "check  every array sorted " + std::string(ascending_ ? "ascending" : "descending") +
                    " and its (key, value) pairs the input's (exact): only a value moved with its key is right; equal "
                    "keys may end in any order, so their values are compared in ascending order"};
    }

    PartRun part(const std::string& name) override {
        const SortPart& p = part_named(sort_parts(), name);
        PartRun run;
        run.output = "sorted";
        run.yardstick = batch_ == 1 ? "thrust" : "cub";
        if (p.one_block && length_ > shared_size_limit) {
            run.skip = "one block sorts at most " + std::to_string(shared_size_limit) + " pairs, and --length is " +
                       std::to_string(length_) + " (part " + std::string(name).substr(0, name.find('_')) +
                       " sorts it)";
            return run;
        }
        run.run = [this, &p](Launcher& launch) {
            p.run(SortProblem{keys_.get(), values_.get(), batch_, length_, ascending_}, launch);
        };
        return run;
    }

    PartRun yardstick(const std::string& name) override {
        PartRun run;
        if (name == "cub") {
            run.output = "cub";
            run.run = [this](Launcher&) {
                size_t bytes = cub_bytes_;
                const int n = int(total()), segments = int(batch_);
                if (ascending_)
                    CUDA_CHECK(cub::DeviceSegmentedSort::SortPairs(cub_temp_.get(), bytes, keys_.get(), cub_keys_.get(),
                                                                   values_.get(), cub_values_.get(), n, segments,
                                                                   offsets_.get(), offsets_.get() + 1, stream_));
                else
                    CUDA_CHECK(cub::DeviceSegmentedSort::SortPairsDescending(
                        cub_temp_.get(), bytes, keys_.get(), cub_keys_.get(), values_.get(), cub_values_.get(), n,
                        segments, offsets_.get(), offsets_.get() + 1, stream_));
            };
        } else if (name == "thrust" || name == "thrust_float") {
            if (batch_ != 1) {
                run.skip = "thrust::sort_by_key sorts one array: --batch 1 only (CUB's segmented sort is the batch's "
                           "yardstick)";
                return run;
            }
            const bool as_float = name == "thrust_float";
            run.output = as_float ? "float" : "sorted";
            run.checked = !as_float;  // the student report's float row: only its time counts
            run.run = [this, as_float](Launcher&) {
                KeptAllocator alloc{&thrust_blocks_};
                auto policy = thrust::cuda::par_nosync(alloc).on(stream_);
                const size_t n = total();
                if (as_float) {
                    float* k = float_keys_.get();
                    if (ascending_) thrust::sort_by_key(policy, k, k + n, values_.get(), thrust::less<float>());
                    else thrust::sort_by_key(policy, k, k + n, values_.get(), thrust::greater<float>());
                } else {
                    uint32_t* k = keys_.get();
                    if (ascending_) thrust::sort_by_key(policy, k, k + n, values_.get(), thrust::less<uint32_t>());
                    else thrust::sort_by_key(policy, k, k + n, values_.get(), thrust::greater<uint32_t>());
                }
                CUDA_CHECK(cudaGetLastError());
            };
        }
        return run;
    }

    void poison(const std::string& output, cudaStream_t stream) override {
        if (output == "cub") {
            cub_keys_.fill_bytes(0xFF, stream);
            cub_values_.fill_bytes(0xFF, stream);
        }  // the others are sorted in place: load_inputs() puts the run's input there
    }
    // The run's own pairs, drawn on the GPU into the buffers the parts sort in place (and, for
    // thrust_float, the same keys as floats). Before them, every other buffer that a run of
    // another row left a sorted answer in is cleared, so that no buffer this process holds has
    // the answer while a part runs: CUB's output, the float keys Thrust sorted, and the
    // libraries' scratch (which hold copies of the pairs mid-sort). The pairs come last, so
    // they are what the L2 cache holds when the run starts.
    void load_inputs(const std::string& part, uint64_t seed, cudaStream_t stream) override {
        if (part != "cub") {
            cub_keys_.fill_bytes(0xFF, stream);
            cub_values_.fill_bytes(0xFF, stream);
        }
        cub_temp_.fill_bytes(0xFF, stream);
        for (const KeptBlocks::Block& b : thrust_blocks_.blocks) CUDA_CHECK(cudaMemsetAsync(b.ptr, 0xFF, b.bytes, stream));
        const bool float_row = part == "thrust_float";
        if (!float_row) float_keys_.fill_bytes(0xFF, stream);
        draw_sort_input(keys_.get(), values_.get(), float_row ? float_keys_.get() : nullptr, batch_, length_, key_range_,
                        seed, stream);
    }
    OutputArray download(const std::string& output) override {
        bool cub = output == "cub";
        return OutputArray{
            DType::u32, graded_output((cub ? cub_keys_ : keys_).download(), (cub ? cub_values_ : values_).download(), batch_, length_),
            {}};
    }
    // graded_output: the keys, then the values.
    OutputShape output_shape(const std::string&) const override { return {DType::u32, 2 * total()}; }

    // The pairs of the run of `seed` sorted on the CPU, equal keys by value: the canonical form of
    // every correct sort (graded_output). Always whole: the check is exact and cheap.
    Reference reference(const std::string&, uint64_t seed, bool) override {
        SortInput in = sort_input(batch_, length_, key_range_, seed);
        ReferenceHook<SortPairsFunction>::get()(in.keys, in.values, batch_, length_, ascending_);
        Reference r;
        r.value.assign(in.keys.begin(), in.keys.end());
        r.value.insert(r.value.end(), in.values.begin(), in.values.end());
        r.bound.assign(r.value.size(), 0.0);
        r.how = "every key and every value (equal keys' values in ascending order)";
        r.bound_name = "0 (exact)";
        return r;
    }
    std::string element_name(const std::string&, size_t index) const override {
        size_t i = index % total();
        return std::string(index < total() ? "the key at " : "the value (equal keys' values in ascending order) at ") +
               "array " + std::to_string(i / length_) + ", position " + std::to_string(i % length_);
    }
    // The validator first, for a message that says what is wrong (a direction, a lost key, a
    // value left behind), on the output's canonical form against the reference's (a
    // permutation of the run's input pairs); then the exact element-by-element comparison.
    Verdict verify(const std::string& output, const OutputArray& got, const Reference& reference,
                   double tolerance) override {
        const size_t n = total();
        if (got.values.size() == 2 * n && reference.value.size() == 2 * n) {
            auto half = [](const std::vector<double>& v, size_t first, size_t count) {
                return std::vector<uint32_t>(v.begin() + first, v.begin() + first + count);
            };
            SortVerdict v = validate_sort(half(reference.value, 0, n), half(reference.value, n, n), half(got.values, 0, n),
                                          half(got.values, n, n), batch_, length_, ascending_);
            if (!v.ok) return {false, v.message};
        }
        return LabCase::verify(output, got, reference, tolerance);
    }

private:
    size_t total() const { return size_t(batch_) * length_; }

    unsigned length_ = 1024, batch_ = 1;
    bool ascending_ = true;
    uint64_t key_range_ = 65536;
    cudaStream_t stream_ = nullptr;
    DeviceBuffer<uint32_t> keys_, values_, cub_keys_, cub_values_;
    DeviceBuffer<float> float_keys_;
    DeviceBuffer<int> offsets_;
    DeviceBuffer<unsigned char> cub_temp_;
    size_t cub_bytes_ = 0;
    KeptBlocks thrust_blocks_;
};

}  // namespace

LabInfo lab6() {
    LabInfo lab;
    lab.name = LAB_NAME;
    lab.summary = "Runs the sorting networks of sort.cu on one batch of (key, value) arrays, checks every array exactly "
                  "and times each beside CUB's segmented sort and thrust::sort_by_key.";
    lab.parts = part_names(sort_parts());
    lab.metrics = {{"Mkeys/s", "mkeys", 1e6, Metric::Bound::none}};
    lab.yardsticks = {{"cub", "CUB DeviceSegmentedSort::SortPairs"},
                      {"thrust", "thrust::sort_by_key (one array)"},
                      {"thrust_float", "thrust::sort_by_key of float keys (one array, as the student report timed it; unchecked)"}};
    lab.declare_options = [](ArgParser& args) {
        args.option("length", "L", "1024", "pairs in each array: a power of two, 1 to 2^26");
        args.option("batch", "B", "1", "how many arrays (batch x length at most 2^28)");
        args.option("total", "N", "0", "instead of --batch: N pairs in all, batch = N / length (the sample's 1048576)");
        args.option("dir", "up|down", "up", "up: ascending, down: descending");
        args.option("key-range", "K", "65536", "keys uniform in [0, K), 1 to 2^32 (the sample's 65536)");
    };
    lab.make_case = make_case_of<SortCase>;
    return lab;
}
