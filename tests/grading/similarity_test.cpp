// The similarity report's fingerprints on planted pairs of lab 1 submissions: a copy, a copy
// with every name changed, a copy with its functions reordered, and a submission written
// independently, none of which may be flagged; the starter's code counts for no one.
#include <fstream>
#include <regex>
#include <sstream>

#include "catch.hpp"
#include "similarity.hpp"

namespace {

std::string read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    REQUIRE(!text.str().empty());
    return text.str();
}

double shared(const Submission& a, const Submission& b) {
    std::vector<SimilarPair> pairs = similar_pairs({a, b}, 0, 1);
    return pairs.empty() ? 0 : pairs.front().shared;
}

// The reference solution with its rungs (the blocks between the "// ----" lines) reversed.
std::string reordered(const std::string& source) {
    const std::string rule = "// ---------------------------------------------------------------------------------";
    std::vector<std::string> blocks;
    size_t start = 0;
    for (size_t at; (at = source.find(rule, start + 1)) != std::string::npos; start = at) blocks.push_back(source.substr(start, at - start));
    blocks.push_back(source.substr(start));
    std::string text = blocks.front();
    for (size_t i = blocks.size() - 1; i > 0; --i) text += blocks[i];
    return text;
}

}  // namespace

TEST_CASE("tokens: names, numbers and literals lose their spelling, comments vanish", "[grading][similarity]") {
    CHECK(similarity_tokens("float sum = 0; // total\nsum += a[i] * 2.5f;") ==
          std::vector<std::string>{"float", "i", "=", "n", ";", "i", "+=", "i", "[", "i", "]", "*", "n", ";"});
    CHECK(similarity_tokens("#include \"x.h\"\nfor (int k = 0; k < K; ++k) {}").front() == "#include");
    CHECK(similarity_tokens("s = \"a \\\" b\"; c = 'x';") == std::vector<std::string>{"i", "=", "s", ";", "i", "=", "s", ";"});
    CHECK(similarity_tokens("#").size() == 1);
}

TEST_CASE("planted pairs are flagged, independent work is not", "[grading][similarity]") {
    std::set<uint64_t> starter = fingerprints(similarity_tokens(read("labs/lab1/matmul.cu")));
    std::string solution = read("solutions/lab1/matmul.cu");
    std::string renamed = std::regex_replace(solution, std::regex("\\bsum\\b"), "total");
    renamed = std::regex_replace(renamed, std::regex("\\brow\\b"), "r_i");
    renamed = std::regex_replace(renamed, std::regex("\\bcol\\b"), "c_j");
    renamed = std::regex_replace(renamed, std::regex("\\b(As|Bs)\\b"), "tile$1");
    renamed = std::regex_replace(renamed, std::regex("//[^\\n]*"), "// my own words");
    REQUIRE(renamed != solution);
    Submission original = make_submission("ann", solution, starter);
    Submission copy = make_submission("bob", solution, starter);
    Submission renamed_copy = make_submission("cid", renamed, starter);
    Submission reordered_copy = make_submission("dee", reordered(solution), starter);
    Submission independent = make_submission("eve", read("tests/grading/fixtures/similarity/independent-matmul.cu"), starter);
    Submission untouched = make_submission("fay", read("labs/lab1/matmul.cu"), starter);

    INFO("fingerprints of its own: " << original.prints.size());
    CHECK(original.prints.size() > 100);
    CHECK(shared(original, copy) == 1.0);
    INFO("renamed: " << shared(original, renamed_copy) << ", reordered: " << shared(original, reordered_copy));
    CHECK(shared(original, renamed_copy) > 0.95);
    CHECK(shared(original, reordered_copy) > 0.9);
    INFO("independent: " << shared(original, independent));
    CHECK(shared(original, independent) < 0.2);
    CHECK(untouched.prints.empty());  // the starter is nobody's

    std::vector<SimilarPair> flagged = similar_pairs({original, copy, renamed_copy, reordered_copy, independent, untouched}, 0.5, 10);
    CHECK(flagged.size() == 6);  // every pair among the four copies, and no other
    for (const SimilarPair& p : flagged) CHECK((p.a != "eve" && p.b != "eve" && p.a != "fay" && p.b != "fay"));
}
