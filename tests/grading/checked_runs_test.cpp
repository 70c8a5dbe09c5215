// Which reference outputs of checked timed runs grade.sh is asked to make: those a student's
// records name, by the seeds of their inputs, never one of a part the reference sat out (lab 6's
// one-block sorts above 1024 pairs, where the reference has no output and grading stopped on the
// H200 because it was asked for one), nor a run a forged record names outside the part's timed
// runs or without its seed; and the reference's own runs on fresh inputs before any timed run.
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
    std::set<CheckedRun> missing() const { return missing_checked_run_references(plan, dir / "reference", dir / "lab"); }
    unsigned long long first(const std::string& case_name, const std::string& part) const {
        for (const CasePlan& c : plan.cases)
            if (c.name == case_name) return plan.timed_runs(c, part).first;
        FAIL("no case " << case_name);
        return 0;
    }
};

}  // namespace

TEST_CASE("checked runs: a record names them with their seeds, or names none") {
    Fixture f;
    const CasePlan& big = *f.plan.find_case("big");
    const unsigned long long a = f.first("big", "one");
    PartRecord r;
    auto named = [&](std::vector<unsigned long long> runs, std::vector<unsigned long long> seeds) {
        r.checked_runs = runs;
        r.checked_seeds = seeds;
        return kept_runs_named(f.plan, big, "one", r);
    };
    KeptRunsNamed honest = named({a, a + 1}, {77, 78});
    CHECK(honest.valid);
    CHECK(honest.expected == 2);
    REQUIRE(honest.runs.size() == 2);
    CHECK((honest.runs[1].index == a + 1 && honest.runs[1].seed == 78));
    // Too few, a seed short, the same run or the same seed twice, a run that is not timed.
    for (auto [runs, seeds] : std::vector<std::pair<std::vector<unsigned long long>, std::vector<unsigned long long>>>{
             {{a}, {77}}, {{a, a + 1}, {77}}, {{a, a}, {77, 78}}, {{a, a + 1}, {77, 77}}, {{a, a + 2}, {77, 78}}}) {
        KeptRunsNamed k = named(runs, seeds);
        CHECK_FALSE(k.valid);
        CHECK(k.runs.empty());
    }
    r.checked_runs_malformed = true;
    CHECK_FALSE(named({a, a + 1}, {77, 78}).valid);
    // small has one timed run a part: one kept.
    r = PartRecord{};
    r.checked_runs = {f.first("small", "two")};
    r.checked_seeds = {5};
    CHECK(kept_runs_named(f.plan, *f.plan.find_case("small"), "two", r).valid);
}

TEST_CASE("checked runs: a student's records name them; a forged name asks for nothing the reference cannot make") {
    Fixture f;
    const unsigned long long one = f.first("big", "one"), two = f.first("big", "two"), s = f.first("small", "one");
    CHECK(f.missing().empty());  // no runs yet

    f.dir.write("lab/runs/big/batch-1/out/results.tsv",
                "record=part\tpart=one\tstatus=ran\toutput=one.out\tchecked_runs=" + std::to_string(one) + " " +
                    std::to_string(one + 1) + "\tchecked_seeds=11 12\n" +
                    // the reference sat part two out on big: nothing to make
                    "record=part\tpart=two\tstatus=ran\toutput=two.out\tchecked_runs=" + std::to_string(two) + " " +
                    std::to_string(two + 1) + "\tchecked_seeds=13 14\n");
    // A forged record: its second run is not one of the case's timed runs.
    f.dir.write("lab/runs/small/batch-1/out/results.tsv", "record=part\tpart=one\tstatus=ran\toutput=one.out\tchecked_runs=" +
                                                               std::to_string(s + 7) + "\tchecked_seeds=15\n");
    CHECK(f.missing() == std::set<CheckedRun>{{"big", 11, "one"}, {"big", 12, "one"}});
    // A second timing of the same part names runs of its own, on inputs of their own.
    f.dir.write("lab/runs/big/second-timing/out/results.tsv", "record=part\tpart=one\tstatus=ran\toutput=one.out\tchecked_runs=" +
                                                                  std::to_string(one) + " " + std::to_string(one + 1) +
                                                                  "\tchecked_seeds=21 22\n");
    CHECK(f.missing().size() == 4);

    // One made already: it is not asked for again.
    f.dir.write("reference/" + checked_run_sample("big", "one", 11), "");
    CHECK(f.missing() == std::set<CheckedRun>{{"big", 12, "one"}, {"big", 21, "one"}, {"big", 22, "one"}});

    // Without the reference's run of the case, nothing is asked for (it is made first).
    f.dir.write("reference/big/out/results.tsv", "");
    CHECK(f.missing().empty());
}

