// Lab 6's CPU side, without a GPU: the driver's validator catches each way a sort goes wrong (an
// unsorted array, the wrong direction, a lost or duplicated key, a value left behind or
// duplicated) and names the array and position; the graded output is the same for every correct
// sort whatever the order of equal keys' values, and differs for each wrong one; the input; the
// CPU's sorted keys.
#include <algorithm>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "catch.hpp"
#include "lab6.hpp"
#include "reference.hpp"

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A correct sort of `in`, array by array: pairs ordered by key, equal keys by value (or, with
// `reverse_ties`, the other way), so two correct sorts differ where keys are equal.
void sort_pairs(const SortInput& in, unsigned batch, unsigned length, bool ascending, std::vector<uint32_t>& keys,
                std::vector<uint32_t>& values, bool reverse_ties = false) {
    keys.resize(in.keys.size());
    values.resize(in.keys.size());
    for (unsigned a = 0; a < batch; ++a) {
        std::vector<std::pair<uint32_t, uint32_t>> pairs;
        for (unsigned i = 0; i < length; ++i) pairs.push_back({in.keys[a * length + i], in.values[a * length + i]});
        std::sort(pairs.begin(), pairs.end(), [&](const auto& x, const auto& y) {
            if (x.first != y.first) return ascending ? x.first < y.first : x.first > y.first;
            return reverse_ties ? x.second > y.second : x.second < y.second;
        });
        for (unsigned i = 0; i < length; ++i) keys[a * length + i] = pairs[i].first, values[a * length + i] = pairs[i].second;
    }
}

struct Sorted {
    SortInput in;
    std::vector<uint32_t> keys, values;
    unsigned batch, length;
    bool ascending;
    Sorted(unsigned b, unsigned l, bool up, uint64_t key_range = 16) : batch(b), length(l), ascending(up) {
        in = sort_input(b, l, key_range, 7);
        sort_pairs(in, b, l, up, keys, values);
    }
    SortVerdict check() const { return validate_sort(in.keys, keys, values, batch, length, ascending); }
};

}  // namespace

TEST_CASE("the input: keys below the range, values the positions in each array, the same for a seed", "[lab6]") {
    SortInput in = sort_input(3, 8, 5, 11);
    REQUIRE(in.keys.size() == 24);
    for (size_t i = 0; i < 24; ++i) {
        CHECK(in.keys[i] < 5);
        CHECK(in.values[i] == i % 8);
    }
    CHECK(sort_input(3, 8, 5, 11).keys == in.keys);
    CHECK(sort_input(3, 8, 5, 12).keys != in.keys);
    SortInput wide = sort_input(1, 4096, 1ull << 32, 3);
    CHECK(*std::max_element(wide.keys.begin(), wide.keys.end()) > (1u << 31));  // the whole 32-bit range
}

TEST_CASE("the CPU's sorted keys, both ways, array by array", "[lab6]") {
    std::vector<uint32_t> keys = {3, 1, 2, 0, 9, 9, 4, 5};
    CHECK(sorted_keys(keys, 2, 4, true) == std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 9, 9});
    CHECK(sorted_keys(keys, 2, 4, false) == std::vector<uint32_t>{3, 2, 1, 0, 9, 9, 5, 4});
    CHECK(sorted_keys(keys, 8, 1, true) == keys);
}

TEST_CASE("the validator passes correct sorts, whatever the order of equal keys' values", "[lab6]") {
    for (bool up : {true, false})
        for (unsigned length : {1u, 2u, 64u, 1024u, 4096u}) {
            Sorted s(5, length, up);
            INFO("length " << length << ", ascending " << up);
            SortVerdict v = s.check();
            CHECK(v.ok);
            CHECK(v.message.empty());
            sort_pairs(s.in, 5, length, up, s.keys, s.values, true);  // equal keys' values the other way round
            CHECK(s.check().ok);
        }
}

TEST_CASE("the validator catches an unsorted array and names it", "[lab6]") {
    Sorted s(4, 64, true);
    // Two neighbouring pairs of array 2 swapped whole (key and value): still a permutation, each
    // value with its key, but not sorted.
    size_t i = 2 * 64 + 10;
    while (s.keys[i] == s.keys[i + 1]) ++i;
    std::swap(s.keys[i], s.keys[i + 1]);
    std::swap(s.values[i], s.values[i + 1]);
    SortVerdict v = s.check();
    CHECK_FALSE(v.ok);
    CHECK(v.wrong_arrays == 1);
    CHECK(contains(v.message, "array 2, position " + std::to_string(i % 64 + 1)));
    CHECK(contains(v.message, "not ascending"));
    CHECK(contains(v.message, "1 of 4 arrays wrong"));
}

