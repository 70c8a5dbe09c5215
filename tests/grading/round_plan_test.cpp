// Which cases each round of a grading run runs, and the work the progress line weighs
// (grading/round_plan.hpp). grading-rounds.sh checks the rounds end to end.
#include "catch.hpp"
#include "manifest.hpp"
#include "round_plan.hpp"

namespace {

LabPlan plan_with(const std::string& extra) {
    return make_lab_plan(Manifest::parse(R"(
title = Test lab
student_files = work.cu
parts = a b
time_limit = 20
cases = small perf wide hid hperf
case.small.args = --n 3
case.small.visibility = public
case.small.points = 1
case.perf.args = --n 300
case.perf.visibility = public
case.perf.points = 1
case.wide.args = --n 30
case.wide.visibility = public
case.wide.points = 1
case.hid.args = --n 5
case.hid.visibility = hidden
case.hid.points = 1
case.hperf.args = --n 500
case.hperf.visibility = hidden
case.hperf.points = 1
perf.cases = perf hperf
perf.points = 1
perf.full_ratio = 1.2
perf.zero_ratio = 10
)" + extra, "m"), "labT");
}

}  // namespace

TEST_CASE("rounds: public untimed cases first, then the public timed ones, then the hidden ones", "[grading][rounds]") {
    RoundCases rounds = round_cases(plan_with(""));
    CHECK(rounds.public_untimed == std::vector<std::string>{"small", "wide"});
    CHECK(rounds.public_timed == std::vector<std::string>{"perf"});
    CHECK(rounds.hidden_untimed == std::vector<std::string>{"hid"});
    CHECK(rounds.hidden_timed == std::vector<std::string>{"hperf"});
}

TEST_CASE("rounds: the work of a student x lab in each round, sanitizers counted where they run", "[grading][rounds]") {
    LabPlan plan = plan_with("sanitize.case = small\nsanitize.tools = memcheck racecheck\nsanitize.points = 1\n");
    CHECK(round_work(plan, 1, true).untimed == 1);
    CHECK(round_work(plan, 1, true).timed == 0);
    CHECK(round_work(plan, 2, true).untimed == 0);
    CHECK(round_work(plan, 2, true).timed == 1);
    // Two tools and one process for the hidden untimed case; the hidden timed one alone.
    CHECK(round_work(plan, 3, true).untimed == 3);
    CHECK(round_work(plan, 3, true).timed == 1);
    // Without compute-sanitizer on the grading machine, its tools do not run.
    CHECK(round_work(plan, 3, false).untimed == 1);
    // A lab without performance cases has nothing to time.
    LabPlan untimed = plan_with("");
    untimed.cases.erase(untimed.cases.begin() + 1);  // perf
    untimed.cases.pop_back();                        // hperf
    CHECK(round_work(untimed, 2, true).timed == 0);
    CHECK(round_work(untimed, 3, true).timed == 0);
}