TEST_CASE("checked runs: the reference's own runs on fresh inputs, one a part it ran on each case") {
    Fixture f;
    const std::set<CheckedRun> probes = reference_probe_runs(f.plan, f.dir / "reference", 99);
    // small: one and two; big: one (two sat out); wide: one (the reference's run names no two).
    REQUIRE(probes.size() == 4);
    std::set<unsigned long long> seeds;
    std::multiset<std::string> cases;
    for (const auto& [case_name, seed, part] : probes) {
        seeds.insert(seed);
        cases.insert(case_name + "/" + part);
        CHECK(seed < (1ull << 62));
    }
    CHECK(seeds.size() == 4);  // each on inputs of its own
    CHECK(cases == std::multiset<std::string>{"big/one", "small/one", "small/two", "wide/one"});
    // The same seeds from the same secret (--resume), others from another.
    CHECK(reference_probe_runs(f.plan, f.dir / "reference", 99) == probes);
    CHECK(reference_probe_runs(f.plan, f.dir / "reference", 98) != probes);
    // One made: not asked for again.
    const auto& [case_name, seed, part] = *probes.begin();
    f.dir.write("reference/" + checked_run_sample(case_name, part, seed), "");
    CHECK(reference_probe_runs(f.plan, f.dir / "reference", 99).size() == 3);
}

TEST_CASE("checked runs: a reference run's output kept as a sample, checked in the same read") {
    Fixture f;
    const std::string run = "work/" + checked_run_name({"big", 31, "one"});
    std::vector<float> values(100);
    std::vector<double> bounds(100, std::nan(""));
    for (size_t i = 0; i < values.size(); ++i) values[i] = float(i) * 0.5f;
    for (size_t i = 0; i < values.size(); i += 3) bounds[i] = 1e-3;  // a sampled check bounds some positions
    f.dir.write(run + "/results.tsv", "record=part\tpart=one\tstatus=ran\toutput=one.out\n");
    f.dir.write_floats(run + "/one.out", values, bounds);
    // A run that wrote no bounds, and one the reference never made.
    const std::string unbounded = "work/" + checked_run_name({"wide", 9, "one"});
    f.dir.write(unbounded + "/results.tsv", "record=part\tpart=one\tstatus=ran\toutput=one.out\n");
    f.dir.write_floats(unbounded + "/one.out", values);
    std::vector<std::string> problems = keep_checked_run_samples(
        f.plan, {{"big", 31, "one"}, {"wide", 9, "one"}, {"small", 1, "two"}}, f.dir / "work", f.dir / "reference", 5, 10);
    REQUIRE(problems.size() == 2);
    CHECK(problems[0].rfind("wide part one, the inputs of seed 9: ", 0) == 0);
    CHECK(problems[0].find("error bounds") != std::string::npos);
    CHECK(problems[1].rfind("small part two, the inputs of seed 1: ", 0) == 0);
    OutputSample sample = read_output_sample(f.dir / ("reference/" + checked_run_sample("big", "one", 31)));
    CHECK(sample.size == 100);
    REQUIRE(sample.positions.size() == 10);
    for (size_t i = 0; i < sample.positions.size(); ++i) {
        CHECK(sample.positions[i] % 3 == 0);  // only where the reference bounded
        CHECK(sample.values[i] == double(sample.positions[i]) * 0.5);
    }
    CHECK_FALSE(std::filesystem::exists(f.dir / ("reference/" + checked_run_sample("wide", "one", 9))));
}
