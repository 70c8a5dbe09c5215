// The grader's reading of a manifest: every key of labs/MANIFEST.md it uses, and a clear
// error for every mistake it cannot grade with.
#include "catch.hpp"
#include "lab_plan.hpp"

namespace {

const char* kValid = R"(
title = Test lab
student_files = kernel.cu helper.cu
parts = first second
part.second.files = helper.cu
part.second.forbidden = thrust
time_limit = 30
tolerance = 1
forbidden = cublas|cudnn
forbidden.reason = no libraries
cases = small big
case.small.args = --n 10 --seed 1
case.small.visibility = public
case.small.points = 1
case.big.args = --n 1000
case.big.visibility = hidden
case.big.points = 2
case.big.time_limit = 90
case.big.tolerance = 3
perf.cases = big
perf.points = 4
perf.full_ratio = 1.2
perf.zero_ratio = 10
sanitize.case = small
sanitize.tools = memcheck racecheck
sanitize.points = 2
)";

LabPlan plan_of(const std::string& text) { return make_lab_plan(Manifest::parse(text, "test-manifest"), "labX"); }

// The manifest with one line replaced (or removed, when `replacement` is empty).
std::string with_line(const std::string& key, const std::string& replacement) {
    std::string text = kValid;
    size_t at = text.find("\n" + key + " =");
    REQUIRE(at != std::string::npos);
    size_t end = text.find('\n', at + 1);
    return text.substr(0, at + 1) + replacement + text.substr(end);
}

}  // namespace

TEST_CASE("a complete manifest gives the whole plan", "[grading][manifest]") {
    LabPlan plan = plan_of(kValid);
    CHECK(plan.title == "Test lab");
    CHECK(plan.student_files == std::vector<std::string>{"kernel.cu", "helper.cu"});
    REQUIRE(plan.parts.size() == 2);
    CHECK(plan.parts[0].files == plan.student_files);  // default: every student file
    CHECK(plan.parts[1].files == std::vector<std::string>{"helper.cu"});
    CHECK(plan.parts[1].forbidden == "thrust");
    REQUIRE(plan.cases.size() == 2);
    CHECK(plan.cases[0].args == std::vector<std::string>{"--n", "10", "--seed", "1"});
    CHECK_FALSE(plan.cases[0].hidden);
    CHECK(plan.cases[1].hidden);
    CHECK(plan.cases[0].time_limit == 30);  // lab-wide
    CHECK(plan.cases[1].time_limit == 90);  // the case's own
    CHECK(plan.cases[1].tolerance == 3);
    CHECK(plan.cases[1].perf);
    CHECK_FALSE(plan.cases[0].perf);
    CHECK(plan.sanitize_tools == std::vector<std::string>{"memcheck", "racecheck"});
    // (1 + 2) points per part, 2 parts, plus 4 performance points per part on one case.
    CHECK(plan.max_points() == 3 * 2 + 4 * 2);
}

TEST_CASE("lab1's own manifest is a valid plan worth 84 points, its speed parts half on speed", "[grading][manifest]") {
    LabPlan plan = make_lab_plan(Manifest::load("labs/lab1/manifest"), "lab1");
    CHECK(plan.part_names() == std::vector<std::string>{"naive", "tiled", "dynamic", "coarse2", "regblock"});
    CHECK(plan.cases.size() == 9);
    CHECK(plan.sanitize_case == "ktiles");
    CHECK(plan.find_part("tiled")->curve.zero_ratio < 1.5);  // naive's kernel as tiled earns nothing
    CHECK(plan.find_case("wide")->hidden);
    CHECK(plan.find_case("beyond-tile")->points == 2);
    // 10 correctness points a part; 10 performance points for the three speed parts, 2 for naive
    // and dynamic.
    CHECK(plan.max_points() == 84);
    for (const char* speed : {"tiled", "coarse2", "regblock"}) {
        CHECK(plan.find_part(speed)->speed);
        CHECK(plan.performance_points(*plan.find_part(speed)) == plan.correctness_points(*plan.find_part(speed)));
        CHECK_FALSE(plan.find_part(speed)->hint.empty());
    }
}

TEST_CASE("a speed part must earn at least half its points from speed", "[grading][manifest]") {
    std::string text = with_line("perf.points", "perf.points = 4\nspeed_parts = first\npart.first.perf.points = 2");
    try {
        plan_of(text);  // 3 correctness points, 2 performance points
        FAIL("accepted");
    } catch (const ManifestError& e) {
        CHECK(std::string(e.what()).find("part first is a speed part") != std::string::npos);
    }
    LabPlan plan = plan_of(with_line("perf.points", "perf.points = 4\nspeed_parts = first\npart.first.perf.points = 3"));
    CHECK(plan.find_part("first")->perf_points == 3);
    CHECK(plan.find_part("second")->perf_points == 4);
    CHECK(plan.max_points() == 3 * 2 + 3 + 4);
    CHECK_THROWS_AS(plan_of(with_line("perf.points", "perf.points = 4\nspeed_parts = third")), ManifestError);
}

