// The checker: the reference's error bound decides, NaN never passes, and a missing, short,
// forged or mis-typed output fails with a reason.
#include <cmath>
#include <fstream>

#include "catch.hpp"
#include "output_check.hpp"
#include "temp_folder.hpp"

TEST_CASE("values within tolerance x 2 x bound pass, beyond fail", "[grading][checker]") {
    TempFolder dir;
    std::string reference = dir.write_floats("ref.out", {1.0f, 2.0f, 3.0f}, {0.5, 0.5, 0.5});
    // Allowed: 1 x 2 x 0.5 = 1.
    CHECK(check_output_files(dir.write_floats("ok.out", {1.9f, 1.0f, 3.0f}), reference, 1).pass);
    OutputVerdict off = check_output_files(dir.write_floats("off.out", {1.0f, 3.25f, 3.0f}), reference, 1);
    CHECK_FALSE(off.pass);
    CHECK(off.bad == 1);
    REQUIRE(off.first.size() == 1);
    CHECK(off.first[0].position == 1);
    CHECK(off.reason.find("1 of 3 values wrong") != std::string::npos);
    // The tolerance scales the allowance: 2 x 2 x 0.5 = 2.
    CHECK(check_output_files(dir / "off.out", reference, 2).pass);
    CHECK_FALSE(check_output_files(dir / "off.out", reference, 0).pass);
}

TEST_CASE("NaN never passes, on either side", "[grading][checker]") {
    TempFolder dir;
    std::string reference = dir.write_floats("ref.out", {1.0f, 2.0f}, {1e9, 1e9});
    CHECK_FALSE(check_output_files(dir.write_floats("nan.out", {1.0f, NAN}), reference, 1).pass);
    std::string nan_reference = dir.write_floats("nanref.out", {1.0f, NAN}, {1e9, 1e9});
    CHECK_FALSE(check_output_files(dir.write_floats("two.out", {1.0f, 2.0f}), nan_reference, 1).pass);
}

TEST_CASE("an output of the wrong length or type fails", "[grading][checker]") {
    TempFolder dir;
    std::string reference = dir.write_floats("ref.out", {1.0f, 2.0f, 3.0f}, {0, 0, 0});
    OutputVerdict shorter = check_output_files(dir.write_floats("short.out", {1.0f, 2.0f}), reference, 1);
    CHECK_FALSE(shorter.pass);
    CHECK(shorter.reason == "the output has 2 values, expected 3");
    write_output_array(dir / "f64.out", OutputArray{DType::f64, {1, 2, 3}, {}});
    OutputVerdict typed = check_output_files(dir / "f64.out", reference, 1);
    CHECK_FALSE(typed.pass);
    CHECK(typed.reason == "the output holds f64 values, expected f32");
}

TEST_CASE("a missing, malformed or forged output file fails, the grader does not", "[grading][checker]") {
    TempFolder dir;
    std::string reference = dir.write_floats("ref.out", {1.0f, 2.0f}, {0, 0});
    OutputVerdict missing = check_output_files(dir / "none.out", reference, 1);
    CHECK_FALSE(missing.pass);
    CHECK(missing.reason == "no output was written");
    CHECK_FALSE(check_output_files(dir.write("junk.out", "hello world\n"), reference, 1).pass);
    // A header promising two billion values over 8 bytes of data: refused before allocating.
    OutputVerdict forged = check_output_files(dir.write("forged.out", "labout 1 f32 2000000000 0\n12345678"), reference, 1);
    CHECK_FALSE(forged.pass);
    CHECK(forged.reason.find("truncated (the header announces 2000000000 values)") != std::string::npos);
    // A truncated file.
    std::string good = dir.write_floats("good.out", {1.0f, 2.0f});
    std::ifstream in(good, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), {});
    CHECK_FALSE(check_output_files(dir.write("cut.out", bytes.substr(0, bytes.size() - 2)), reference, 1).pass);
}

TEST_CASE("a reference without bounds compares exactly", "[grading][checker]") {
    TempFolder dir;
    std::string reference = dir.write_floats("ref.out", {1.0f, 2.0f});
    CHECK(check_output_files(dir.write_floats("same.out", {1.0f, 2.0f}), reference, 5).pass);
    CHECK_FALSE(check_output_files(dir.write_floats("near.out", {1.0f, 2.0000002f}), reference, 5).pass);
}
