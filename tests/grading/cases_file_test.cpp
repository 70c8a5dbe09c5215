// The cases files of a grading run: one line for a case whichever process runs it, the
// reference's runs with what the grader asks of them, and a file written over whatever a
// student's build left at its name.
#include <sys/stat.h>
#include <unistd.h>


#include "cases_file.hpp"
#include "catch.hpp"
#include "manifest.hpp"
#include "temp_folder.hpp"

namespace {

const char* kManifest = R"(
student_files = k.cu
parts = one two
cases = small big
time_limit = 30
case.small.args = --n 3
case.small.visibility = public
case.small.points = 1
case.big.args = --n 2 --reps 2 --warmup 0
case.big.visibility = public
case.big.points = 1
case.big.time_limit = 8
perf.cases = big
perf.points = 1
perf.full_ratio = 1.2
perf.zero_ratio = 10
)";

LabPlan plan() { return make_lab_plan(Manifest::parse(kManifest, "m"), "labT"); }

}  // namespace

TEST_CASE("cases file: a graded process gets each case once, its parts gathered, in the order first named",
          "[grading][cases-file]") {
    CasesFile file = make_cases_file(plan(), WallRules{}, CasesUse::graded, {"big/two", "small/one,two", "big/one"});
    CHECK(file.cases == std::vector<std::string>{"big", "small"});
    REQUIRE(file.lines.size() == 2);
    CHECK(file.lines[0] == "big --n 2 --reps 2 --warmup 0 --time-limit 8 --part two,one");
    // A case without performance points is run once, untimed (LabPlan::run_args).
    CHECK(file.lines[1] == "small --n 3 --reps 1 --warmup 0 --time-limit 30 --part one,two");
    // The same case and part give the same line, whichever kind of run asks (batch, part, sanitizer).
    CHECK(make_cases_file(plan(), WallRules{}, CasesUse::graded, {"big/one"}).lines ==
          make_cases_file(plan(), WallRules{}, CasesUse::graded, {"big/one"}).lines);
}

TEST_CASE("cases file: the grading run's time limit and seed", "[grading][cases-file]") {
    LabPlan seeded = plan();
    seeded.grading_seed = 77;
    CasesFile file = make_cases_file(seeded, WallRules{5, 10}, CasesUse::graded, {"small/one", "big/one"});
    // --time-limit caps a longer limit only; the graded seed follows the case's arguments.
    CHECK(file.lines[0].find(" --seed ") != std::string::npos);
    CHECK(file.lines[0].find("--time-limit 5 ") != std::string::npos);
    CHECK(file.lines[1].find("--time-limit 5 ") != std::string::npos);
    CHECK(make_cases_file(plan(), WallRules{9, 10}, CasesUse::graded, {"big/one"}).lines[0].find("--time-limit 8 ") !=
          std::string::npos);
}

TEST_CASE("cases file: the reference's runs", "[grading][cases-file]") {
    CHECK(make_cases_file(plan(), WallRules{}, CasesUse::reference_outputs, {"big"}).lines ==
          std::vector<std::string>{"big --n 2 --reps 2 --warmup 0 --time-limit 8 --reps 0 --warmup 0"});
    CHECK(make_cases_file(plan(), WallRules{}, CasesUse::reference_timing, {"big"}).lines ==
          std::vector<std::string>{"big --n 2 --reps 2 --warmup 0 --time-limit 8"});
    // Two kept runs, by the seeds of their inputs (the same seed for two parts only in a forged
    // record: each its own run all the same).
    CasesFile checked = make_checked_run_cases_file(
        plan(), WallRules{}, {{"big", 4611686018427387903ull, "two"}, {"big", 7, "one"}, {"big", 7, "two"}}, 42);
    CHECK(checked.cases == std::vector<std::string>{"big", "big", "big"});
    CHECK(checked.lines == std::vector<std::string>{
                               "big.seed4611686018427387903.two --n 2 --reps 2 --warmup 0 --time-limit 8 --data-seed "
                               "4611686018427387903 --reps 0 --check sample --sample-seed 42 --part two",
                               "big.seed7.one --n 2 --reps 2 --warmup 0 --time-limit 8 --data-seed 7 --reps 0 --check sample "
                               "--sample-seed 42 --part one",
                               "big.seed7.two --n 2 --reps 2 --warmup 0 --time-limit 8 --data-seed 7 --reps 0 --check sample "
                               "--sample-seed 42 --part two"});
}

TEST_CASE("cases file: an unknown case or part, or a graded item without parts, is refused", "[grading][cases-file]") {
    CHECK_THROWS_AS(make_cases_file(plan(), WallRules{}, CasesUse::graded, {"huge/one"}), std::invalid_argument);
    CHECK_THROWS_AS(make_cases_file(plan(), WallRules{}, CasesUse::graded, {"big/three"}), std::invalid_argument);
    CHECK_THROWS_AS(make_cases_file(plan(), WallRules{}, CasesUse::graded, {"big/"}), std::invalid_argument);
    CHECK_THROWS_AS(make_cases_file(plan(), WallRules{}, CasesUse::graded, {"big"}), std::invalid_argument);
    CHECK_THROWS_AS(make_checked_run_cases_file(plan(), WallRules{}, {{"big", 1, "three"}}, 1), std::invalid_argument);
}

TEST_CASE("cases file: written over a link or a folder a student's build left, never through it", "[grading][cases-file]") {
    TempFolder dir;
    const std::string target = dir.write("grader-file.txt", "the grader's\n");
    const std::string path = dir / "box-cases.txt";
    SECTION("a link") {
        REQUIRE(symlink(target.c_str(), path.c_str()) == 0);
    }
    SECTION("a folder") {
        dir.write("box-cases.txt/inside", "x");
    }
    write_cases_file(path, {"small --n 3", "big --n 2"});
    CHECK(read_text(path) == "small --n 3\nbig --n 2\n");
    CHECK(read_text(target) == "the grader's\n");
    struct stat info {};
    REQUIRE(lstat(path.c_str(), &info) == 0);
    CHECK(S_ISREG(info.st_mode));
}
