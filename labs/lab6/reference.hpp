// Lab 6's CPU reference: each array's (key, value) pairs sorted on the CPU by key in the
// requested direction, equal keys by value ascending: the one form (lab6.hpp: graded_output) in
// which every correct part's output must equal it exactly, whatever order its unstable sort left
// equal keys' values in.
#pragma once
#include <cstdint>
#include <vector>

// keys and values: batch arrays of length pairs each, one after another. Sorts each array's
// pairs in place: by key, ascending or descending, then by value, ascending.
void sort_pairs(std::vector<uint32_t>& keys, std::vector<uint32_t>& values, unsigned batch, unsigned length,
                bool ascending);

// The driver's way in (common/reference_hook.hpp), so that the grader's builds for submissions
// can leave this file out.
using SortPairsFunction = void(std::vector<uint32_t>& keys, std::vector<uint32_t>& values, unsigned batch,
                               unsigned length, bool ascending);
