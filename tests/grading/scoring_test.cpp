// Scoring a student x lab from the evidence a grading run leaves: every way a part can pass,
// fail or lose its points, on a small two-part lab.
#include <cmath>
#include <filesystem>

#include "manifest.hpp"
#include "output_sample.hpp"
#include "output_verdicts.hpp"

#include "catch.hpp"
#include "reference_run.hpp"
#include "reports.hpp"
#include "scoring.hpp"
#include "source_scan.hpp"
#include "temp_folder.hpp"

namespace {

const char* kManifest = R"(
student_files = k.cu
parts = one two
forbidden = cublas
forbidden.reason = write your own kernels
cases = small big
case.small.args = --n 3
case.small.visibility = public
case.small.points = 1
case.big.args = --n 2 --reps 2 --warmup 0
case.big.visibility = hidden
case.big.points = 2
perf.cases = big
perf.points = 4
perf.full_ratio = 1.2
perf.zero_ratio = 10
sanitize.case = small
sanitize.tools = memcheck
sanitize.points = 2
)";

const char* kExited = "outcome=exited\texit=0\tsignal=\tseconds=1\twall_limit=130\tisolation=bwrap\n";

struct Fixture {
    TempFolder dir;
    LabPlan plan = make_lab_plan(Manifest::parse(kManifest, "m"), "labT");
    ScoringInputs inputs{dir / "lab", dir / "reference", dir / "timing", ""};

    Fixture() {
        // The reference: outputs with bounds for each case, and its times on this GPU.
        dir.write_floats("reference/small/out/one.out", {1, 2, 3}, {0.1, 0.1, 0.1});
        dir.write_floats("reference/small/out/two.out", {1, 2, 3}, {0.1, 0.1, 0.1});
        dir.write("reference/small/out/results.tsv", "record=part\tpart=one\tstatus=ran\toutput=one.out\n"
                                                     "record=part\tpart=two\tstatus=ran\toutput=two.out\n");
        dir.write_floats("reference/big/out/one.out", {5, 6}, {0.1, 0.1});
        dir.write_floats("reference/big/out/two.out", {5, 6}, {0.1, 0.1});
        dir.write("reference/big/out/results.tsv", "record=part\tpart=one\tstatus=ran\toutput=one.out\n"
                                                   "record=part\tpart=two\tstatus=ran\toutput=two.out\n");
        dir.write("timing/t1/big/out/results.tsv", "record=part\tpart=one\tstatus=ran\ttime_ms=1.0\n"
                                                   "record=part\tpart=two\tstatus=ran\ttime_ms=1.0\n");
        // A student whose build worked, with no forbidden API.
        dir.write("lab/build/status", "ok\n");
        dir.write("lab/forbidden.tsv", "");
        // small: one right, two wrong, in one process.
        dir.write("lab/runs/small/batch-1/sandbox.tsv", kExited);
        dir.write_floats("lab/runs/small/batch-1/out/one.out", {1.05f, 2, 3});
        dir.write_floats("lab/runs/small/batch-1/out/two.out", {1, 2, 4});
        dir.write("lab/runs/small/batch-1/out/results.tsv", "record=part\tpart=one\tstatus=ran\toutput=one.out\ttime_ms=1\n"
                                                        "record=part\tpart=two\tstatus=ran\toutput=two.out\ttime_ms=1\n");
        // big: one right at twice the reference's time; then the process died (wall clock),
        // and part two, run on its own, crashed.
        dir.write("lab/runs/big/batch-1/sandbox.tsv", "outcome=timeout\texit=137\tsignal=SIGKILL\tseconds=130\twall_limit=130\tisolation=bwrap\n");
        dir.write_floats("lab/runs/big/batch-1/out/one.out", {5, 6});
        dir.write("lab/runs/big/batch-1/out/results.tsv", "record=part\tpart=one\tstatus=ran\toutput=one.out\ttime_ms=2.0\n");
        dir.write("lab/runs/big/two/sandbox.tsv", "outcome=signal\texit=139\tsignal=SIGSEGV\tseconds=1\twall_limit=130\tisolation=bwrap\n");
        dir.write("lab/runs/big/two/stderr.txt", "error: something private to the hidden case\n");
        // memcheck found errors.
        dir.write("lab/sanitize/memcheck/sandbox.tsv", "outcome=exited\texit=99\tsignal=\tseconds=1\twall_limit=270\tisolation=bwrap\n");
        dir.write("lab/sanitize/memcheck/log.txt", "========= Invalid __global__ write of size 4 bytes\n========= ERROR SUMMARY: 1 error\n");
    }

