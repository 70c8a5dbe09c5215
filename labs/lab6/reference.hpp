// Lab 6's CPU reference: each array's keys sorted on the CPU (std::sort), the answer every
// correct part's keys must equal exactly. Only the keys: with equal keys the order of their
// values is not unique (sorting networks are not stable), so the values are checked by the
// driver's validator instead (lab6.hpp: validate_sort).
#pragma once
#include <cstdint>
#include <vector>

// keys: batch arrays of length each, one after another. Returns them with each array sorted,
// ascending or descending.
std::vector<uint32_t> sorted_keys(const std::vector<uint32_t>& keys, unsigned batch, unsigned length, bool ascending);

// The driver's way in (common/reference_hook.hpp), so that the grader's builds for submissions
// can leave this file out.
using SortedKeysFunction = std::vector<uint32_t>(const std::vector<uint32_t>& keys, unsigned batch, unsigned length,
                                                 bool ascending);
