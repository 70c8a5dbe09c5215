// The files between a run and the grader, and the manifest reader.
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "atomic_file.hpp"
#include "catch.hpp"
#include "manifest.hpp"
#include "result_files.hpp"

namespace {
std::string temp_path(const std::string& name) {
    return std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") + "/labtest-" +
           std::to_string(::getpid()) + "-" + name;
}
// The partial files an atomic write of PATH left beside it.
int partials_of(const std::string& path) {
    namespace fs = std::filesystem;
    const std::string prefix = fs::path(path).filename().string() + ".partial";
    int n = 0;
    for (const auto& entry : fs::directory_iterator(fs::path(path).parent_path()))
        n += entry.path().filename().string().rfind(prefix, 0) == 0;
    return n;
}
std::string text_of(const std::string& path) {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
}
}  // namespace

TEST_CASE("output arrays round-trip with and without bounds", "[files]") {
    std::string path = temp_path("a.out");
    write_output_array(path, OutputArray{DType::f32, {1.5, -2.25, double(1e-30f)}, {0.1, 0.2, 0.3}});
    OutputArray a = read_output_array(path);
    CHECK(a.dtype == DType::f32);
    CHECK(a.values == std::vector<double>{1.5, -2.25, double(1e-30f)});
    CHECK(a.bound == std::vector<double>{0.1, 0.2, 0.3});
    write_output_array(path, OutputArray{DType::i32, {7, -1}, {}});
    a = read_output_array(path);
    CHECK(a.values == std::vector<double>{7, -1});
    CHECK(a.bound.empty());
    write_output_array(path, OutputArray{DType::u32, {4294967295.0, 0}, {}});
    CHECK(read_output_array(path).values == std::vector<double>{4294967295.0, 0});
    CHECK_THROWS(write_output_array(path, OutputArray{DType::f64, {1, 2}, {0.5}}));  // a bound per value
    CHECK(partials_of(path) == 0);                                                  // nothing half-written left
    std::remove(path.c_str());
}

TEST_CASE("two writers of one file at once each write it whole, the later winning", "[files]") {
    // As two Slurm tasks of one grading write its plan: with one partial name for both, the
    // second truncated the first's bytes and then found nothing to rename.
    const std::string path = temp_path("plan.tsv");
    {
        AtomicFile first(path), second(path);
        first.stream() << "first\n";
        second.stream() << "second\n";
        first.commit();
        CHECK(text_of(path) == "first\n");
        second.commit();
    }
    CHECK(text_of(path) == "second\n");
    CHECK(partials_of(path) == 0);
    std::remove(path.c_str());
}

TEST_CASE("a sampled reference's output is stored sparse, and reads back the same", "[files]") {
    std::string path = temp_path("sparse.out");
    const double nan = std::nan("");
    std::vector<double> values(1000), bound(1000, nan);
    for (size_t i = 0; i < values.size(); ++i) values[i] = double(i) * 0.25;
    for (size_t i : {0, 17, 400, 999}) bound[i] = 1e-3 * double(i + 1);
    write_output_array(path, OutputArray{DType::f32, values, bound});
    std::ifstream in(path, std::ios::binary);
    std::string header;
    std::getline(in, header);
    CHECK(header == "labout 1 f32 1000 2");
    CHECK(std::filesystem::file_size(path) == header.size() + 1 + 8 + 4 * (8 + 4 + 8));
    OutputArray a = read_output_array(path);
    REQUIRE(a.values.size() == 1000);
    REQUIRE(a.bound.size() == 1000);
    for (size_t i = 0; i < values.size(); ++i) {
        INFO("element " << i);
        if (std::isnan(bound[i])) {
            CHECK(std::isnan(a.bound[i]));
            CHECK(std::isnan(a.values[i]));  // not compared: no value kept
        } else {
            CHECK(a.bound[i] == bound[i]);
            CHECK(a.values[i] == values[i]);
        }
    }
    // Most of them bounded (a full reference: all): dense is smaller.
    for (size_t i = 0; i < values.size(); i += 4) bound[i] = bound[i + 1] = bound[i + 2] = 0;
    write_output_array(path, OutputArray{DType::f32, values, bound});
    std::ifstream again(path, std::ios::binary);
    std::getline(again, header);
    CHECK(header == "labout 1 f32 1000 1");
    std::remove(path.c_str());
}

TEST_CASE("a forged sparse output is refused", "[files]") {
    std::string path = temp_path("forged.out");
    auto write = [&](uint64_t k, const std::vector<uint64_t>& positions, size_t cut = 0) {
        std::string bytes = "labout 1 f64 10 2\n";
        bytes.append(reinterpret_cast<const char*>(&k), 8);
        for (uint64_t p : positions) {
            const double value = 1, bound = 0;
            bytes.append(reinterpret_cast<const char*>(&p), 8);
            bytes.append(reinterpret_cast<const char*>(&value), 8);
            bytes.append(reinterpret_cast<const char*>(&bound), 8);
        }
        std::ofstream(path, std::ios::binary) << bytes.substr(0, bytes.size() - cut);
    };
    write(2, {3, 5});
    CHECK(read_output_array(path).values[5] == 1);
    write(11, {});  // more records than elements
    CHECK_THROWS_AS(read_output_array(path), FormatError);
    write(3, {3, 5});  // fewer records than announced
    CHECK_THROWS_AS(read_output_array(path), FormatError);
    write(2, {3, 5}, 4);  // truncated
    CHECK_THROWS_AS(read_output_array(path), FormatError);
    write(2, {5, 3});  // out of order
    CHECK_THROWS_WITH(read_output_array(path), LAB_CONTAINS("out of place"));
    write(2, {3, 3});  // twice
    CHECK_THROWS_AS(read_output_array(path), FormatError);
    write(1, {10});  // past the end
    CHECK_THROWS_AS(read_output_array(path), FormatError);
    std::remove(path.c_str());
}

