// The class report: failure messages grouped by their normalized form, the pass-rate table of
// part x case, performance ratios, the histogram of totals, similarity clusters, and Markdown
// that a student's name or message cannot break.
#include "catch.hpp"
#include "class_report.hpp"
#include "result_files.hpp"

namespace {

LabPlan two_part_plan() {
    return make_lab_plan(Manifest::parse("title = Test lab\nstudent_files = k.cu\nparts = one two\n"
                                         "cases = small big\ncase.small.args = --n 3\ncase.small.visibility = public\n"
                                         "case.small.points = 1\ncase.big.args = --n 99\n"
                                         "case.big.visibility = hidden\ncase.big.points = 2\n"
                                         "perf.cases = big\nperf.points = 1\nperf.full_ratio = 1.2\nperf.zero_ratio = 10\n",
                                         "m"),
                         "labT");
}

ScoreItem correctness(const std::string& part, const std::string& case_name, bool passed, const std::string& message) {
    ScoreItem i;
    i.kind = "correctness";
    i.part = part;
    i.case_name = case_name;
    i.max = 1;
    i.points = passed ? 1 : 0;
    i.passed = passed;
    i.message = message;
    return i;
}

ScoreItem performance(const std::string& part, double ratio) {
    ScoreItem i;
    i.kind = "performance";
    i.part = part;
    i.case_name = "big";
    i.max = 1;
    i.ratio = ratio;
    i.student_ms = ratio * 2;
    i.reference_ms = 2;
    i.passed = ratio > 0;
    return i;
}

ScoreItem build_failure(const std::string& log) {
    ScoreItem i;
    i.kind = "build";
    i.message = "the code did not compile";
    i.detail = "In file included from k.cu:1:\n" + log + "\n";
    return i;
}

StudentLab student(const std::string& name, const std::string& state, std::vector<ScoreItem> items, double points = 0) {
    LabScore s;
    s.lab = "labT";
    s.title = "Test lab";
    s.state = state;
    s.max = 8;
    s.points = points;
    s.items = std::move(items);
    return {name, s};
}

// ann passes everything; bob's part two is wrong on both cases; cid's part one crashes on big.
std::vector<StudentLab> small_class() {
    return {
        student("ann", "graded",
                {correctness("one", "small", true, "correct"), correctness("two", "small", true, "correct"),
                 correctness("one", "big", true, "correct"), correctness("two", "big", true, "correct"),
                 performance("one", 1), performance("two", 1.5)},
                8),
        student("bob", "graded",
                {correctness("one", "small", true, "correct"),
                 correctness("two", "small", false, "wrong result: 3 of 10 values wrong; the first: [7] = 0.5, expected 1"),
                 correctness("one", "big", true, "correct"),
                 correctness("two", "big", false, "wrong result: 990 of 1000 values wrong; the first: [0] = -2.5e-07, expected 4"),
                 performance("one", 3), performance("two", 0)},
                4),
        student("cid", "graded",
                {correctness("one", "small", true, "correct"), correctness("two", "small", true, "correct"),
                 correctness("one", "big", false, "no result: the program was killed by SIGSEGV"),
                 correctness("two", "big", true, "correct"), performance("one", 0), performance("two", 1.1)},
                5),
        student("dee", "build-failed",
                {build_failure("k.cu(3): error: expected ';'"), correctness("one", "small", false, "not graded: the code did not compile")},
                0),
    };
}

}  // namespace

TEST_CASE("a failure message is normalized: numbers become N, names keep their digits", "[grading][class-report]") {
    CHECK(normalized_message("wrong result: 3 of 10 values wrong; the first: [7] = 0.5, expected 1") ==
          "wrong result: N of N values wrong; the first: [N] = N, expected N");
    CHECK(normalized_message("[0] = -2.5e-07, expected +4.25E+3 (bound .5)") == "[N] = N, expected N (bound N)");
    CHECK(normalized_message("forbidden API at matmul.cu:12 (part coarse2 scores zero)") ==
          "forbidden API at matmul.cu:N (part coarse2 scores zero)");
    CHECK(normalized_message("lab1 fw_2d tile16 v1.2 on case h-block32") == "lab1 fw_2d tile16 v1.2 on case h-block32");
    CHECK(normalized_message("address 0x7f3a00 is 4 bytes past a 4760-byte allocation") ==
          "address N is N bytes past a N-byte allocation");
    CHECK(normalized_message("3.00x slower, stopped after 13 s") == "Nx slower, stopped after N s");
    CHECK(normalized_message("line one\nline two\t2") == "line one line two N");
    CHECK(normalized_message("") == "");
}

