// The runs' progress line (grading/progress.hpp): its count, its failures, its time left, and
// its state as it passes from runner to runner. grading-pipeline.sh reads the lines of a class.
#include "catch.hpp"
#include "lab_score.hpp"
#include "progress.hpp"
#include "temp_folder.hpp"

namespace {
const char* kClean = "outcome=exited\texit=0\tsignal=\tseconds=1\twall_limit=30\tisolation=bwrap\n";
}

TEST_CASE("the time left is the time so far per unit of work, times the work left", "[grading][progress]") {
    ProgressState s;
    s.started_us = 0, s.work_all = 100, s.round = 1, s.rounds = 3, s.total = 10;
    CHECK(time_left(s, 5000000) == "not known yet");
    s.work_done = 50, s.done = 5;
    CHECK(time_left(s, 30000000) == "about 30 s");
    CHECK(time_left(s, 89000000) == "about 89 s");
    CHECK(time_left(s, 100000000) == "about 2 min");  // 100 s left
    s.work_done = 100;
    CHECK(time_left(s, 100000000) == "about 0 s");
    s.round = 3, s.done = 10;
    CHECK(time_left(s, 100000000) == "none");
    s.round_name = "sanitizers, hidden cases, scores";
    s.failed = {"ann\tlab1", "bob\tlab1"};
    CHECK(progress_line(s, 100000000) == "runs: round 3/3 (sanitizers, hidden cases, scores) 10/10, 2 with failures, time left: none");
}

TEST_CASE("the state passes through its file unchanged", "[grading][progress]") {
    TempFolder dir;
    ProgressState s;
    s.started_us = 1764180000123456, s.work_all = 1234, s.work_done = 56, s.round = 2, s.rounds = 3;
    s.round_name = "timed cases", s.total = 189, s.done = 57, s.failed = {"ann\tlab1", "o'neil\tlab7"};
    write_progress(dir / "progress", s);
    ProgressState back = read_progress(dir / "progress");
    CHECK(back.started_us == s.started_us);
    CHECK(back.work_all == 1234);
    CHECK(back.work_done == 56);
    CHECK(back.round == 2);
    CHECK(back.rounds == 3);
    CHECK(back.round_name == "timed cases");
    CHECK(back.total == 189);
    CHECK(back.done == 57);
    CHECK(back.failed == s.failed);
    dir.write("broken", "not a progress file\n");
    CHECK_THROWS_AS(read_progress(dir / "broken"), FormatError);
    CHECK_THROWS_AS(read_progress(dir / "missing"), FormatError);
}

TEST_CASE("a student x lab failed when a run ended badly or, once scored, an item failed", "[grading][progress]") {
    TempFolder dir;
    CHECK_FALSE(looks_failed(dir / "lab"));  // nothing run yet
    dir.write("lab/runs/small/batch-1/sandbox.tsv", kClean);
    dir.write("lab/sanitize/memcheck/sandbox.tsv", kClean);
    dir.write("lab/runs/small/a/not-run.txt", "the budget was spent\n");  // no run: no end to judge
    CHECK_FALSE(looks_failed(dir / "lab"));
    SECTION("a crash") {
        dir.write("lab/runs/small/b/sandbox.tsv", "outcome=signal\texit=139\tsignal=SIGSEGV\tseconds=1\twall_limit=30\tisolation=bwrap\n");
        CHECK(looks_failed(dir / "lab"));
    }
    SECTION("a sanitizer's error") {
        dir.write("lab/sanitize/racecheck/sandbox.tsv", "outcome=exited\texit=99\tsignal=\tseconds=1\twall_limit=30\tisolation=bwrap\n");
        CHECK(looks_failed(dir / "lab"));
    }
    SECTION("the score") {
        auto scored = [&](const std::string& state, bool passed) {
            LabScore score;
            score.lab = "labT", score.state = state;
            score.items.push_back({"correctness", "a", "small", "", passed ? 1.0 : 0.0, 1, passed, false, "", "", 0, 0, 0});
            score.items.push_back({"performance", "a", "perf", "", 0, 1, false, false, "", "", 0, 0, 0});
            write_lab_score(dir / "lab/score.tsv", score);
            return looks_failed(dir / "lab");
        };
        CHECK_FALSE(scored("graded", true));  // a lost performance point is no failure
        CHECK(scored("graded", false));
        CHECK(scored("build-failed", true));
        dir.write("lab/score.tsv", "record=lab\tnot a score\n");
        CHECK(looks_failed(dir / "lab"));  // unreadable: one to look at
    }
}