    // What an honest driver adds to what the tests write: every part that ran keeps the outputs
    // of its checked timed runs (small: its one timed run; big: both), here the same as its
    // checked run's (the test's inputs are the same in every run), with the seeds of their inputs
    // (here seed_of the run's index), and the reference has its outputs on those seeds. A test
    // that writes checked_runs itself is left as it is.
    static unsigned long long seed_of(unsigned long long index) { return 5000 + index; }
    std::string timed_runs(const CasePlan& c, const std::string& part, bool seeds = false) {
        LabPlan::TimedRuns t = plan.timed_runs(c, part);
        std::string runs;
        for (unsigned long long i = t.first; i < t.first + t.count && i < t.first + 2; ++i)
            runs += (runs.empty() ? "" : " ") + std::to_string(seeds ? seed_of(i) : i);
        return runs;
    }

    LabScore score() {
        namespace fs = std::filesystem;
        for (const CasePlan& c : plan.cases) {
            for (const std::string& part : plan.part_names())
                for (const std::string& r : split_words(timed_runs(c, part, true))) {
                    std::string dense = dir / ("reference/" + c.name + "/out/" + part + ".out");
                    std::string sample = dir / ("reference/" + checked_run_sample(c.name, part, std::stoull(r)));
                    if (fs::exists(dense) && !fs::exists(sample)) {
                        fs::create_directories(fs::path(sample).parent_path());
                        write_output_sample(sample, sample_output(read_output_array(dense), 65536, 1));
                    }
                }
            fs::path folder = dir / ("lab/runs/" + c.name);
            if (!fs::exists(folder)) continue;
            for (const auto& run : fs::directory_iterator(folder)) {
                fs::path results = run.path() / "out/results.tsv";
                if (!fs::exists(results)) continue;
                std::vector<Record> records = read_results(results);
                std::string text;
                for (Record& r : records) {
                    if (r["record"] == "part" && r["status"] == "ran" && !r.count("checked_runs") && !r["output"].empty() &&
                        fs::exists(run.path() / "out" / r["output"])) {
                        std::string runs = timed_runs(c, r["part"]);
                        r["checked_runs"] = runs;
                        r["checked_seeds"] = timed_runs(c, r["part"], true);
                        for (const std::string& i : split_words(runs))
                            fs::copy_file(run.path() / "out" / r["output"], run.path() / "out" / (r["part"] + ".run" + i + ".out"),
                                          fs::copy_options::overwrite_existing);
                    }
                    text += record_line(r);
                }
                dir.write(fs::relative(results, dir.path()).string(), text);
            }
        }
        return score_lab(plan, inputs);
    }

    const ScoreItem& item(const LabScore& s, const std::string& kind, const std::string& c, const std::string& part) {
        for (const ScoreItem& i : s.items)
            if (i.kind == kind && i.case_name == c && i.part == part) return i;
        FAIL("no item " + kind + " " + c + " " + part);
        throw 0;
    }
};

}  // namespace

TEST_CASE("each part earns its points only where its output matches", "[grading][scoring]") {
    Fixture f;
    LabScore s = f.score();
    CHECK(s.state == "graded");
    CHECK(s.max == 14);  // (1 + 2) x 2 parts + 4 x 2 parts
    CHECK(f.item(s, "correctness", "small", "one").points == 1);
    const ScoreItem& wrong = f.item(s, "correctness", "small", "two");
    CHECK(wrong.points == 0);
    CHECK(wrong.message.find("wrong result: 1 of 3 values wrong") != std::string::npos);
    CHECK(f.item(s, "correctness", "big", "one").points == 2);
    const ScoreItem& crashed = f.item(s, "correctness", "big", "two");
    CHECK(crashed.points == 0);
    CHECK(crashed.message == "no result: the program was killed by SIGSEGV");
    CHECK(crashed.hidden);
    CHECK(crashed.detail.empty());  // nothing of a hidden case's output is shown
}

