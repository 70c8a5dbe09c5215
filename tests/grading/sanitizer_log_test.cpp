// A sanitizer run's verdict (grading/sanitizer_log.hpp): the tool's exit status and summary, and
// a program that ends before its first CUDA call under the tool takes the points errors would.
#include "catch.hpp"
#include "sanitizer_log.hpp"
#include "temp_folder.hpp"

namespace {

SanitizerVerdict verdict(const std::string& sandbox, const std::string& log) {
    TempFolder dir;
    dir.write("memcheck/sandbox.tsv", sandbox);
    dir.write("memcheck/log.txt", log);
    return read_sanitizer_run(dir / "memcheck", "memcheck");
}

const std::string kExited0 = "outcome=exited\texit=0\tsignal=\tseconds=3\twall_limit=110\tisolation=bwrap\n";

}  // namespace

TEST_CASE("sanitizer verdict: clean, errors, unfinished", "[grading][sanitizer]") {
    CHECK(verdict(kExited0, "========= ERROR SUMMARY: 0 errors\n").state == SanitizerVerdict::State::clean);
    SanitizerVerdict found = verdict("outcome=exited\texit=99\tseconds=3\n", "========= ERROR SUMMARY: 2 errors\n");
    CHECK(found.state == SanitizerVerdict::State::errors);
    CHECK(found.errors == 2);
    CHECK(verdict("outcome=timeout\texit=137\tsignal=SIGKILL\tseconds=110\n", "").state ==
          SanitizerVerdict::State::unfinished);
}

TEST_CASE("sanitizer verdict: a program that ends before its first CUDA call hides its work, and loses the points",
          "[grading][sanitizer]") {
    const std::string log = "========= COMPUTE-SANITIZER\n"
                            "========= Error: Target application terminated before first instrumented API call\n";
    SanitizerVerdict v = verdict("outcome=exited\texit=255\tsignal=\tseconds=1\n", log);
    CHECK(v.state == SanitizerVerdict::State::errors);
    CHECK(v.summary.find("ended before its first CUDA call") != std::string::npos);
}
