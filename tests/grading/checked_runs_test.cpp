// Which reference outputs of checked timed runs grade.sh is asked to make: never one of a part
// the reference sat out (lab 6's one-block sorts above 1024 pairs, where the reference has no
// output and grading stopped on the H200 because it was asked for one), nor a run a forged
// record names outside the part's timed runs.
#include <cmath>
#include <filesystem>

#include "catch.hpp"
#include "checked_runs.hpp"
#include "output_sample.hpp"
#include "manifest.hpp"
#include "run_evidence.hpp"
#include "temp_folder.hpp"

namespace {

const char* kManifest = R"(
student_files = k.cu
parts = one two
cases = small big wide
case.small.args = --n 3
case.small.visibility = public
case.small.points = 1
case.big.args = --n 2 --reps 2 --warmup 0
case.big.visibility = public
case.big.points = 1
case.wide.args = --n 4 --reps 6 --warmup 1
case.wide.visibility = public
case.wide.points = 1
perf.cases = big wide
perf.points = 1
perf.full_ratio = 1.2
perf.zero_ratio = 10
)";

struct Fixture {
    TempFolder dir;
    LabPlan plan = make_lab_plan(Manifest::parse(kManifest, "m"), "labT");
    Fixture() {
        // The reference ran both parts on small, and sat part two out on big.
        dir.write("reference/small/out/results.tsv", "record=part\tpart=one\tstatus=ran\toutput=one.out\n"
                                                     "record=part\tpart=two\tstatus=ran\toutput=two.out\n");
        dir.write("reference/big/out/results.tsv", "record=part\tpart=one\tstatus=ran\toutput=one.out\n"
                                                   "record=part\tpart=two\tstatus=skipped\tmessage=does not apply\n");
        dir.write("reference/wide/out/results.tsv", "record=part\tpart=one\tstatus=ran\toutput=one.out\n");
    }
    std::set<CheckedRun> missing(unsigned long long students, unsigned long long side_by_side = 1) const {
        return missing_checked_run_references(plan, dir / "reference", dir / "lab", students, side_by_side);
    }
    unsigned long long first(const std::string& case_name, const std::string& part) const {
        for (const CasePlan& c : plan.cases)
            if (c.name == case_name) return plan.timed_runs(c, part).first;
        FAIL("no case " << case_name);
        return 0;
    }
};

}  // namespace

TEST_CASE("checked runs: those made first, by class size, but none of a part the reference sat out") {
    Fixture f;
    const unsigned long long a = f.first("big", "one"), s1 = f.first("small", "one"), s2 = f.first("small", "two");
    const unsigned long long w = f.first("wide", "one");
    // small, untimed, has one timed run a part, big two and wide six: a student's driver keeps
    // every run of the first two, so even a class of one has them made first.
    CHECK(made_first_up_to(1, 1) == 2);
    CHECK(made_first_up_to(3, 1) == 6);
    CHECK(made_first_up_to(3, 16) == 96);
    CHECK(made_first_up_to(0, 0) == 2);
    const std::set<CheckedRun> every_driver_keeps{{"small", s1, "one"}, {"small", s2, "two"}, {"big", a, "one"}, {"big", a + 1, "one"}};
    CHECK(f.missing(1) == every_driver_keeps);
    CHECK(f.missing(2) == every_driver_keeps);
    // Three students keep up to six of wide's runs of a part: every one is made first.
    std::set<CheckedRun> class_of_three = every_driver_keeps;
    for (unsigned long long i = w; i < w + 6; ++i) class_of_three.insert({"wide", i, "one"});
    CHECK(f.missing(3) == class_of_three);
    // Made two at a time, a class of two (up to four of wide's six kept) has them all made first,
    // which one run at a time it does not.
    CHECK(f.missing(2, 2) == class_of_three);

    // One made already: it is not asked for again.
    f.dir.write("reference/" + checked_run_sample("big", "one", a), "");
    CHECK(f.missing(1) == std::set<CheckedRun>{{"small", s1, "one"}, {"small", s2, "two"}, {"big", a + 1, "one"}});
}

TEST_CASE("checked runs: a student's records name them; a forged name asks for nothing the reference cannot make") {
    Fixture f;
    const unsigned long long one = f.first("big", "one"), two = f.first("big", "two");
    CHECK(f.missing(0).empty());  // no runs yet

    f.dir.write("lab/runs/big/batch-1/out/results.tsv",
                "record=part\tpart=one\tstatus=ran\toutput=one.out\tchecked_runs=" + std::to_string(one) + " " +
                    std::to_string(one + 7) + "\n" +  // the second is not one of the case's timed runs
                    "record=part\tpart=two\tstatus=ran\toutput=two.out\tchecked_runs=" + std::to_string(two) + "\n");
    CHECK(f.missing(0) == std::set<CheckedRun>{{"big", one, "one"}});

    // Without the reference's run of the case, nothing is asked for (it is made first).
    f.dir.write("reference/big/out/results.tsv", "");
    CHECK(f.missing(0).empty());
}

TEST_CASE("checked runs: a reference run's output kept as a sample, checked in the same read") {
    Fixture f;
    const unsigned long long a = f.first("big", "one");
    const std::string run = "work/big.run" + std::to_string(a);
    std::vector<float> values(100);
    std::vector<double> bounds(100, std::nan(""));
    for (size_t i = 0; i < values.size(); ++i) values[i] = float(i) * 0.5f;
    for (size_t i = 0; i < values.size(); i += 3) bounds[i] = 1e-3;  // a sampled check bounds some positions
    f.dir.write(run + "/results.tsv", "record=part\tpart=one\tstatus=ran\toutput=one.out\n");
    f.dir.write_floats(run + "/one.out", values, bounds);
    // A run that wrote no bounds, and one the reference never made.
    f.dir.write("work/wide.run9/results.tsv", "record=part\tpart=one\tstatus=ran\toutput=one.out\n");
    f.dir.write_floats("work/wide.run9/one.out", values);
    std::vector<std::string> problems = keep_checked_run_samples(
        f.plan, {{"big", a, "one"}, {"wide", 9, "one"}, {"small", 1, "two"}}, f.dir / "work", f.dir / "reference", 5, 10);
    REQUIRE(problems.size() == 2);
    CHECK(problems[0].rfind("wide part one, timed run 9: ", 0) == 0);
    CHECK(problems[0].find("error bounds") != std::string::npos);
    CHECK(problems[1].rfind("small part two, timed run 1: ", 0) == 0);
    OutputSample sample = read_output_sample(f.dir / ("reference/" + checked_run_sample("big", "one", a)));
    CHECK(sample.size == 100);
    REQUIRE(sample.positions.size() == 10);
    for (size_t i = 0; i < sample.positions.size(); ++i) {
        CHECK(sample.positions[i] % 3 == 0);  // only where the reference bounded
        CHECK(sample.values[i] == double(sample.positions[i]) * 0.5);
    }
    CHECK_FALSE(std::filesystem::exists(f.dir / ("reference/" + checked_run_sample("wide", "one", 9))));
}