TEST_CASE("performance points follow the curve, and need a correct result", "[grading][scoring]") {
    Fixture f;
    LabScore s = f.score();
    const ScoreItem& fast = f.item(s, "performance", "big", "one");
    CHECK(fast.ratio == 2);
    CHECK(std::fabs(fast.points - 4 * std::log(10 / 2.0) / std::log(10 / 1.2)) < 1e-3);
    CHECK(f.item(s, "performance", "big", "two").points == 0);
}

TEST_CASE("a time below the case's physical bound earns no points and is flagged", "[grading][scoring]") {
    Fixture f;
    // The reference timing run says this case cannot run faster than 0.5 ms on this GPU; the
    // student's run claims a bound of its own, which is not believed.
    f.dir.write("timing/t1/big/out/results.tsv", "record=run\tlab=labT\tfloor_ms=0.5\n"
                                              "record=part\tpart=one\tstatus=ran\ttime_ms=1.0\n"
                                              "record=part\tpart=two\tstatus=ran\ttime_ms=1.0\n");
    f.dir.write("lab/runs/big/batch-1/out/results.tsv", "record=run\tlab=labT\tfloor_ms=0.0001\n"
                                                      "record=part\tpart=one\tstatus=ran\toutput=one.out\ttime_ms=0.001\n");
    LabScore s = f.score();
    const ScoreItem& perf = f.item(s, "performance", "big", "one");
    CHECK(perf.points == 0);
    CHECK(perf.message.find("0.001 ms is below the fastest this case can run on this GPU (0.5 ms") != std::string::npos);
    CHECK(f.item(s, "below-bound", "big", "one").max == 0);
    CHECK(f.item(s, "correctness", "big", "one").points == 2);  // its output is still right
    CHECK(s.note == "a time below the physical bound: look at this submission");

    SECTION("the instructor's summary lists it; a time at the bound is believed") {
        StudentReport report;
        report.student = "mallory";
        report.labs = {s};
        CHECK(summary_table({report}, {"labT"}).find("Times below the physical bound") != std::string::npos);
        CHECK(summary_table({report}, {"labT"}).find("  mallory  labT  part one, case big: 0.001 ms") != std::string::npos);
        f.dir.write("lab/runs/big/batch-1/out/results.tsv", "record=part\tpart=one\tstatus=ran\toutput=one.out\ttime_ms=0.5\n");
        LabScore honest = f.score();
        CHECK(f.item(honest, "performance", "big", "one").points == 4);
        CHECK(honest.note.empty());
    }
}

TEST_CASE("sanitizer errors take the manifest's points; the total never goes below zero", "[grading][scoring]") {
    Fixture f;
    LabScore s = f.score();
    double sanitizer = 0;
    for (const ScoreItem& i : s.items)
        if (i.kind == "sanitizer") sanitizer += i.points;
    CHECK(sanitizer == -2);
    CHECK(std::fabs(s.points - (1 + 2 + 4 * std::log(5.0) / std::log(10 / 1.2) - 2)) < 1e-3);

    f.dir.write("lab/runs/small/batch-1/out/results.tsv", "");  // now nothing passes
    f.dir.write("lab/runs/big/batch-1/out/results.tsv", "");
    CHECK(f.score().points == 0);
}

TEST_CASE("a forbidden API zeroes every part, with the reason", "[grading][scoring]") {
    Fixture f;
    write_forbidden(f.dir / "lab/forbidden.tsv", {{"*", "k.cu:7", "cublasSgemm(h, ...)"}});
    LabScore s = f.score();
    CHECK(s.points == 0);
    CHECK(s.note == "forbidden API");
    CHECK(f.item(s, "correctness", "small", "one").message == "scores zero: forbidden API at k.cu:7");
    CHECK(f.item(s, "forbidden", "", "*").message.find("write your own kernels") != std::string::npos);
}

TEST_CASE("a compile error or a malformed submission gives zero with its reason", "[grading][scoring]") {
    Fixture f;
    f.dir.write("lab/build/status", "failed\n");
    f.dir.write("lab/build/log.txt", "make: entering\nlabs/labT/k.cu(3): error: identifier \"x\" is undefined\n");
    LabScore broken = f.score();
    CHECK(broken.state == "build-failed");
    CHECK(broken.points == 0);
    CHECK(f.item(broken, "build", "", "").detail.find("identifier \"x\" is undefined") != std::string::npos);
    CHECK(f.item(broken, "correctness", "small", "one").max == 1);  // the maximum stays visible

    f.dir.write("lab/problems.txt", "k.cu is missing\n");
    LabScore missing = f.score();
    CHECK(missing.state == "malformed");
    CHECK(missing.note == "k.cu is missing");
    CHECK(missing.points == 0);
}