TEST_CASE("malformed output arrays are rejected with the reason", "[files]") {
    std::string path = temp_path("bad.out");
    CHECK_THROWS_AS(read_output_array(path + ".missing"), FormatError);
    auto write = [&](const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; };
    write("hello\n");
    CHECK_THROWS_AS(read_output_array(path), FormatError);
    write("labout 1 f32 4 0\n" + std::string(8, 'x'));  // 2 of 4 values
    CHECK_THROWS_AS(read_output_array(path), FormatError);
    write("labout 1 f32 1 0\n" + std::string(8, 'x'));  // trailing bytes
    CHECK_THROWS_AS(read_output_array(path), FormatError);
    write("labout 1 f16 1 0\nxx");
    CHECK_THROWS_AS(read_output_array(path), FormatError);
    write("labout 1 f64 1000000000 1\n" + std::string(16, 'x'));  // a forged count: refused, not allocated
    CHECK_THROWS_WITH(read_output_array(path), LAB_CONTAINS("the header announces 1000000000 values"));
    CHECK_THROWS_WITH(read_output_array("/dev/null"), LAB_CONTAINS("not a regular file"));
    std::remove(path.c_str());
}

TEST_CASE("results records keep tabs and newlines inside values", "[files]") {
    std::string path = temp_path("results.tsv");
    {
        ResultsWriter w(path);
        w.write({{"part", "naive"}, {"message", "line one\nline\ttwo \\ end"}});
        w.write({{"part", "tiled"}, {"status", "ran"}});
    }
    std::vector<Record> r = read_results(path);
    REQUIRE(r.size() == 2);
    CHECK(r[0]["message"] == "line one\nline\ttwo \\ end");
    CHECK(r[1]["status"] == "ran");
    std::ofstream(path) << "part=x\tnonsense\n";
    CHECK_THROWS_AS(read_results(path), FormatError);
    std::remove(path.c_str());
}

TEST_CASE("manifest: values, lists, case fallbacks and errors with line numbers", "[manifest]") {
    Manifest m = Manifest::parse(
        "# comment\n\ntitle = Matrix # not a comment\ncases = a b\n"
        "time_limit = 60\ncase.a.time_limit = 5\ncase.a.args = --m 1 --n 2\n",
        "test");
    CHECK(m.get("title") == "Matrix # not a comment");
    CHECK(m.list("cases") == std::vector<std::string>{"a", "b"});
    CHECK(m.case_value("a", "time_limit", "") == "5");
    CHECK(m.case_value("b", "time_limit", "") == "60");
    CHECK(m.case_value("b", "points", "1") == "1");
    CHECK(m.number("time_limit", 0) == 60);
    CHECK(m.number("absent", 7) == 7);
    CHECK_THROWS_WITH(m.get("absent"), LAB_CONTAINS("missing key 'absent'"));
    CHECK_THROWS_WITH(Manifest::parse("a = 1\nb\n", "f"), LAB_CONTAINS("f:2"));
    CHECK_THROWS_WITH(Manifest::parse("a = 1\na = 2\n", "f"), LAB_CONTAINS("set twice"));
    CHECK_THROWS_WITH(Manifest::parse("a b = 1\n", "f"), LAB_CONTAINS("bad key"));
    CHECK_THROWS_AS(Manifest::parse("x = abc\n", "f").number("x", 0), ManifestError);
}

TEST_CASE("every lab's manifest parses and names files that exist", "[manifest]") {
    int labs = 0;
    for (const auto& entry : std::filesystem::directory_iterator("labs")) {
        std::string lab = entry.path().filename().string();
        if (!std::filesystem::exists(entry.path() / "manifest")) continue;
        ++labs;
        INFO("lab " << lab);
        Manifest m = Manifest::load((entry.path() / "manifest").string());
        CHECK_FALSE(m.list("student_files").empty());
        // The student distribution (make dist) has no solutions/ folder; the instructor's copy
        // has a solution for every student file.
        bool instructor_copy = std::filesystem::exists("solutions");
        for (const std::string& file : m.list("student_files")) {
            CHECK(std::ifstream("labs/" + lab + "/" + file).good());
            if (instructor_copy) CHECK(std::ifstream("solutions/" + lab + "/" + file).good());
        }
        CHECK_FALSE(m.list("parts").empty());
        CHECK_FALSE(m.list("cases").empty());
        for (const std::string& c : m.list("cases")) {
            INFO("case " << c);
            CHECK(m.has("case." + c + ".args"));
            std::string visibility = m.case_value(c, "visibility", "");
            CHECK((visibility == "public" || visibility == "hidden"));
            CHECK(m.number("case." + c + ".points", 0) > 0);
        }
    }
    CHECK(labs >= 1);
}
