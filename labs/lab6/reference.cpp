#include "reference.hpp"

#include <algorithm>
#include <functional>

#include "reference_hook.hpp"

std::vector<uint32_t> sorted_keys(const std::vector<uint32_t>& keys, unsigned batch, unsigned length, bool ascending) {
    std::vector<uint32_t> sorted(keys);
    for (size_t a = 0; a < batch; ++a) {
        auto first = sorted.begin() + a * length, last = first + length;
        if (ascending) std::sort(first, last);
        else std::sort(first, last, std::greater<uint32_t>());
    }
    return sorted;
}

namespace {
ReferenceHook<SortedKeysFunction>::Install install(&sorted_keys);
}  // namespace