TEST_CASE("cases that could not run (no GPU) say so", "[grading][scoring]") {
    Fixture f;
    f.dir.write("lab/not-run.txt", "no GPU was usable on the grading machine\n");
    LabScore s = f.score();
    CHECK(s.state == "not-run");
    CHECK(s.points == 0);
    CHECK(f.item(s, "run", "", "").message == "the cases were not run: no GPU was usable on the grading machine");
}

TEST_CASE("a broken reference is the grader's error, not the student's", "[grading][scoring]") {
    Fixture f;
    f.dir.write("reference/small/out/results.tsv", "record=part\tpart=one\tstatus=crashed\n");
    CHECK_THROWS_AS(f.score(), std::runtime_error);
    CHECK(reference_run_problem(f.dir / "reference/small", f.plan, true).find("part one") != std::string::npos);
    CHECK(reference_run_problem(f.dir / "reference/big", f.plan, true).empty());
    // One part's output, read for the check, is handed back (grader keep-checked-runs samples it).
    OutputArray two;
    CHECK(reference_run_problem(f.dir / "reference/big", f.plan, true, "two", &two).empty());
    CHECK(two.values == std::vector<double>{5, 6});
    CHECK(two.bound.size() == 2);
}

TEST_CASE("a part the reference sits out of a case scores there as on the cases it ran", "[grading][scoring]") {
    Fixture f;
    // The trusted driver sits part two out of case big (lab6: a one-block sort and a long array).
    f.dir.write("reference/big/out/results.tsv", "record=part\tpart=one\tstatus=ran\toutput=one.out\n"
                                                 "record=part\tpart=two\tstatus=skipped\tmessage=does not apply\n");
    f.dir.write("timing/t1/big/out/results.tsv", "record=part\tpart=one\tstatus=ran\ttime_ms=1.0\n"
                                                 "record=part\tpart=two\tstatus=skipped\tmessage=does not apply\n");
    // The student's big run finished, with both records (no run of part two on its own).
    std::filesystem::remove_all(f.dir / "lab/runs/big/two");
    f.dir.write("lab/runs/big/batch-1/sandbox.tsv", kExited);
    f.dir.write("lab/runs/big/batch-1/out/results.tsv", "record=part\tpart=one\tstatus=ran\toutput=one.out\ttime_ms=2.0\n"
                                                      "record=part\tpart=two\tstatus=skipped\tmessage=does not apply\n");
    auto right_two = [&] { f.dir.write_floats("lab/runs/small/batch-1/out/two.out", {1, 2, 3}); };

    SECTION("it passed every case it ran: the case's points, and its performance from its correctness") {
        right_two();
        LabScore s = f.score();
        CHECK(s.max == 14);  // the same maximum for everyone
        const ScoreItem& sat = f.item(s, "correctness", "big", "two");
        INFO(sat.message);
        CHECK(sat.points == 2);
        CHECK(sat.message.find("does not apply to this case (does not apply)") == 0);
        CHECK(f.item(s, "performance", "big", "two").points == 4);  // no performance case it ran
        CHECK(f.item(s, "correctness", "big", "one").points == 2);
    }
    SECTION("it failed a case it ran: nothing where it sat out") {
        LabScore s = f.score();  // two is wrong on small (the fixture)
        CHECK(f.item(s, "correctness", "big", "two").points == 0);
        CHECK(f.item(s, "performance", "big", "two").points == 0);
    }
    SECTION("the reference runs are complete without an output or a time for the part sat out") {
        CHECK(reference_run_problem(f.dir / "reference/big", f.plan, false).find("no time for part one") != std::string::npos);
        f.dir.write("timing/t1/big/out/results.tsv", "record=part\tpart=one\tstatus=ran\ttime_ms=1.0\n"
                                                     "record=part\tpart=two\tstatus=skipped\tmessage=does not apply\n");
        CHECK(reference_run_problem(f.dir / "timing/t1/big", f.plan, false).empty());
    }
    SECTION("a run that did not sit out as the reference did earns nothing there") {
        right_two();
        f.dir.write("lab/runs/big/batch-1/out/results.tsv", "record=part\tpart=one\tstatus=ran\toutput=one.out\ttime_ms=2.0\n"
                                                          "record=part\tpart=two\tstatus=ran\toutput=one.out\ttime_ms=2.0\n");
        LabScore s = f.score();
        const ScoreItem& sat = f.item(s, "correctness", "big", "two");
        CHECK(sat.points == 0);
        CHECK(sat.message.find("the reference sits this case out (does not apply), but this run did not") == 0);
    }
}

