// The rules of a student x lab's sandboxed runs (grading/run_ledger.hpp): each case's wall
// clock, the run-time budget and what is left of it, and the retirement of a part that the time
// limit stopped on three cases. grading-rounds.sh and grading-pipeline.sh check them end to end,
// with a part that never ends and a submission that sleeps.
#include <fstream>

#include "catch.hpp"
#include "result_files.hpp"
#include "run_ledger.hpp"
#include "temp_folder.hpp"

namespace {

// Limits of 20 s (the lab's), 45 s and 1.25 s.
LabPlan test_plan() {
    return make_lab_plan(Manifest::parse(R"(
title = Test lab
student_files = work.cu
parts = a b
time_limit = 20
cases = small big tiny
case.small.args = --n 10
case.small.visibility = public
case.small.points = 1
case.big.args = --n 1000
case.big.visibility = hidden
case.big.points = 1
case.big.time_limit = 45
case.tiny.args = --n 1
case.tiny.visibility = public
case.tiny.points = 1
case.tiny.time_limit = 1.25
)",
                                         "test-manifest"),
                         "labX");
}

}  // namespace

TEST_CASE("a case's time limit is the manifest's, or --time-limit when lower", "[grading][ledger]") {
    LabPlan plan = test_plan();
    const CasePlan& big = *plan.find_case("big");
    CHECK(case_time_limit(big, WallRules{}) == 45);
    CHECK(case_time_limit(big, WallRules{30, 10}) == 30);
    CHECK(case_time_limit(big, WallRules{60, 10}) == 45);
    CHECK(case_time_limit(*plan.find_case("tiny"), WallRules{30, 10}) == 1.25);
}

TEST_CASE("a process's wall clock: 2 x each case's limit, the margin once, whole seconds", "[grading][ledger]") {
    WallRules rules{0, 10};
    CHECK(process_wall(20, rules) == 50);
    CHECK(process_wall(1.25, rules) == 12);  // 2.5 + 10, the fraction dropped
    CHECK(process_wall(1, WallRules{0, 3}) == 5);
    // Each case's 2 x limit counts in whole seconds, as the shell added them.
    CHECK(batch_wall({20, 45, 1.25}, rules) == 40 + 90 + 2 + 10);
    CHECK(batch_wall({20}, rules) == process_wall(20, rules));
    CHECK(sanitizer_wall(20) == 110);
    CHECK(sanitizer_wall(1.25) == 35);
}

TEST_CASE("the default budget is three of the lab's longest process walls", "[grading][ledger]") {
    LabPlan plan = test_plan();
    CHECK(default_budget(plan, WallRules{0, 10}) == 3 * (2 * 45 + 10));
    // --time-limit lowers the longest case: --time-limit 1 and a margin of 3 give 3 x 5 s.
    CHECK(default_budget(plan, WallRules{1, 3}) == 15);
}

TEST_CASE("a run's wall is the lower of what it wants and what is left", "[grading][ledger]") {
    RunLedger ledger;
    ledger.budget = 60;
    CHECK(wall_within_budget(ledger, 50) == 50);
    spend(ledger, 25.5);
    CHECK(wall_within_budget(ledger, 50) == 34);  // 34.5 s left: whole seconds
    CHECK(wall_within_budget(ledger, 10) == 10);
}

TEST_CASE("spending adds each run's seconds, to the millisecond", "[grading][ledger]") {
    RunLedger ledger;
    ledger.budget = 15;
    spend(ledger, 4.0004);
    spend(ledger, 5.25);
    CHECK(ledger.spent == Approx(9.25));
    spend(ledger, 0);   // a run with no record of its end costs nothing known
    spend(ledger, -3);  // nor can a bad number give time back
    CHECK(ledger.spent == Approx(9.25));
}

TEST_CASE("every run draws on the budget but a second timing, the grader's choice", "[grading][ledger]") {
    for (const char* kind : {"batch", "part", "sanitizer"}) CHECK(spent_from_budget(kind));
    CHECK_FALSE(spent_from_budget(kSecondTiming));
}

TEST_CASE("a spent budget leaves no wall: nothing more starts", "[grading][ledger]") {
    RunLedger ledger;
    ledger.budget = 15;
    spend(ledger, 14.2);
    CHECK_FALSE(wall_within_budget(ledger, 5).has_value());  // 0.8 s left: less than a second
    spend(ledger, 3);  // a run may overrun by its own rounding
    CHECK_FALSE(wall_within_budget(ledger, 5).has_value());
    CHECK(budget_reason(ledger, "labcpu") == "this submission used up its run-time budget for labcpu (15 s of runs in all)");
}

TEST_CASE("a case on which a part was stopped counts once", "[grading][ledger]") {
    RunLedger ledger;
    CHECK(note_stop(ledger, "b", "small"));
    CHECK_FALSE(note_stop(ledger, "b", "small"));  // its batch, then its run alone
    CHECK(note_stop(ledger, "b", "tiny"));
    CHECK_FALSE(note_stop(ledger, "b", "tiny"));
    CHECK(ledger.stopped_on.at("b") == std::vector<std::string>{"small", "tiny"});
    CHECK_FALSE(retired(ledger, "b"));
}

