// Lab 6's CPU side, without a GPU: the driver's validator catches each way a sort goes wrong (an
// unsorted array, the wrong direction, a lost or duplicated key, a value left behind, duplicated
// or never read) and names the array and position; the graded output is the same for every
// correct sort whatever the order of equal keys' values, equals the CPU's sorted pairs, and
// differs for each wrong one; the input (random values, drawn after the keys); the CPU's sorted
// pairs.
#include <algorithm>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "catch.hpp"
#include "lab6.hpp"
#include "part_table.hpp"
#include "random_data.hpp"
#include "reference.hpp"

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A correct sort of `in`, array by array: pairs ordered by key, equal keys by value (or, with
// `reverse_ties`, the other way), so two correct sorts differ where keys are equal.
void correct_sort(const SortInput& in, unsigned batch, unsigned length, bool ascending, std::vector<uint32_t>& keys,
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
        correct_sort(in, b, l, up, keys, values);
    }
    SortVerdict check() const { return validate_sort(in.keys, in.values, keys, values, batch, length, ascending); }
};

}  // namespace

TEST_CASE("the input: keys below the range, then random values, the same for a seed", "[lab6]") {
    SortInput in = sort_input(3, 8, 5, 11);
    REQUIRE(in.keys.size() == 24);
    REQUIRE(in.values.size() == 24);
    SeededRandom random(11);  // the keys are the first 24 draws of seed 11, the values the next 24
    for (size_t i = 0; i < 24; ++i) CHECK(in.keys[i] == uint32_t((random.next() >> 32) % 5));
    for (size_t i = 0; i < 24; ++i) CHECK(in.values[i] == uint32_t(random.next() >> 32));
    for (size_t i = 0; i < 24; ++i) CHECK(in.values[i] == uint32_t(splitmix_at(11, 24 + i) >> 32));  // as the GPU draws them
    // Not positions: words over the whole 32-bit range, so a part must move them.
    CHECK(*std::max_element(in.values.begin(), in.values.end()) > 8u);
    CHECK(sort_input(3, 8, 5, 11).keys == in.keys);
    CHECK(sort_input(3, 8, 5, 11).values == in.values);
    CHECK(sort_input(3, 8, 5, 12).keys != in.keys);
    CHECK(sort_input(3, 8, 5, 12).values != in.values);
    SortInput wide = sort_input(1, 4096, 1ull << 32, 3);
    CHECK(*std::max_element(wide.keys.begin(), wide.keys.end()) > (1u << 31));  // the whole 32-bit range
}

TEST_CASE("the CPU's sorted pairs, both ways, array by array, equal keys by value ascending", "[lab6]") {
    const std::vector<uint32_t> keys = {3, 1, 2, 0, 9, 9, 4, 9}, values = {30, 10, 20, 0, 7, 5, 40, 6};
    std::vector<uint32_t> k = keys, v = values;
    sort_pairs(k, v, 2, 4, true);
    CHECK(k == std::vector<uint32_t>{0, 1, 2, 3, 4, 9, 9, 9});
    CHECK(v == std::vector<uint32_t>{0, 10, 20, 30, 40, 5, 6, 7});
    k = keys, v = values;
    sort_pairs(k, v, 2, 4, false);
    CHECK(k == std::vector<uint32_t>{3, 2, 1, 0, 9, 9, 9, 4});
    CHECK(v == std::vector<uint32_t>{30, 20, 10, 0, 5, 6, 7, 40});
    k = {0xFFFFFFFFu, 0, 0xFFFFFFFFu}, v = {2, 1, 0};  // the whole key range, both ways
    sort_pairs(k, v, 1, 3, false);
    CHECK(k == std::vector<uint32_t>{0xFFFFFFFFu, 0xFFFFFFFFu, 0});
    CHECK(v == std::vector<uint32_t>{0, 2, 1});
    k = keys, v = values;
    sort_pairs(k, v, 8, 1, true);
    CHECK(k == keys);
    CHECK(v == values);
}

