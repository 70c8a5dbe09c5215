// The positions a part's checked timed runs are compared at (checked_positions.hpp): drawn once,
// kept by the first reference sample, and a student's kept output reduced to them as its process
// ends, which must never change a verdict: compared at those positions, the reduced file gets
// the verdict the whole one got.
#include <cmath>
#include <filesystem>

#include "catch.hpp"
#include "checked_positions.hpp"
#include "checked_runs.hpp"
#include "manifest.hpp"
#include "output_sample.hpp"
#include "output_verdicts.hpp"
#include "run_evidence.hpp"
#include "temp_folder.hpp"

namespace fs = std::filesystem;

namespace {

// A reference output of n elements whose sampled check bounds every third.
OutputArray reference_output(size_t n, double offset = 0) {
    OutputArray r{DType::f32, {}, {}};
    for (size_t i = 0; i < n; ++i) {
        r.values.push_back(double(float(i) * 0.5f) + offset);
        r.bound.push_back(i % 3 == 0 ? 1e-3 : std::nan(""));
    }
    return r;
}

// The student's output: the reference's values, with `wrong` positions off by 1.
std::vector<float> student_values(size_t n, const std::vector<size_t>& wrong = {}) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = float(i) * 0.5f;
    for (size_t i : wrong) v[i] += 1;
    return v;
}

uint64_t file_size(const std::string& path) { return fs::file_size(path); }

}  // namespace

TEST_CASE("checked positions: the first drawn are kept, and read back as drawn", "[grading][checked-positions]") {
    TempFolder dir;
    const std::string path = dir / ("reference/" + checked_positions_file("big", "one"));
    CHECK(path == dir / "reference/big/positions/one.positions");
    CHECK_FALSE(read_checked_positions(path).has_value());
    const CheckedPositions first{100, {0, 3, 42, 99}};
    CheckedPositions kept = keep_checked_positions(path, first);
    CHECK((kept.size == 100 && kept.positions == first.positions));
    // Another draw (a reference run beside, say) keeps the first.
    kept = keep_checked_positions(path, CheckedPositions{100, {1, 2}});
    CHECK(kept.positions == first.positions);
    REQUIRE(read_checked_positions(path).has_value());
    CHECK(read_checked_positions(path)->positions == first.positions);
    // No file is left aside.
    size_t files = 0;
    for (const auto& entry : fs::directory_iterator(fs::path(path).parent_path())) files += entry.is_regular_file();
    CHECK(files == 1);
    // A file that is not one, or whose positions are out of place, is the grader's error.
    dir.write("bad.positions", "labpositions 1 2 100\n");
    CHECK_THROWS_WITH(read_checked_positions(dir / "bad.positions"), LAB_CONTAINS("does not hold the positions"));
    std::string unordered = "labpositions 1 2 100\n";
    for (uint64_t p : {5, 4}) unordered.append(reinterpret_cast<const char*>(&p), 8);
    dir.write("unordered.positions", unordered);
    CHECK_THROWS_WITH(read_checked_positions(dir / "unordered.positions"), LAB_CONTAINS("out of place"));
}

TEST_CASE("checked positions: the reference's sample at them, only where it bounds", "[grading][checked-positions]") {
    const OutputArray reference = reference_output(30);
    OutputSample sample = sample_at(reference, CheckedPositions{30, {0, 9, 27}});
    CHECK(sample.size == 30);
    CHECK(sample.positions == std::vector<uint64_t>{0, 9, 27});
    CHECK(sample.values == std::vector<double>{0, 4.5, 13.5});
    CHECK(sample.bounds == std::vector<double>{1e-3, 1e-3, 1e-3});
    // The positions of a sample drawn as keep_checked_run_samples draws them are those it keeps.
    OutputSample drawn = sample_output(reference, 4, 7);
    CHECK(sample_at(reference, positions_of(drawn)).positions == drawn.positions);
    CHECK(sample_at(reference, positions_of(drawn)).values == drawn.values);
    CHECK_THROWS_WITH(sample_at(reference, CheckedPositions{30, {1}}), LAB_CONTAINS("bounds no value at position 1"));
    CHECK_THROWS_WITH(sample_at(reference, CheckedPositions{31, {0}}), LAB_CONTAINS("has 30 elements"));
}