TEST_CASE("a part's checked timed runs must each match the reference on their own inputs", "[grading][scoring]") {
    Fixture f;
    f.score();  // the honest evidence, completed
    auto record = [&](const std::string& runs, const std::string& seeds = "5001") {
        f.dir.write("lab/runs/small/batch-1/out/results.tsv", "record=part\tpart=one\tstatus=ran\toutput=one.out\ttime_ms=1\tchecked_runs=" +
                                                                  runs + "\tchecked_seeds=" + seeds + "\n");
    };
    SECTION("honest: it passes") {
        record("1");
        CHECK(f.item(f.score(), "correctness", "small", "one").points == 1);
    }
    SECTION("a timed run that handed in an earlier result fails, naming the run") {
        record("1");
        // That run's own inputs' answer.
        write_output_sample(f.dir / ("reference/" + checked_run_sample("small", "one", 5001)),
                            sample_output(OutputArray{DType::f32, {7, 8, 9}, {0.1, 0.1, 0.1}}, 65536, 1));
        LabScore s = f.score();
        const ScoreItem& i = f.item(s, "correctness", "small", "one");
        CHECK(i.points == 0);
        CHECK(i.message.find("the checked run was right, but timed run 1 of 1 (inputs of its own, --data-seed 5001) is wrong") ==
              0);
    }
    SECTION("a record that names no checked run, a run that is not a timed one, too few, or no seed for one, fails") {
        // (run, seed): none; not a timed run; the same twice; not a number; no seed; a seed that is
        // not a number, or above what a driver draws (2^62); two seeds for one run.
        for (auto [runs, seeds] : std::vector<std::pair<std::string, std::string>>{
                 {"", ""}, {"0", "5000"}, {"2", "5002"}, {"1 1", "5001 5002"}, {"x", "5001"}, {"1", ""}, {"1", "x"},
                 {"1", "4611686018427387904"}, {"1", "5001 5002"}}) {
            record(runs, seeds);
            LabScore s = f.score();
            const ScoreItem& i = f.item(s, "correctness", "small", "one");
            INFO("checked_runs=" << runs << " checked_seeds=" << seeds);
            CHECK(i.points == 0);
            CHECK(i.message.find("its record does not name the 1 checked timed runs") == 0);
        }
    }
    SECTION("a sampled reference compares only the elements it keeps, and only those it bounds") {
        record("1");
        double nan = std::nan("");
        OutputSample sample = sample_output(OutputArray{DType::f32, {1, 99, 3}, {0.1, nan, 0.1}}, 65536, 1);
        CHECK(sample.positions == std::vector<uint64_t>{0, 2});
        write_output_sample(f.dir / ("reference/" + checked_run_sample("small", "one", 5001)), sample);
        CHECK(f.item(f.score(), "correctness", "small", "one").points == 1);
        f.dir.write_floats("lab/runs/small/batch-1/out/one.run1.out", {1, 2, 30});
        CHECK(f.item(f.score(), "correctness", "small", "one").points == 0);
        // At most `at_most` positions, the same ones for the same seed.
        OutputArray wide{DType::f32, std::vector<double>(1000, 1.0), std::vector<double>(1000, 0.1)};
        CHECK(sample_output(wide, 10, 7).positions.size() == 10);
        CHECK(sample_output(wide, 10, 7).positions == sample_output(wide, 10, 7).positions);
        CHECK(sample_output(wide, 10, 7).positions != sample_output(wide, 10, 8).positions);
    }
    SECTION("a missing reference of a checked run is the grader's error") {
        record("1");
        std::filesystem::remove_all(f.dir / "reference/small/seed5001");
        CHECK_THROWS_AS(score_lab(f.plan, f.inputs), std::runtime_error);
    }
}