TEST_CASE("the validator passes correct sorts, whatever the order of equal keys' values", "[lab6]") {
    for (bool up : {true, false})
        for (unsigned length : {1u, 2u, 64u, 1024u, 4096u}) {
            Sorted s(5, length, up);
            INFO("length " << length << ", ascending " << up);
            SortVerdict v = s.check();
            CHECK(v.ok);
            CHECK(v.message.empty());
            correct_sort(s.in, 5, length, up, s.keys, s.values, true);  // equal keys' values the other way round
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
    SortVerdict v = validate_sort(s.in.keys, s.in.values, s.keys, s.values, 3, 256, false);  // sorted up, asked down
    CHECK_FALSE(v.ok);
    CHECK(v.wrong_arrays == 3);
    CHECK(contains(v.message, "array 0 is sorted ascending, but --dir down asks for descending"));
    Sorted d(1, 256, false);
    CHECK(contains(validate_sort(d.in.keys, d.in.values, d.keys, d.values, 1, 256, true).message, "is sorted descending"));
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

TEST_CASE("the validator catches a value left behind, never read, duplicated or made up", "[lab6]") {
    Sorted s(3, 1024, true, 1u << 20);  // distinct keys, nearly all
    // Keys sorted, but the values of array 1 left in their input order: keys moved without
    // their values.
    for (unsigned i = 0; i < 1024; ++i) s.values[1024 + i] = s.in.values[1024 + i];
    SortVerdict v = s.check();
    CHECK_FALSE(v.ok);
    CHECK(v.wrong_arrays == 1);
    CHECK(contains(v.message, "array 1, position "));
    CHECK(contains(v.message, "a value was left behind"));

    // The values never read: each key's input position written instead (found by sorting
    // (key, position) pairs). Right when the values were positions; wrong with random ones.
    for (bool up : {true, false}) {
        Sorted p(4, 256, up);
        SortInput positions = p.in;
        for (size_t i = 0; i < positions.values.size(); ++i) positions.values[i] = uint32_t(i % 256);
        correct_sort(positions, 4, 256, up, p.keys, p.values);
        SortVerdict pv = p.check();
        CHECK_FALSE(pv.ok);
        CHECK(pv.wrong_arrays == 4);
        CHECK(contains(pv.message, "or never read"));
    }

    // One pair written twice over another of the same key: the keys are still the input's and
    // sorted, the values not.
    Sorted t(1, 64, true);
    size_t i = 0;
    while (t.keys[i] != t.keys[i + 1] || t.values[i] == t.values[i + 1]) ++i;
    t.values[i] = t.values[i + 1];
    CHECK(contains(t.check().message, "appears more often than in the input: a pair was duplicated"));
    // A value that no pair of the input has.
    Sorted u(1, 64, true);
    u.values[3] ^= 1;
    CHECK(contains(u.check().message, "array 0, position 3: key " + std::to_string(u.keys[3]) + " carries value " +
                                          std::to_string(u.values[3]) + ", which no pair of the input with that key has"));
    // The input may come in any order within an array (the driver passes the sorted reference).
    Sorted w(2, 128, false);
    CHECK(validate_sort(w.keys, w.values, w.keys, w.values, 2, 128, false).ok);
}

TEST_CASE("the graded output: the CPU's sorted pairs for every correct sort, different for each wrong one", "[lab6]") {
    Sorted s(4, 256, false);
    std::vector<double> right = graded_output(s.keys, s.values, 4, 256);
    REQUIRE(right.size() == 2 * 1024);
    std::vector<uint32_t> keys = s.in.keys, values = s.in.values;
    sort_pairs(keys, values, 4, 256, false);
    for (size_t i = 0; i < 1024; ++i) {
        CHECK(right[i] == keys[i]);
        CHECK(right[1024 + i] == values[i]);
    }
    std::vector<uint32_t> keys2, values2;
    correct_sort(s.in, 4, 256, false, keys2, values2, true);
    CHECK(values2 != s.values);  // equal keys' values in another order...
    CHECK(graded_output(keys2, values2, 4, 256) == right);  // ...the same graded output

    std::vector<uint32_t> behind(s.values);
    size_t i = 0;
    while (s.keys[i] == s.keys[i + 1]) ++i;
    std::swap(behind[i], behind[i + 1]);  // two values swapped without their (different) keys
    CHECK(graded_output(s.keys, behind, 4, 256) != right);
    std::vector<uint32_t> twice(s.values);
    twice[1] = twice[0];
    CHECK(graded_output(s.keys, twice, 4, 256) != right);
    std::vector<uint32_t> up(s.keys);
    std::reverse(up.begin(), up.begin() + 256);
    CHECK(graded_output(up, s.values, 4, 256) != right);
    // A run of equal keys ends at its array's end: the next array's equal keys are another run.
    std::vector<uint32_t> k = {5, 5, 5, 5}, v = {4, 3, 2, 1};
    CHECK(graded_output(k, v, 2, 2) == std::vector<double>{5, 5, 5, 5, 3, 4, 1, 2});
}

TEST_CASE("the parts: four, the one-block ones first of each network", "[lab6]") {
    CHECK(part_names(sort_parts()) == std::vector<std::string>{"bitonic_shared", "bitonic", "oddeven_shared", "oddeven"});
    CHECK(part_named(sort_parts(), "bitonic_shared").one_block);
    CHECK_FALSE(part_named(sort_parts(), "oddeven").one_block);
}