TEST_CASE("checked positions: a kept output reduced to them gets the verdict the whole one got",
          "[grading][checked-positions]") {
    TempFolder dir;
    const size_t n = 3000;
    const OutputArray reference = reference_output(n);
    const CheckedPositions positions = positions_of(sample_output(reference, 50, 11));
    REQUIRE(positions.positions.size() == 50);
    dir.write("sample", "");
    write_output_sample(dir / "sample", sample_at(reference, positions));
    const size_t sampled = positions.positions[7], not_sampled = 1;  // every third is bounded: 1 never is
    auto verdict_before_and_after = [&](const std::string& name) {
        const std::string path = dir / name;
        OutputVerdict whole = check_output_against_sample(path, dir / "sample", 1);
        const uint64_t size_before = fs::exists(path) ? file_size(path) : 0;
        const bool reduced = reduce_kept_output(path, positions);
        OutputVerdict after = check_output_against_sample(path, dir / "sample", 1);
        INFO(name << ": " << whole.reason << " / " << after.reason);
        CHECK(after.pass == whole.pass);
        CHECK(after.reason == whole.reason);
        CHECK(after.checked == whole.checked);
        CHECK(after.bad == whole.bad);
        return std::make_pair(reduced, size_before);
    };

    SECTION("right, or wrong only where it is not compared: it passes, reduced") {
        dir.write_floats("right.out", student_values(n));
        dir.write_floats("unseen.out", student_values(n, {not_sampled}));
        for (const char* name : {"right.out", "unseen.out"}) {
            auto [reduced, before] = verdict_before_and_after(name);
            CHECK(reduced);
            CHECK(file_size(dir / name) == sparse_output_bytes(DType::f32, n, 50));
            CHECK(file_size(dir / name) < before);
            OutputArray read = read_output_array(dir / name);
            CHECK(read.values.size() == n);
            CHECK(read.values[positions.positions[0]] == double(float(positions.positions[0]) * 0.5f));
            CHECK(std::isnan(read.values[not_sampled]));
        }
        CHECK(check_output_against_sample(dir / "right.out", dir / "sample", 1).pass);
    }
    SECTION("wrong where it is compared, or not written there (NaN): it fails alike, reduced") {
        dir.write_floats("wrong.out", student_values(n, {sampled}));
        std::vector<float> unwritten = student_values(n);
        unwritten[sampled] = std::nanf("");
        dir.write_floats("unwritten.out", unwritten);
        for (const char* name : {"wrong.out", "unwritten.out"}) {
            auto [reduced, before] = verdict_before_and_after(name);
            CHECK(reduced);
            CHECK_FALSE(check_output_against_sample(dir / name, dir / "sample", 1).pass);
        }
    }
    SECTION("an integer output where floats are due: the same mismatch, reduced") {
        write_output_array(dir / "ints.out", OutputArray{DType::i32, std::vector<double>(n, 1.0), {}});
        auto [reduced, before] = verdict_before_and_after("ints.out");
        CHECK(reduced);
        CHECK(check_output_against_sample(dir / "ints.out", dir / "sample", 1).reason.find("i32") != std::string::npos);
    }
    SECTION("left as it is: missing, malformed, of another size, or no larger than its reduction") {
        dir.write("forged.out", "labout 1 f32 3000 0\nshort");
        dir.write_floats("short.out", student_values(n - 1));
        dir.write_floats("small.out", student_values(60));
        const CheckedPositions few{60, {0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33}};
        for (const char* name : {"missing.out", "forged.out", "short.out"}) {
            auto [reduced, before] = verdict_before_and_after(name);
            CHECK_FALSE(reduced);
            CHECK((fs::exists(dir / name) ? file_size(dir / name) : 0) == before);
        }
        const uint64_t before = file_size(dir / "small.out");
        CHECK_FALSE(reduce_kept_output(dir / "small.out", few));  // 12 records of 20 bytes outweigh 60 floats
        CHECK(file_size(dir / "small.out") == before);
    }
}

namespace {

const char* kManifest = R"(
student_files = k.cu
parts = one
cases = big
case.big.args = --n 3000 --reps 2 --warmup 0
case.big.visibility = public
case.big.points = 1
perf.cases = big
perf.points = 1
perf.full_ratio = 1.2
perf.zero_ratio = 10
)";

}  // namespace