TEST_CASE("the reference time is the median of its timings through the run", "[grading][scoring]") {
    Fixture f;
    f.dir.write("timing/t2/big/out/results.tsv", "record=part\tpart=one\tstatus=ran\ttime_ms=3.0\n"
                                                 "record=part\tpart=two\tstatus=ran\ttime_ms=3.0\n");
    f.dir.write("timing/t3/big/out/results.tsv", "record=part\tpart=one\tstatus=ran\ttime_ms=2.0\n"
                                                 "record=part\tpart=two\tstatus=ran\ttime_ms=2.0\n");
    LabScore s = f.score();
    const ScoreItem& perf = f.item(s, "performance", "big", "one");
    CHECK(perf.reference_ms == 2.0);  // the median of 1, 3 and 2
    CHECK(perf.ratio == 1.0);
}

// The second timing (scoring.hpp, parts_to_time_again): big's part one took 2x the reference's
// time, past its full_ratio of 1.2; part two has no time (it crashed).
TEST_CASE("a part timed past its full points is timed again, and the better correct time counts", "[grading][scoring]") {
    Fixture f;
    using Pairs = std::vector<std::pair<std::string, std::string>>;
    CHECK(parts_to_time_again(f.plan, f.inputs, {"small", "big"}) == Pairs{{"big", "one"}});
    f.dir.write("lab/runs/big/batch-1/out/results.tsv", "record=part\tpart=one\tstatus=ran\toutput=one.out\ttime_ms=1.2\n");
    CHECK(parts_to_time_again(f.plan, f.inputs, {"big"}).empty());  // at full_ratio: full points already
    f.dir.write_floats("lab/runs/big/batch-1/out/one.out", {50, 6});
    f.dir.write("lab/runs/big/batch-1/out/results.tsv", "record=part\tpart=one\tstatus=ran\toutput=one.out\ttime_ms=2.0\n");
    CHECK(parts_to_time_again(f.plan, f.inputs, {"big"}).empty());  // wrong: no performance point to win
    f.dir.write_floats("lab/runs/big/batch-1/out/one.out", {5, 6});
    f.dir.write("lab/runs/big/batch-1/out/results.tsv", "record=part\tpart=one\tstatus=ran\toutput=one.out\ttime_ms=2.0\n");

    const std::string second = std::string("lab/runs/big/") + kSecondTiming;
    auto timed_again = [&](double ms, float first_value) {
        f.dir.write(second + "/sandbox.tsv", kExited);
        f.dir.write_floats(second + "/out/one.out", {first_value, 6});
        f.dir.write(second + "/out/results.tsv",
                    "record=part\tpart=one\tstatus=ran\toutput=one.out\ttime_ms=" + std::to_string(ms) + "\n");
    };
    SECTION("faster and correct: its time is scored, and the message names the first") {
        timed_again(1.0, 5);
        const ScoreItem& perf = f.item(f.score(), "performance", "big", "one");
        CHECK(perf.points == 4);
        CHECK(perf.student_ms == 1.0);
        CHECK(perf.message.find("the better of two timings (the first: 2 ms)") != std::string::npos);
    }
    SECTION("slower, or crashed before its record: the first stands") {
        timed_again(3.0, 5);
        CHECK(f.item(f.score(), "performance", "big", "one").student_ms == 2.0);
        f.dir.write(second + "/sandbox.tsv", "outcome=signal\texit=139\tsignal=SIGSEGV\tseconds=1\twall_limit=130\tisolation=bwrap\n");
        f.dir.write(second + "/out/results.tsv", "");
        LabScore s = f.score();
        CHECK(f.item(s, "performance", "big", "one").student_ms == 2.0);
        CHECK(f.item(s, "correctness", "big", "one").points == 2);
    }
    SECTION("faster but wrong, or its checked timed runs wrong: the first stands, still correct") {
        timed_again(1.0, 50);
        LabScore s = f.score();
        CHECK(f.item(s, "performance", "big", "one").student_ms == 2.0);
        CHECK(f.item(s, "correctness", "big", "one").points == 2);
        timed_again(1.0, 5);
        f.score();  // the honest checked timed runs, then one of them wrong
        for (const auto& file : std::filesystem::directory_iterator(f.dir / (second + "/out")))
            if (file.path().filename().string().rfind("one.run", 0) == 0)
                f.dir.write_floats(second + "/out/" + file.path().filename().string(), {50, 6});
        CHECK(f.item(f.score(), "performance", "big", "one").student_ms == 2.0);
    }
}

