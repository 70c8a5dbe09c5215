// The scored time of a part timed on the host (grading/scoring.hpp): its wall time, or its CPU
// time over the CPUs it was given where that is longer, so threads that escaped those CPUs buy
// nothing; the CPUs given are read from the reference run's record, which the trusted driver wrote.
#include "catch.hpp"
#include "scoring.hpp"

TEST_CASE("a part held to its CPUs is scored at its wall time", "[grading][scoring]") {
    // Four threads busy on four CPUs: 4 x the wall time of CPU time, at most.
    CHECK(host_scored_ms(100, 390, 4) == 100);
    CHECK(host_scored_ms(100, 400, 4) == 100);
}

TEST_CASE("a part whose threads used more CPUs than it was given is scored at its CPU time over them",
          "[grading][scoring]") {
    // The raw-syscall submission of issue 41: CPU time 11.6x its wall time, on 4 CPUs.
    CHECK(host_scored_ms(100, 1160, 4) == Approx(290));
    CHECK(host_scored_ms(10, 80, 1) == Approx(80));
}

TEST_CASE("a part not timed on the host, or without a CPU time, keeps its wall time", "[grading][scoring]") {
    CHECK(host_scored_ms(100, 1160, 0) == 100);
    CHECK(host_scored_ms(100, 0, 4) == 100);
}

TEST_CASE("the CPUs given are the count that opens the reference's record", "[grading][scoring]") {
    CHECK(host_cpus_given("4 CPUs (0,1,2,3)") == 4);
    CHECK(host_cpus_given("1 CPU (5)") == 1);
    CHECK(host_cpus_given("2 CPUs (0,1): 4 threads were asked for, but only 2 CPUs are available") == 2);
    CHECK(host_cpus_given("4 CPUs (0,1,2,3), not pinned: this sandbox lets no CPU set change") == 4);
    CHECK(host_cpus_given("") == 0);
    CHECK(host_cpus_given("CPUs") == 0);
}