TEST_CASE("failures: grouped by their normalized message, most frequent first, with who got them where",
          "[grading][class-report]") {
    std::vector<FailureGroup> groups = frequent_failures(small_class(), 10);
    REQUIRE(groups.size() == 2);
    CHECK(groups[0].message == "wrong result: N of N values wrong; the first: [N] = N, expected N");
    CHECK(groups[0].example == "wrong result: 3 of 10 values wrong; the first: [7] = 0.5, expected 1");
    CHECK(groups[0].count == 2);
    REQUIRE(groups[0].students.size() == 1);
    CHECK(groups[0].students[0].first == "bob");
    CHECK(groups[0].students[0].second == std::vector<std::string>{"two on small", "two on big"});
    CHECK(groups[1].message == "no result: the program was killed by SIGSEGV");
    CHECK(groups[1].students[0].first == "cid");
    // A build failure is not a failure of a case: dee is reported among the refusals.
    for (const FailureGroup& g : groups) CHECK(g.message.find("not graded") == std::string::npos);
    CHECK(frequent_failures(small_class(), 1).size() == 1);
}

TEST_CASE("failures: a sanitizer finding that took points counts; one that found nothing does not", "[grading][class-report]") {
    ScoreItem errors;
    errors.kind = "sanitizer";
    errors.tool = "racecheck";
    errors.case_name = "small";
    errors.points = -1;
    errors.message = "racecheck reported 12 hazard(s) on case small";
    ScoreItem clean = errors;
    clean.points = 0;
    clean.passed = true;
    clean.message = "memcheck: no errors on case small";
    std::vector<StudentLab> two = {student("ann", "graded", {errors, clean}), student("bob", "graded", {errors})};
    std::vector<FailureGroup> groups = frequent_failures(two, 10);
    REQUIRE(groups.size() == 1);
    CHECK(groups[0].message == "racecheck reported N hazard(s) on case small");
    CHECK(groups[0].count == 2);
    CHECK(groups[0].students.size() == 2);
    CHECK(groups[0].students[1].second == std::vector<std::string>{"racecheck on small"});
}

TEST_CASE("pass rates: part x case, of the students whose cases ran", "[grading][class-report]") {
    PassRates rates = pass_rates(small_class());
    CHECK(rates.graded == 3);  // dee's build failed
    CHECK(rates.of("small", "one") == 3);
    CHECK(rates.of("small", "two") == 2);
    CHECK(rates.of("big", "one") == 2);
    CHECK(rates.of("big", "two") == 2);
    CHECK(rates.of("nowhere", "one") == 0);
}

TEST_CASE("the class report's Markdown: the pass-rate table and the failures", "[grading][class-report]") {
    ClassReportInputs in;
    in.labs = {"labT"};
    in.plans.emplace("labT", two_part_plan());
    in.students["labT"] = small_class();
    std::string md = class_report_markdown(in);
    CHECK(md.find("| case | visibility | one | two |\n|---|---|---:|---:|\n"
                  "| small | public | 3/3 | 2/3 |\n| big | hidden | 2/3 | 2/3 |\n") != std::string::npos);
    CHECK(md.find("1. **2 items, 1 student**: wrong result: N of N values wrong; the first: \\[N\\] = N, expected N\n") !=
          std::string::npos);
    CHECK(md.find("   - bob (two on small, two on big)\n") != std::string::npos);
    CHECK(md.find("| dee | build-failed | the code did not compile: k.cu(3): error: expected ';' |") != std::string::npos);
    CHECK(md.find("4 students, out of 8 points: median 4.5, mean 4.25, lowest 0, highest 8.") != std::string::npos);
    // The figures are linked beside the report, and only those that have something to draw.
    CHECK(md.find("![Histogram of the totals of labT](class-report/labT-totals.png)") != std::string::npos);
    CHECK(md.find("(class-report/labT-ratios.png)") != std::string::npos);
    CHECK(class_report_figure_names(in) == std::vector<std::string>{"labT-totals.png", "labT-ratios.png"});
    std::map<std::string, std::string> files = class_report_figures(in);
    for (const char* name : {"labT-totals.gp", "labT-totals.dat", "labT-ratios.gp", "labT-ratios.dat", "labT-curves.dat"})
        CHECK(files.count(name) == 1);
    CHECK(files["labT-totals.gp"].find("set output 'labT-totals.png'") != std::string::npos);
    // Performance: one's ratios are 1 and 3 (cid had no correct result), two's 1.1 and 1.5.
    CHECK(md.find("| one | big | 2 | 1.00x | 1.50x | 2.00x | 2.50x | 3.00x | 1.2x | 10x |") != std::string::npos);
    in.figures_missing = "gnuplot is not installed here";
    md = class_report_markdown(in);
    CHECK(md.find("**The figures could not be drawn: gnuplot is not installed here.**") != std::string::npos);
    CHECK(md.find("![") == std::string::npos);
}

