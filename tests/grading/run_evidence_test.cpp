// What a student's results.tsv may say, and what the grader believes of it.
#include "catch.hpp"
#include "run_evidence.hpp"
#include "sanitizer_log.hpp"
#include "temp_folder.hpp"

namespace {
const std::vector<std::string> kParts = {"first", "second", "third"};
}

TEST_CASE("valid records are read, statuses parsed, times checked", "[grading][evidence]") {
    TempFolder dir;
    dir.write("out/results.tsv",
              "record=run\tlab=x\n"
              "record=part\tpart=first\tstatus=ran\toutput=first.out\ttime_ms=1.5\n"
              "record=part\tpart=second\tstatus=not implemented\n"
              "record=part\tpart=third\tstatus=ran\toutput=third.out\ttime_ms=-4\n");
    RunEvidence run = read_run(dir.path(), kParts);
    REQUIRE(run.parts.size() == 3);
    CHECK(run.parts["first"].time_ms == 1.5);
    CHECK(run.parts["first"].output == "first.out");
    CHECK(run.parts["second"].status == PartStatus::not_implemented);
    CHECK(run.parts["third"].time_ms == 0);  // a negative time is no time
    CHECK(unrecorded_parts(run, kParts).empty());
}

TEST_CASE("hostile records are rejected, never believed", "[grading][evidence]") {
    TempFolder dir;
    dir.write("out/results.tsv",
              "record=part\tpart=first\tstatus=ran\toutput=../../reference/first.out\n"
              "record=part\tpart=second\tstatus=PASS\n"
              "record=part\tpart=bogus\tstatus=ran\n"
              "record=part\tpart=third\tstatus=crashed\n"
              "record=part\tpart=third\tstatus=ran\toutput=third.out\n");
    RunEvidence run = read_run(dir.path(), kParts);
    REQUIRE(run.parts.count("first") == 1);
    CHECK(run.parts["first"].output.empty());  // a path is not an output name
    CHECK(run.parts.count("second") == 0);     // unknown status
    CHECK(run.parts.count("third") == 0);      // two records for one part
    CHECK(run.problems.size() == 4);
    CHECK(unrecorded_parts(run, kParts).empty());  // rejected parts are not run again
}

TEST_CASE("parts without a record are the ones to run again", "[grading][evidence]") {
    TempFolder dir;
    dir.write("out/results.tsv", "record=part\tpart=first\tstatus=ran\toutput=first.out\n");
    CHECK(unrecorded_parts(read_run(dir.path(), kParts), kParts) == std::vector<std::string>{"second", "third"});
    TempFolder empty;
    RunEvidence none = read_run(empty.path(), kParts);
    CHECK_FALSE(none.results_present);
    CHECK(unrecorded_parts(none, kParts) == kParts);
}

TEST_CASE("the parts the driver's watchdog stopped are those recorded as timeout", "[grading][evidence]") {
    TempFolder dir;
    dir.write("out/results.tsv",
              "record=part\tpart=first\tstatus=ran\toutput=first.out\n"
              "record=part\tpart=second\tstatus=timeout\tmessage=the kernel was still running after 8 s\n");
    RunEvidence run = read_run(dir.path(), kParts);
    CHECK(stopped_parts(run, kParts) == std::vector<std::string>{"second"});
    CHECK(unrecorded_parts(run, kParts) == std::vector<std::string>{"third"});  // the process ended there
    TempFolder empty;
    CHECK(stopped_parts(read_run(empty.path(), kParts), kParts).empty());
}

TEST_CASE("how a sandboxed process ended is told in words", "[grading][evidence]") {
    TempFolder dir;
    dir.write("sandbox.tsv", "outcome=timeout\texit=137\tsignal=SIGKILL\tseconds=130.2\twall_limit=130\tisolation=bwrap\n");
    SandboxOutcome end = read_sandbox_outcome(dir / "sandbox.tsv");
    CHECK(end.describe() == "the program was stopped after 130 s by the wall-clock limit");
    dir.write("crash.tsv", "outcome=signal\texit=139\tsignal=SIGSEGV\tseconds=1\twall_limit=130\tisolation=bwrap\n");
    CHECK(read_sandbox_outcome(dir / "crash.tsv").describe() == "the program was killed by SIGSEGV");
    CHECK_FALSE(read_sandbox_outcome(dir / "absent.tsv").present);
}

TEST_CASE("sanitizer verdicts come from the exit status and the summary line", "[grading][sanitizer]") {
    TempFolder dir;
    dir.write("clean/sandbox.tsv", "outcome=exited\texit=0\tsignal=\tseconds=3\twall_limit=270\tisolation=bwrap\n");
    dir.write("clean/log.txt", "========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n");
    CHECK(read_sanitizer_run(dir / "clean", "memcheck").state == SanitizerVerdict::State::clean);

    dir.write("race/sandbox.tsv", "outcome=exited\texit=99\tsignal=\tseconds=3\twall_limit=270\tisolation=bwrap\n");
    dir.write("race/log.txt", "========= Error: Race reported between Write access at tiled_kernel\n"
                              "========= RACECHECK SUMMARY: 5 hazards displayed (3 errors, 2 warnings)\n");
    SanitizerVerdict race = read_sanitizer_run(dir / "race", "racecheck");
    CHECK(race.state == SanitizerVerdict::State::errors);
    CHECK(race.errors == 3);
    CHECK(race.excerpt.find("Race reported") != std::string::npos);

    // A program that prints a clean summary does not hide the tool's exit status.
    dir.write("forged/sandbox.tsv", "outcome=exited\texit=99\tsignal=\tseconds=3\twall_limit=270\tisolation=bwrap\n");
    dir.write("forged/log.txt", "========= ERROR SUMMARY: 0 errors\n");
    CHECK(read_sanitizer_run(dir / "forged", "memcheck").state == SanitizerVerdict::State::errors);

    dir.write("stuck/sandbox.tsv", "outcome=timeout\texit=137\tsignal=SIGKILL\tseconds=270\twall_limit=270\tisolation=bwrap\n");
    dir.write("stuck/log.txt", "========= COMPUTE-SANITIZER\n");
    CHECK(read_sanitizer_run(dir / "stuck", "memcheck").state == SanitizerVerdict::State::unfinished);
}
