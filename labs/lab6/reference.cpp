#include "reference.hpp"

#include <algorithm>

#include "reference_hook.hpp"

void sort_pairs(std::vector<uint32_t>& keys, std::vector<uint32_t>& values, unsigned batch, unsigned length,
                bool ascending) {
    // A pair as one word, key above value; descending keys as their complement, so that one
    // ascending sort of the words orders by key either way and equal keys by value ascending.
    const uint32_t flip = ascending ? 0 : 0xFFFFFFFFu;
    std::vector<uint64_t> words(length);
    for (size_t a = 0; a < batch; ++a) {
        const size_t first = a * length;
        for (size_t i = 0; i < length; ++i) words[i] = uint64_t(keys[first + i] ^ flip) << 32 | values[first + i];
        std::sort(words.begin(), words.end());
        for (size_t i = 0; i < length; ++i) {
            keys[first + i] = uint32_t(words[i] >> 32) ^ flip;
            values[first + i] = uint32_t(words[i]);
        }
    }
}

namespace {
ReferenceHook<SortPairsFunction>::Install install(&sort_pairs);
}  // namespace
