// Lab 6 as the shared driver core sees it (common/lab_case.hpp): its driver's main() and its
// tests run the same lab, the same parts and the same validator.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "lab_case.hpp"
#include "sort.h"

struct SortPart {
    const char* name;         // as in the manifest's `parts` and --part
    const char* sample_kernels;  // its kernels in NVIDIA's sortingNetworks sample
    bool one_block;           // sorts a whole array in one block: lengths up to shared_size_limit
    void (*run)(const SortProblem&, Launcher&);
};

// The parts, in order: the driver runs them and the tests check them from this one list
// (common/part_table.hpp looks a part up by name).
const std::vector<SortPart>& sort_parts();

constexpr long long max_sort_length = 1ll << 26;  // one array: 512 MiB of pairs
constexpr long long max_sort_total = 1ll << 28;   // batch x length: 32-bit indices, 2 GiB of pairs

// Checks --length, --batch and their product; stops with a clear message (exit 2) when wrong.
void check_sort_size(long long length, long long batch);

// The input of one run: batch x length keys uniform in [0, key_range) (NVIDIA's sample draws them
// below 65536, so long arrays hold many equal keys), then as many values, random 32-bit words: the
// SeededRandom draws of `seed` in that order (key i is draw i, value i draw batch x length + i).
// A run's seed is the case's --seed for its checked run, one of its own for every other run
// (common/lab_case.hpp, load_inputs).
struct SortInput {
    std::vector<uint32_t> keys, values;
};
SortInput sort_input(unsigned batch, unsigned length, uint64_t key_range, uint64_t seed);
// The same pairs drawn on the GPU, on `stream`, into device arrays of batch x length; with
// float_keys (may be null) the keys also as floats (thrust_float's row).
void draw_sort_input(uint32_t* keys, uint32_t* values, float* float_keys, unsigned batch, unsigned length,
                     uint64_t key_range, uint64_t seed, cudaStream_t stream);

// The driver's exact check of a part's output against its input: every array sorted in the
// requested direction, its keys a permutation of the input array's (the same multiset), and its
// (key, value) pairs those of the input array, each as often (a value still with its key, none
// lost, none duplicated, none made up). `message` names the first problem found and its array
// and position; `wrong_arrays` counts the arrays with any. The input may be given in any order
// within each array (the driver passes the reference's sorted pairs).
struct SortVerdict {
    bool ok = true;
    std::string message;
    size_t wrong_arrays = 0;
};
SortVerdict validate_sort(const std::vector<uint32_t>& input_keys, const std::vector<uint32_t>& input_values,
                          const std::vector<uint32_t>& keys, const std::vector<uint32_t>& values, unsigned batch,
                          unsigned length, bool ascending);

// What the driver checks and the grader compares (exactly) with the reference run's: the keys as
// the part left them, then the values, with the values of each run of equal neighbouring keys in
// ascending order. Sorting networks are not stable, so the order of equal keys' values is not
// unique; this form of the output is: it is the same for every correct sort (the pairs sorted by
// key, then by value) and differs for every wrong one.
std::vector<double> graded_output(const std::vector<uint32_t>& keys, const std::vector<uint32_t>& values, unsigned batch,
                                  unsigned length);

LabInfo lab6();
