// Lab 6 trusted driver: only what is about sorting. Seeded batches of (key, value) pairs of
// uint32 (values: each pair's position in its array), the parts of sort.cu, the exact
// validator, and the yardsticks on the same data in the same run: CUB's segmented sort for a
// batch, thrust::sort_by_key for one array (and, as the student report this lab quotes did, for float keys). The parts
// and Thrust sort in place: before every run of every row the driver copies the input back
// from a pristine copy, untimed, so every run sorts the same unsorted pairs (and finds them in
// the L2 cache as far as they fit: the same for every row).
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
#include "random_data.hpp"
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

const SortPart& sort_part(const std::string& name) {
    for (const SortPart& p : sort_parts())
        if (name == p.name) return p;
    fail(exit_code::bad_usage, "lab6 has no part named '" + name + "'");
}

std::vector<std::string> sort_part_names() {
    std::vector<std::string> names;
    for (const SortPart& p : sort_parts()) names.push_back(p.name);
    return names;
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
    SeededRandom random(seed);
    const size_t total = size_t(batch) * length;
    SortInput in;
    in.keys.resize(total);
    in.values.resize(total);
    for (size_t i = 0; i < total; ++i) {
        in.keys[i] = uint32_t((random.next() >> 32) % key_range);
        in.values[i] = uint32_t(i % length);
    }
    return in;
}

namespace {

std::string where(size_t array, size_t position) {
    return "array " + std::to_string(array) + ", position " + std::to_string(position);
}

// The first problem of one array, or "".
std::string check_array(const uint32_t* input, const uint32_t* keys, const uint32_t* values, size_t array,
                        unsigned length, bool ascending, std::vector<uint32_t>& a, std::vector<uint32_t>& b,
                        std::vector<unsigned char>& seen) {
    // The keys: the same multiset as the input's.
    a.assign(input, input + length);
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
    // The values: positions of the array, each once, each with its key.
    seen.assign(length, 0);
    for (unsigned i = 0; i < length; ++i) {
        uint32_t v = values[i];
        if (v >= length)
            return where(array, i) + ": value " + std::to_string(v) + " is not a position of the array (0 to " +
                   std::to_string(length - 1) + ")";
        if (seen[v]++) return where(array, i) + ": value " + std::to_string(v) + " appears twice in the array";
        if (input[v] != keys[i])
            return where(array, i) + ": key " + std::to_string(keys[i]) + " carries value " + std::to_string(v) +
                   ", but the input's pair " + std::to_string(v) + " has key " + std::to_string(input[v]) +
                   ": a value was left behind (keys moved without their values)";
    }
    return "";
}

}  // namespace

SortVerdict validate_sort(const std::vector<uint32_t>& input_keys, const std::vector<uint32_t>& keys,
                          const std::vector<uint32_t>& values, unsigned batch, unsigned length, bool ascending) {
    SortVerdict verdict;
    const size_t total = size_t(batch) * length;
    if (input_keys.size() != total || keys.size() != total || values.size() != total) {
        verdict.ok = false;
        verdict.message = "the output has " + std::to_string(keys.size()) + " keys and " + std::to_string(values.size()) +
                          " values, expected " + std::to_string(total);
        verdict.wrong_arrays = batch;
        return verdict;
    }
    std::vector<uint32_t> a, b;
    std::vector<unsigned char> seen;
    for (size_t array = 0; array < batch; ++array) {
        size_t first = array * length;
        std::string problem = check_array(&input_keys[first], &keys[first], &values[first], array, length, ascending, a, b,
                                          seen);
        if (problem.empty()) continue;
        if (verdict.ok) verdict.message = problem;
        verdict.ok = false;
        ++verdict.wrong_arrays;
    }
    if (!verdict.ok)
        verdict.message += "; " + std::to_string(verdict.wrong_arrays) + " of " + std::to_string(batch) + " arrays wrong";
    return verdict;
}