TEST_CASE("checked positions: the reference's samples and a student's kept runs take the same", "[grading][checked-positions]") {
    TempFolder dir;
    const LabPlan plan = make_lab_plan(Manifest::parse(kManifest, "m"), "labT");
    const CasePlan& big = *plan.find_case("big");
    const unsigned long long first = plan.timed_runs(big, "one").first;
    const size_t n = 3000;
    dir.write("reference/big/out/results.tsv", "record=part\tpart=one\tstatus=ran\toutput=one.out\n");
    dir.write_floats("reference/big/out/one.out", student_values(n), std::vector<double>(n, 1e-3));
    // A student's run, its two kept timed runs (the second wrong at every element) waiting for
    // their references, made beside round 3.
    const std::string run = dir / "lab/runs/big/batch-1";
    dir.write("lab/runs/big/batch-1/out/results.tsv",
              "record=part\tpart=one\tstatus=ran\toutput=one.out\tchecked_runs=" + std::to_string(first) + " " +
                  std::to_string(first + 1) + "\tchecked_seeds=41 42\n");
    dir.write_floats("lab/runs/big/batch-1/out/one.out", student_values(n));
    std::vector<size_t> everywhere(n);
    for (size_t i = 0; i < n; ++i) everywhere[i] = i;
    const std::string right = run + "/out/" + checked_run_file("one", first), wrong = run + "/out/" + checked_run_file("one", first + 1);
    dir.write_floats("lab/runs/big/batch-1/out/" + checked_run_file("one", first), student_values(n));
    dir.write_floats("lab/runs/big/batch-1/out/" + checked_run_file("one", first + 1), student_values(n, everywhere));
    const uint64_t whole = file_size(right);

    // Before any positions are drawn (the reference's check on fresh inputs goes on beside round 1):
    // checked, and the kept runs left whole, said so.
    OutputsChecked done = check_run_outputs(plan, big, run, dir / "reference", false);
    CHECK(done.verdicts == 1);
    CHECK(done.reduced == 0);
    CHECK(done.unreduced == 2);
    CHECK(file_size(right) == whole);
    CHECK_FALSE(fs::exists(run + "/out/one.out"));

    // The reference's check on fresh inputs keeps the first sample of the part, drawing its positions
    // among those it bounds (every third), at most 100.
    auto reference_run = [&](unsigned long long seed, const std::vector<double>& bound) {
        const std::string made = "work/" + checked_run_name({"big", seed, "one"});
        dir.write(made + "/results.tsv", "record=part\tpart=one\tstatus=ran\toutput=one.out\n");
        std::vector<float> values = student_values(n);
        dir.write_floats(made + "/one.out", values, bound);
    };
    const OutputArray sampled = reference_output(n);
    reference_run(7, sampled.bound);
    REQUIRE(keep_checked_run_samples(plan, {{"big", 7, "one"}}, dir / "work", dir / "reference", 5, 100).empty());
    std::optional<CheckedPositions> positions = read_checked_positions(dir / ("reference/" + checked_positions_file("big", "one")));
    REQUIRE(positions.has_value());
    CHECK(positions->positions.size() == 100);
    for (uint64_t p : positions->positions) CHECK(p % 3 == 0);
    CHECK(read_output_sample(dir / ("reference/" + checked_run_sample("big", "one", 7))).positions == positions->positions);

    // Checked again (grade.sh, before the first timed run): both reduced to those positions, kept
    // with --keep too (GRADE_KEEP_WORK: the reduction is what the grader keeps of such a run).
    done = check_run_outputs(plan, big, run, dir / "reference", true);
    CHECK(done.verdicts == 0);
    CHECK(done.reduced == 2);
    CHECK(done.unreduced == 0);
    CHECK(file_size(right) == sparse_output_bytes(DType::f32, n, 100));
    CHECK(file_size(wrong) == sparse_output_bytes(DType::f32, n, 100));
    CHECK(read_output_array(right).values.size() == n);

    // Their references, made later on their own inputs, are sampled at the same positions, and
    // the scores are the kept runs': the first right, the second wrong at all 100.
    reference_run(41, sampled.bound);
    reference_run(42, sampled.bound);
    REQUIRE(keep_checked_run_samples(plan, {{"big", 41, "one"}, {"big", 42, "one"}}, dir / "work", dir / "reference", 99, 100)
                .empty());
    for (unsigned long long seed : {41ull, 42ull})
        CHECK(read_output_sample(dir / ("reference/" + checked_run_sample("big", "one", seed))).positions == positions->positions);
    const RunEvidence evidence = read_run(run, plan.part_names());
    CHECK(output_verdict(evidence, checked_run_file("one", first), dir / "reference", checked_run_sample("big", "one", 41), 1).pass);
    OutputVerdict v = output_verdict(evidence, checked_run_file("one", first + 1), dir / "reference",
                                     checked_run_sample("big", "one", 42), 1);
    CHECK_FALSE(v.pass);
    CHECK(v.bad == 100);

    // A reference whose sampled check left out one of those positions is the grader's error, said.
    std::vector<double> fewer = sampled.bound;
    fewer[positions->positions[3]] = std::nan("");
    reference_run(43, fewer);
    std::vector<std::string> problems = keep_checked_run_samples(plan, {{"big", 43, "one"}}, dir / "work", dir / "reference", 5, 100);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].find("bounds no value at position " + std::to_string(positions->positions[3])) != std::string::npos);
    CHECK_FALSE(fs::exists(dir / ("reference/" + checked_run_sample("big", "one", 43))));
}