TEST_CASE("the class report escapes what students wrote", "[grading][class-report]") {
    ClassReportInputs in;
    in.labs = {"labT"};
    in.plans.emplace("labT", two_part_plan());
    in.students["labT"] = {
        student("eve_x", "graded", {correctness("one", "small", false, "it failed: | col | ![x](http://e/v) <img src=x> `tick`\n# Head")}),
        student("fay", "build-failed", {build_failure("k.cu(3): error: | injected | ![p](q)")}),
    };
    std::string md = class_report_markdown(in);
    CHECK(md.find("it failed: \\| col \\| \\!\\[x\\](http://e/v) \\<img src=x\\> \\`tick\\` \\# Head") != std::string::npos);
    CHECK(md.find("eve\\_x") != std::string::npos);
    CHECK(md.find("the code did not compile: k.cu(3): error: \\| injected \\| \\!\\[p\\](q)") != std::string::npos);
    CHECK(md.find(" <img") == std::string::npos);
    CHECK(md.find("\n# Head") == std::string::npos);
}

TEST_CASE("the histogram of totals has round bins from 0, the maximum in the last", "[grading][class-report]") {
    Histogram h = totals_histogram({0, 3, 12, 11.5, 6}, 12);
    CHECK(h.width == 2);
    CHECK(h.counts == std::vector<int>{1, 1, 0, 1, 0, 2});  // 0-2, 2-4, ..., 10-12 with 12 in it
    Histogram lab1 = totals_histogram({84, 80, 79.9, 10}, 84);
    CHECK(lab1.width == 10);
    CHECK(lab1.counts.size() == 9);
    CHECK(lab1.counts[8] == 2);
    CHECK(lab1.counts[7] == 1);
    CHECK(totals_histogram({}, 0).counts.size() == 1);
}

TEST_CASE("similarity clusters: pairs over the threshold joined into groups", "[grading][class-report]") {
    std::vector<SimilarityRow> rows = parse_similarity_csv(
        "lab,student_a,student_b,shared,common_fingerprints\n"
        "labT,ann,bob,0.950,40\nlabT,bob,cid,0.700,30\nlabT,dee,'-eve,0.800,20\nlabT,fay,gus,0.300,5\nother,ann,fay,0.990,50\n");
    REQUIRE(rows.size() == 5);
    CHECK(rows[2].b == "-eve");
    std::vector<SimilarityCluster> clusters = similarity_clusters(rows, "labT", 0.5);
    REQUIRE(clusters.size() == 2);
    CHECK(clusters[0].students == std::vector<std::string>{"ann", "bob", "cid"});
    CHECK(clusters[0].pairs == 2);
    CHECK(clusters[0].highest == Approx(0.95));
    CHECK(clusters[1].students == std::vector<std::string>{"-eve", "dee"});
    CHECK(similarity_clusters(rows, "labT", 0.96).empty());
    CHECK_THROWS_AS(parse_similarity_csv("student,labT,total\n"), FormatError);
    CHECK_THROWS_AS(parse_similarity_csv("lab,student_a,student_b,shared,common_fingerprints\nlabT,ann\n"), FormatError);
}