TEST_CASE("graded cases run on seeds derived from the grading run's, and their timed runs are known", "[grading][manifest]") {
    LabPlan plan = plan_of(kValid);
    const CasePlan& small = *plan.find_case("small");
    CHECK(plan.student_args(small) == small.args);  // outside a grading run: the manifest's seed
    plan.grading_seed = 12345;
    std::vector<std::string> graded = plan.student_args(small);
    REQUIRE(graded.size() == small.args.size() + 2);
    CHECK(graded[graded.size() - 2] == "--seed");
    CHECK(graded.back() != "1");
    plan.grading_seed = 12346;
    CHECK(plan.student_args(small).back() != graded.back());  // another grading, other data
    // A case whose seed is its design keeps it; a performance case may not.
    LabPlan fixed = plan_of(with_line("case.small.points", "case.small.points = 1\ncase.small.fixed_seed = yes"));
    fixed.grading_seed = 12345;
    CHECK(fixed.student_args(*fixed.find_case("small")) == small.args);
    CHECK_THROWS_AS(plan_of(with_line("case.big.points", "case.big.points = 2\ncase.big.fixed_seed = yes")), ManifestError);
    // small earns no performance points: one checked run, one timed (run 1 for the first part,
    // run 2 for the second: each part has runs of its own); big: the driver's defaults, 3
    // warm-ups then 20 timed runs (4 to 23 for the first part, 27 to 46 for the second).
    CHECK(plan.timed_runs(small, "first").first == 1);
    CHECK(plan.timed_runs(small, "first").count == 1);
    CHECK(plan.timed_runs(small, "second").first == 2);
    CHECK(plan.timed_runs(*plan.find_case("big"), "first").first == 4);
    CHECK(plan.timed_runs(*plan.find_case("big"), "first").count == 20);
    CHECK(plan.timed_runs(*plan.find_case("big"), "second").first == 27);
}

TEST_CASE("manifest mistakes are refused with the key named", "[grading][manifest]") {
    auto refused = [](const std::string& text, const std::string& words) {
        INFO(words);
        try {
            plan_of(text);
            FAIL("accepted");
        } catch (const ManifestError& e) {
            CHECK(std::string(e.what()).find(words) != std::string::npos);
            CHECK(std::string(e.what()).find("test-manifest") != std::string::npos);
        }
    };
    refused(with_line("case.small.args", ""), "case.small.args");
    refused(with_line("case.small.visibility", "case.small.visibility = secret"), "public or hidden");
    refused(with_line("case.small.points", "case.small.points = lots"), "must be a number");
    refused(with_line("perf.cases", "perf.cases = huge"), "perf.cases names 'huge'");
    refused(with_line("perf.zero_ratio", "perf.zero_ratio = 1.1"), "full_ratio < zero_ratio");
    refused(with_line("sanitize.case", "sanitize.case = nothing"), "sanitize.case");
    refused(with_line("forbidden", "forbidden = cublas("), "regular expression");
    refused(with_line("student_files", "student_files = ../evil.cu"), "plain file name");
    refused(with_line("part.second.files", "part.second.files = other.cu"), "not in student_files");
    refused(with_line("parts", ""), "missing key 'parts'");
    refused(with_line("cases", "cases = small small"), "listed twice");
    refused(with_line("parts", "parts = first bad-name"), "letters, digits and _");
    refused(with_line("parts", "parts = first first"), "listed twice");
    refused(with_line("parts", "parts = first second\npart_option = --rung"), "every driver selects parts with --part");
    refused(with_line("perf.points", "perf.points = 4\npart.second.perf.zero_ratio = 1"), "curve of part second");
}

TEST_CASE("a part's own performance curve overrides the lab's", "[grading][manifest]") {
    LabPlan plan = plan_of(with_line("perf.points", "perf.points = 4\npart.second.perf.zero_ratio = 2"));
    CHECK(plan.find_part("first")->curve.full_ratio == 1.2);
    CHECK(plan.find_part("first")->curve.zero_ratio == 10);
    CHECK(plan.find_part("second")->curve.full_ratio == 1.2);
    CHECK(plan.find_part("second")->curve.zero_ratio == 2);
}

TEST_CASE("a key set twice is an error of the manifest reader", "[grading][manifest]") {
    CHECK_THROWS_AS(Manifest::parse("a = 1\na = 2\n", "m"), ManifestError);
}