std::vector<double> graded_output(const std::vector<uint32_t>& input_keys, const std::vector<uint32_t>& keys,
                                  const std::vector<uint32_t>& values, unsigned batch, unsigned length) {
    const size_t total = size_t(batch) * length;
    std::vector<double> out(2 * total);
    std::vector<unsigned char> seen(length);
    for (size_t array = 0; array < batch; ++array) {
        std::fill(seen.begin(), seen.end(), 0);
        for (size_t i = array * length; i < (array + 1) * length; ++i) {
            uint32_t v = values[i];
            bool with_its_key = v < length && !seen[v]++ && input_keys[array * length + v] == keys[i];
            out[i] = keys[i];
            out[total + i] = with_its_key ? keys[i] : uint32_t(~keys[i]);
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
    SortCase(const ArgParser& args, const DriverOptions& options) : seed_(options.seed) {
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
        // keys and values: pristine, sorted in place, CUB's output; float keys for one array;
        // CUB's scratch; Thrust's (at most about two more copies of the pairs).
        require_device_memory(n * 8 * 3 + (batch_ == 1 ? n * 8 + n * 16 : 0) + cub_bytes_ + (batch_ + 1) * 4);
        input_ = sort_input(batch_, length_, key_range_, seed_);
        for (auto* b : {&pristine_keys_, &keys_, &cub_keys_}) *b = DeviceBuffer<uint32_t>(n);
        for (auto* b : {&pristine_values_, &values_, &cub_values_}) *b = DeviceBuffer<uint32_t>(n);
        pristine_keys_.upload(input_.keys);
        pristine_values_.upload(input_.values);
        std::vector<int> offsets(batch_ + 1);
        for (size_t a = 0; a <= batch_; ++a) offsets[a] = int(a * length_);
        offsets_ = DeviceBuffer<int>(batch_ + 1);
        offsets_.upload(offsets);
        cub_temp_ = DeviceBuffer<unsigned char>(std::max<size_t>(cub_bytes_, 1));
        if (batch_ == 1) {  // the student report's float experiment: the same keys as floats
            std::vector<float> f(input_.keys.begin(), input_.keys.end());
            pristine_float_keys_ = DeviceBuffer<float>(n);
            float_keys_ = DeviceBuffer<float>(n);
            pristine_float_keys_.upload(f);
        }
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
                    " MiB of pairs; before every run the driver copies them back from a pristine copy (the parts and "
                    "Thrust sort in place), untimed",
                "timed  from the unsorted pairs in device memory to the sorted pairs in device memory: every launch of "
                "a part, no copy to the host",
                "check  every array sorted " + std::string(ascending_ ? "ascending" : "descending") +
                    ", its keys the input's, every value still with its key (exact)"};
    }

    PartRun part(const std::string& name) override {
        const SortPart& p = sort_part(name);
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
        }  // the others are sorted in place: restore_inputs() puts the input there
    }
    void restore_inputs(cudaStream_t stream) override {
        keys_.copy_from(pristine_keys_, stream);
        values_.copy_from(pristine_values_, stream);
        if (batch_ == 1) float_keys_.copy_from(pristine_float_keys_, stream);
    }
    OutputArray download(const std::string& output) override {
        bool cub = output == "cub";
        got_keys_ = (cub ? cub_keys_ : keys_).download();
        got_values_ = (cub ? cub_values_ : values_).download();
        return OutputArray{DType::u32, graded_output(input_.keys, got_keys_, got_values_, batch_, length_), {}};
    }

    Reference reference(const std::string&, bool) override {
        if (reference_.value.empty()) {
            std::vector<uint32_t> sorted = ReferenceHook<SortedKeysFunction>::get()(input_.keys, batch_, length_, ascending_);
            reference_.value.assign(sorted.begin(), sorted.end());
            reference_.value.insert(reference_.value.end(), sorted.begin(), sorted.end());
            reference_.bound.assign(reference_.value.size(), 0.0);
            reference_.how = "every key, and every value's key";
            reference_.bound_name = "0 (exact)";
        }
        return reference_;
    }
    std::string element_name(const std::string&, size_t index) const override {
        size_t i = index % total();
        return std::string(index < total() ? "the key at " : "the key carried by the value at ") + "array " +
               std::to_string(i / length_) + ", position " + std::to_string(i % length_);
    }
    // The validator first, for a message that says what is wrong (a direction, a lost key, a
    // value left behind); then the element-by-element comparison with the CPU's sorted keys.
    Verdict verify(const std::string& output, const OutputArray& got, const Reference& reference,
                   double tolerance) override {
        SortVerdict v = validate_sort(input_.keys, got_keys_, got_values_, batch_, length_, ascending_);
        if (!v.ok) return {false, v.message};
        return LabCase::verify(output, got, reference, tolerance);
    }

private:
    size_t total() const { return size_t(batch_) * length_; }

    unsigned length_ = 1024, batch_ = 1;
    bool ascending_ = true;
    uint64_t key_range_ = 65536, seed_;
    cudaStream_t stream_ = nullptr;
    SortInput input_;
    DeviceBuffer<uint32_t> pristine_keys_, pristine_values_, keys_, values_, cub_keys_, cub_values_;
    DeviceBuffer<float> pristine_float_keys_, float_keys_;
    DeviceBuffer<int> offsets_;
    DeviceBuffer<unsigned char> cub_temp_;
    size_t cub_bytes_ = 0;
    KeptBlocks thrust_blocks_;
    std::vector<uint32_t> got_keys_, got_values_;  // the last download's, for verify()
    Reference reference_;
};

}  // namespace

LabInfo lab6() {
    LabInfo lab;
    lab.name = LAB_NAME;
    lab.summary = "Runs the sorting networks of sort.cu on one batch of (key, value) arrays, checks every array exactly "
                  "and times each beside CUB's segmented sort and thrust::sort_by_key.";
    lab.parts = sort_part_names();
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
    lab.make_case = [](const ArgParser& args, const DriverOptions& options) -> std::unique_ptr<LabCase> {
        return std::make_unique<SortCase>(args, options);
    };
    return lab;
}