// grader check-outputs, as each run ends (output_verdicts.hpp): the arrays go, and the score is
// the one the arrays give; a verdict the program forges in its own folder counts for nothing.
TEST_CASE("outputs checked as each run ends score the same, and their arrays are removed", "[grading][scoring]") {
    namespace fs = std::filesystem;
    Fixture f;
    // A forged verdict, where the program can write (out/): part two is wrong on small.
    f.dir.write("lab/runs/small/batch-1/out/verdicts.tsv", "two.out\tsmall/out/two.out\t1\t3\t0\t\n");
    const LabScore before = f.score();
    CHECK(f.item(before, "correctness", "small", "two").points == 0);
    // One checked timed run's sample is not made yet (grade.sh makes those a student's records
    // name when it is scored): its output stays until then.
    const CasePlan& big = *f.plan.find_case("big");
    const unsigned long long first = f.plan.timed_runs(big, "one").first;
    const fs::path sample = f.dir / ("reference/" + checked_run_sample("big", "one", f.seed_of(first)));
    const fs::path kept = sample.string() + ".kept";
    fs::rename(sample, kept);

    size_t checked = 0;
    for (const CasePlan& c : f.plan.cases)
        for (const auto& run : fs::directory_iterator(f.dir / ("lab/runs/" + c.name)))
            checked += check_run_outputs(f.plan, c, run.path().string(), f.dir / "reference", false).verdicts;
    CHECK(checked == 6);  // small: one and two, each with its timed run; big: one and its second timed run
    std::vector<std::string> left;
    for (const auto& file : fs::recursive_directory_iterator(f.dir / "lab/runs"))
        if (file.is_regular_file() && file.path().parent_path().filename() == "out" && file.path().filename() != "results.tsv")
            left.push_back(file.path().filename().string());
    CHECK(left == std::vector<std::string>{checked_run_file("one", first)});

    fs::rename(kept, sample);
    const LabScore after = score_lab(f.plan, f.inputs);
    REQUIRE(after.items.size() == before.items.size());
    for (size_t i = 0; i < after.items.size(); ++i) {
        INFO(before.items[i].kind << " " << before.items[i].case_name << " " << before.items[i].part);
        CHECK(after.items[i].points == before.items[i].points);
        CHECK(after.items[i].message == before.items[i].message);
    }
    CHECK(after.points == before.points);
}

TEST_CASE("checking outputs keeps them when asked, and removes nothing without the reference", "[grading][scoring]") {
    namespace fs = std::filesystem;
    Fixture f;
    f.score();  // the checked timed runs' outputs and samples, as an honest driver leaves them
    const CasePlan& small = *f.plan.find_case("small");
    const std::string run = f.dir / "lab/runs/small/batch-1";
    auto arrays = [&] {
        size_t n = 0;
        for (const auto& file : fs::directory_iterator(run + "/out")) n += file.path().extension() == ".out";
        return n;
    };
    REQUIRE(arrays() == 4);  // one.out, two.out and each one's checked timed run

    SECTION("a wrong reference folder: an error, and every output stays") {
        CHECK_THROWS_WITH(check_run_outputs(f.plan, small, run, f.dir / "no-reference", false),
                          LAB_CONTAINS("the reference run of case small is missing"));
        CHECK(arrays() == 4);
        CHECK(!fs::exists(run + "/verdicts.tsv"));
    }
    SECTION("kept (GRADE_KEEP_WORK=1): the verdicts are written, the arrays stay") {
        CHECK(check_run_outputs(f.plan, small, run, f.dir / "reference", true).verdicts == 4);
        CHECK(arrays() == 4);
        CHECK(fs::exists(run + "/verdicts.tsv"));
        CHECK(check_run_outputs(f.plan, small, run, f.dir / "reference", false).verdicts == 0);  // nothing checked twice
        CHECK(arrays() == 0);
    }
}
