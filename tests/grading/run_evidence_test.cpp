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

TEST_CASE("a run's end says the GPU may have been short only where runners shared it", "[grading][evidence]") {
    TempFolder dir;
    dir.write("short.tsv", "outcome=exited\texit=7\tseconds=1\n");
    dir.write("none.tsv", "outcome=exited\texit=3\tseconds=1\n");
    dir.write("wrong.tsv", "outcome=exited\texit=1\tseconds=1\n");
    dir.write("killed.tsv", "outcome=signal\texit=7\tsignal=SIGKILL\tseconds=1\n");
    // The tool's own end says nothing (it exits with its --error-exitcode); its log does, past
    // the first of the reading's 64 KB chunks.
    dir.write("tool.tsv", "outcome=exited\texit=1\tseconds=1\n");
    dir.write("full.log", std::string(70000, '.') + "\n========= Program hit cudaErrorMemoryAllocation (error 2)\n");
    // The driver's own refusal, as memcheck logged it on an H100 that a classmate's program had
    // filled: the tool exits 99, hiding the driver's exit_code::gpu_short.
    dir.write("refused.log", std::string(70000, '.') + "\nerror: the data need 1 MiB but the GPU has 23 MiB free: choose smaller sizes, "
                             "or wait for the GPU's other programs to end\n========= Target application returned an error\n");
    dir.write("quiet.log", "========= ERROR SUMMARY: 0 errors\n");
    auto short_gpu = [&](const std::string& tsv, bool shared, const std::string& log = "") {
        return gpu_may_have_been_short(read_sandbox_outcome(dir / tsv), shared, log.empty() ? "" : dir / log);
    };
    CHECK(short_gpu("short.tsv", true));
    CHECK(short_gpu("none.tsv", true));
    CHECK_FALSE(short_gpu("wrong.tsv", true));
    CHECK_FALSE(short_gpu("killed.tsv", true));
    CHECK(short_gpu("tool.tsv", true, "full.log"));
    CHECK(short_gpu("tool.tsv", true, "refused.log"));
    CHECK_FALSE(short_gpu("tool.tsv", true, "quiet.log"));
    CHECK_FALSE(short_gpu("tool.tsv", true, "absent.log"));
    // With the GPU to itself, it was the program's own doing.
    CHECK_FALSE(short_gpu("short.tsv", false));
    CHECK_FALSE(short_gpu("tool.tsv", false, "full.log"));
    CHECK_FALSE(short_gpu("tool.tsv", false, "refused.log"));
}

TEST_CASE("a run's end that may have taken the GPU down makes the grader ask the GPU", "[grading][evidence]") {
    TempFolder dir;
    auto suspect = [&](const std::string& record) {
        dir.write("end.tsv", record + "\n");
        return may_have_taken_the_gpu_down(read_sandbox_outcome(dir / "end.tsv"));
    };
    CHECK(suspect("outcome=signal\texit=-1\tsignal=SIGSEGV"));
    CHECK(suspect("outcome=timeout\texit=-1"));
    CHECK(suspect("outcome=exited\texit=3"));  // no usable GPU
    CHECK(suspect("outcome=exited\texit=4"));  // a kernel faulted
    CHECK(suspect("outcome=exited\texit=5"));  // a kernel ran past its time limit
    CHECK_FALSE(suspect("outcome=exited\texit=0"));
    CHECK_FALSE(suspect("outcome=exited\texit=1"));  // a wrong result
    CHECK_FALSE(suspect("outcome=exited\texit=7"));  // short of memory: run again alone, not lost
    CHECK_FALSE(suspect("outcome=output-limit\texit=-1"));
}