TEST_CASE("the validator catches the wrong direction", "[lab6]") {
    Sorted s(3, 256, true);
    SortVerdict v = validate_sort(s.in.keys, s.keys, s.values, 3, 256, false);  // sorted up, asked down
    CHECK_FALSE(v.ok);
    CHECK(v.wrong_arrays == 3);
    CHECK(contains(v.message, "array 0 is sorted ascending, but --dir down asks for descending"));
    Sorted d(1, 256, false);
    CHECK(contains(validate_sort(d.in.keys, d.keys, d.values, 1, 256, true).message, "is sorted descending"));
}

TEST_CASE("the validator catches a lost or duplicated key", "[lab6]") {
    Sorted s(2, 128, false, 1000);
    size_t i = 128 + 4;
    while (s.keys[i] == s.keys[i + 1]) ++i;
    s.keys[i + 1] = s.keys[i];  // array 1: one key written twice, another lost; still sorted
    SortVerdict v = s.check();
    CHECK_FALSE(v.ok);
    CHECK(contains(v.message, "array 1: its keys are not a permutation of the input's"));
    CHECK(contains(v.message, "a key was lost or duplicated"));
    Sorted poisoned(1, 64, true);
    std::fill(poisoned.keys.begin(), poisoned.keys.end(), 0xFFFFFFFFu);  // never written
    CHECK_FALSE(poisoned.check().ok);
}

TEST_CASE("the validator catches a value left behind, a duplicated value and one out of range", "[lab6]") {
    Sorted s(3, 1024, true, 1u << 20);  // distinct keys, nearly all
    // Keys sorted, but the values of array 1 left in their input order: keys moved without
    // their values.
    for (unsigned i = 0; i < 1024; ++i) s.values[1024 + i] = i;
    SortVerdict v = s.check();
    CHECK_FALSE(v.ok);
    CHECK(v.wrong_arrays == 1);
    CHECK(contains(v.message, "array 1, position "));
    CHECK(contains(v.message, "a value was left behind"));

    Sorted t(1, 64, true);
    t.values[7] = t.values[8];
    CHECK(contains(t.check().message, "appears twice"));
    Sorted u(1, 64, true);
    u.values[3] = 64;
    CHECK(contains(u.check().message, "value 64 is not a position of the array (0 to 63)"));
}

TEST_CASE("the graded output: the same for every correct sort, different for each wrong one", "[lab6]") {
    Sorted s(4, 256, false);
    std::vector<double> right = graded_output(s.in.keys, s.keys, s.values, 4, 256);
    REQUIRE(right.size() == 2 * 1024);
    std::vector<uint32_t> expected = sorted_keys(s.in.keys, 4, 256, false);
    for (size_t i = 0; i < 1024; ++i) {
        CHECK(right[i] == expected[i]);
        CHECK(right[1024 + i] == expected[i]);
    }
    std::vector<uint32_t> keys2, values2;
    sort_pairs(s.in, 4, 256, false, keys2, values2, true);
    CHECK(values2 != s.values);  // equal keys' values in another order...
    CHECK(graded_output(s.in.keys, keys2, values2, 4, 256) == right);  // ...the same graded output

    std::vector<uint32_t> behind(s.values);
    size_t i = 0;
    while (s.keys[i] == s.keys[i + 1]) ++i;
    std::swap(behind[i], behind[i + 1]);  // two values swapped without their (different) keys
    CHECK(graded_output(s.in.keys, s.keys, behind, 4, 256) != right);
    std::vector<uint32_t> twice(s.values);
    twice[1] = twice[0];
    CHECK(graded_output(s.in.keys, s.keys, twice, 4, 256) != right);
    std::vector<uint32_t> up(s.keys);
    std::reverse(up.begin(), up.begin() + 256);
    CHECK(graded_output(s.in.keys, up, s.values, 4, 256) != right);
}

TEST_CASE("the parts: four, the one-block ones first of each network", "[lab6]") {
    CHECK(sort_part_names() == std::vector<std::string>{"bitonic_shared", "bitonic", "oddeven_shared", "oddeven"});
    CHECK(sort_part("bitonic_shared").one_block);
    CHECK_FALSE(sort_part("oddeven").one_block);
}