TEST_CASE("a part stopped on three cases is retired, the others are not", "[grading][ledger]") {
    RunLedger ledger;
    note_stop(ledger, "b", "small");
    note_stop(ledger, "b", "tiny");
    note_stop(ledger, "a", "small");
    CHECK_FALSE(retired(ledger, "b"));
    note_stop(ledger, "b", "medium");
    CHECK(retired(ledger, "b"));
    CHECK_FALSE(retired(ledger, "a"));
    CHECK_FALSE(retired(ledger, "c"));  // never stopped
}

TEST_CASE("a retired part's reason names the cases it was stopped on", "[grading][ledger]") {
    RunLedger ledger;
    for (const char* c : {"small", "tiny", "medium"}) note_stop(ledger, "b", c);
    CHECK(retired_reason(ledger, "b") ==
          "b was stopped by its time limit on cases small, tiny and medium, so it is not run on later cases "
          "(a part that never ends would cost each its time limit)");
    note_stop(ledger, "b", "big");
    CHECK(retired_reason(ledger, "b").rfind("b was stopped by its time limit on cases small, tiny, medium and big, so", 0) == 0);
    CHECK(none_left_reason("lab1") == "every part of lab1 was stopped by its time limit on 3 cases, so none is left to run");
}

TEST_CASE("the ledger file keeps the budget, the seconds spent and the stops across rounds", "[grading][ledger]") {
    TempFolder dir;
    RunLedger ledger;
    ledger.budget = 100;
    spend(ledger, 12.345);
    for (const char* c : {"small", "tiny", "big"}) note_stop(ledger, "b", c);
    note_stop(ledger, "a", "big");
    std::string path = dir.write("ledger.tsv", ledger_text(ledger));
    RunLedger back = read_ledger(path);
    CHECK(back.budget == 100);
    CHECK(back.spent == Approx(12.345));
    CHECK(back.stopped_on == ledger.stopped_on);
    CHECK(retired(back, "b"));
    CHECK(retired_reason(back, "b") == retired_reason(ledger, "b"));

    CHECK_THROWS_AS(read_ledger(dir / "none.tsv"), FormatError);
    CHECK_THROWS_AS(read_ledger(dir.write("bad.tsv", "record=ledger\tbudget=ten\tspent=0\n")), FormatError);
    CHECK_THROWS_AS(read_ledger(dir.write("headless.tsv", "record=stopped\tpart=b\tcases=small\n")), FormatError);
}

TEST_CASE("a retired part's pairs are dropped, the others kept in order", "[grading][ledger]") {
    RunLedger ledger;
    for (const char* c : {"small", "tiny", "medium"}) note_stop(ledger, "b", c);
    std::vector<std::string> dropped;
    CHECK(not_retired(ledger, {"wide/a", "wide/b", "wide/c", "big/b"}, dropped) == std::vector<std::string>{"wide/a", "wide/c"});
    CHECK(dropped == std::vector<std::string>{"wide/b", "big/b"});
}

TEST_CASE("after a batch died: its stops are noted, the pairs it left without a record run next", "[grading][ledger]") {
    const std::vector<std::string> parts = {"a", "b", "c"};
    TempFolder dir;
    // small: every part recorded, b stopped by the watchdog; tiny: a recorded, then the process
    // died in b (the wall clock), so b and c have no record; medium never started.
    dir.write("small/out/results.tsv",
              "record=part\tpart=a\tstatus=ran\toutput=a.out\n"
              "record=part\tpart=b\tstatus=timeout\n"
              "record=part\tpart=c\tstatus=ran\toutput=c.out\n");
    dir.write("tiny/out/results.tsv", "record=part\tpart=a\tstatus=ran\toutput=a.out\n");
    std::map<std::string, RunEvidence> runs = {{"small", read_run(dir / "small", parts)},
                                               {"tiny", read_run(dir / "tiny", parts)},
                                               {"medium", read_run(dir / "medium", parts)}};
    RunLedger ledger;
    std::vector<std::string> pairs = {"small/a", "small/b", "small/c", "tiny/a", "tiny/b", "tiny/c", "medium/a", "medium/b"};
    CHECK(unrecorded_after_batch(ledger, pairs, runs, parts) ==
          std::vector<std::string>{"tiny/b", "tiny/c", "medium/a", "medium/b"});
    CHECK(ledger.stopped_on.at("b") == std::vector<std::string>{"small"});  // tiny's b: only its own run can tell
    // The same batch read twice counts its case once.
    unrecorded_after_batch(ledger, pairs, runs, parts);
    CHECK(ledger.stopped_on.at("b").size() == 1);
}

TEST_CASE("stops found in one batch are listed in the order its cases ran", "[grading][ledger]") {
    const std::vector<std::string> parts = {"a", "b"};
    TempFolder dir;
    for (const char* c : {"tiny", "medium", "small"}) dir.write(std::string(c) + "/out/results.tsv", "record=part\tpart=b\tstatus=timeout\n");
    std::map<std::string, RunEvidence> runs;
    for (const char* c : {"tiny", "medium", "small"}) runs[c] = read_run(dir / c, parts);
    RunLedger ledger;
    unrecorded_after_batch(ledger, {"tiny/b", "medium/b", "small/b"}, runs, parts);
    CHECK(retired(ledger, "b"));
    CHECK(retired_reason(ledger, "b").rfind("b was stopped by its time limit on cases tiny, medium and small, so", 0) == 0);
}
