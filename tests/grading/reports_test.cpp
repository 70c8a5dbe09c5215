// The report writers: CSV quoting, JSON escaping and Gradescope's schema, Markdown that
// untrusted text cannot break, and hidden cases that stay hidden.
#include "catch.hpp"
#include "json_text.hpp"
#include "reports.hpp"

namespace {

StudentReport sample_report(const std::string& name) {
    LabScore lab;
    lab.lab = "labT";
    lab.title = "Test lab";
    lab.state = "graded";
    lab.max = 3;
    ScoreItem pass;
    pass.kind = "correctness";
    pass.part = "one";
    pass.case_name = "small";
    pass.points = pass.max = 1;
    pass.passed = true;
    pass.message = "correct";
    ScoreItem hidden;
    hidden.kind = "correctness";
    hidden.part = "one";
    hidden.case_name = "big";
    hidden.max = 2;
    hidden.hidden = true;
    hidden.message = "wrong result: [7] = 1, expected 2";
    hidden.detail = "secret output of a hidden case";
    ScoreItem sanitizer;
    sanitizer.kind = "sanitizer";
    sanitizer.tool = "memcheck";
    sanitizer.case_name = "small";
    sanitizer.points = -0.5;
    sanitizer.message = "memcheck reported 1 error(s)";
    sanitizer.detail = "========= Invalid write\n```\n</details> \"quoted\" \\ back\x01slash";
    lab.items = {pass, hidden, sanitizer};
    lab.points = 0.5;
    StudentReport r;
    r.student = name;
    r.labs = {lab};
    return r;
}

LabPlan sample_plan() {
    return make_lab_plan(Manifest::parse("title = Test lab\nstudent_files = k.cu\nparts = one\n"
                                         "cases = small big\ncase.small.args = --n 3\ncase.small.visibility = public\n"
                                         "case.small.points = 1\ncase.big.args = --n 99 --secret\n"
                                         "case.big.visibility = hidden\ncase.big.points = 2\n",
                                         "m"),
                         "labT");
}

}  // namespace

TEST_CASE("JSON strings escape quotes, backslashes, control characters and bad UTF-8", "[grading][reports]") {
    CHECK(json_string("a\"b\\c\nd\te") == "\"a\\\"b\\\\c\\nd\\te\"");
    CHECK(json_string(std::string("x\x01y")) == "\"x\\u0001y\"");
    CHECK(json_string("caf\xc3\xa9") == "\"caf\xc3\xa9\"");  // valid UTF-8 is kept
    CHECK(json_string("bad\xff") == "\"bad?\"");
    CHECK(json_number(2.5) == "2.5");
    CHECK(json_number(3) == "3");
    CHECK(json_number(1.0 / 3) == "0.3333");
    CHECK(json_number(0.0 / 0.0) == "0");
}

TEST_CASE("results.json has Gradescope's fields, and hidden tests show nothing", "[grading][reports]") {
    std::string json = gradescope_json(sample_report("ann"));
    CHECK(json.find("\"score\": 0.5") != std::string::npos);
    CHECK(json.find("\"tests\": [") != std::string::npos);
    for (const char* field : {"\"name\": ", "\"score\": ", "\"max_score\": ", "\"status\": ", "\"output\": ", "\"visibility\": "})
        CHECK(json.find(field) != std::string::npos);
    CHECK(json.find("{\"name\": \"labT one: case small\", \"score\": 1, \"max_score\": 1, \"status\": \"passed\", "
                    "\"output\": \"correct\", \"visibility\": \"visible\"}") != std::string::npos);
    CHECK(json.find("{\"name\": \"labT one: case big\", \"score\": 0, \"max_score\": 2, \"status\": \"failed\", "
                    "\"output\": \"failed\", \"visibility\": \"hidden\"}") != std::string::npos);
    CHECK(json.find("secret") == std::string::npos);
    CHECK(json.find("\"score\": -0.5, \"max_score\": 0") != std::string::npos);
    CHECK(json.find("\\u0001") != std::string::npos);
}

TEST_CASE("the gradebook is RFC 4180 CSV with a column per lab and a total", "[grading][reports]") {
    std::vector<StudentReport> reports = {sample_report("ann"), sample_report("Doe, \"JD\" John")};
    std::string csv = gradebook_csv(reports, {"labT"});
    CHECK(csv == "student,labT,total\nann,0.5,0.5\n\"Doe, \"\"JD\"\" John\",0.5,0.5\n");
    std::string table = summary_table(reports, {"labT"});
    CHECK(table.find("0.5/3") != std::string::npos);
}

TEST_CASE("a gradebook cell a spreadsheet would run as a formula is neutralised", "[grading][reports]") {
    // CSV formula injection: a student named so that a spreadsheet computes (or calls out).
    std::vector<StudentReport> reports = {sample_report("=HYPERLINK(\"http://x\")"), sample_report("+1"),
                                          sample_report("-2"), sample_report("@SUM(A1)"), sample_report("a=b")};
    std::string csv = gradebook_csv(reports, {"labT"});
    CHECK(csv.find("\"'=HYPERLINK(\"\"http://x\"\")\",0.5,0.5\n") != std::string::npos);
    CHECK(csv.find("\n'+1,") != std::string::npos);
    CHECK(csv.find("\n'-2,") != std::string::npos);
    CHECK(csv.find("\n'@SUM(A1),") != std::string::npos);
    CHECK(csv.find("\na=b,") != std::string::npos);  // only the first character matters
    CHECK(spreadsheet_text("\tx") == "'\tx");
    CHECK(spreadsheet_text("") == "");
}

TEST_CASE("notes about the submission open the feedback", "[grading][reports]") {
    StudentReport report = sample_report("ann");
    report.notes = {"graded ann.tgz, the newest of ann.tgz and ann/; ann/ was ignored"};
    std::string md = feedback_markdown(report, {{"labT", sample_plan()}}, {"today", "a GPU", "bwrap"});
    CHECK(md.find("Note: graded ann.tgz, the newest of ann.tgz and ann/; ann/ was ignored") != std::string::npos);
}

TEST_CASE("feedback.md shows public details, keeps hidden cases hidden, and fences untrusted text", "[grading][reports]") {
    std::map<std::string, LabPlan> plans = {{"labT", sample_plan()}};
    std::string md = feedback_markdown(sample_report("ann"), plans, {"today", "a GPU", "bwrap"});
    CHECK(md.find("# Feedback for ann") != std::string::npos);
    CHECK(md.find("**Total: 0.5 / 3**") != std::string::npos);
    CHECK(md.find("| small | public | pass 1/1 |") != std::string::npos);
    CHECK(md.find("| big | hidden | FAIL 0/2 |") != std::string::npos);
    CHECK(md.find("- `small`: `--n 3`") != std::string::npos);
    CHECK(md.find("--secret") == std::string::npos);
    CHECK(md.find("secret output") == std::string::npos);
    CHECK(md.find("hidden case: no details") != std::string::npos);
    // The sanitizer log holds ``` : its fence must be longer.
    CHECK(md.find("````\n========= Invalid write\n```\n") != std::string::npos);
    CHECK(markdown_inline("a|b*c_[x](y)") == "a\\|b\\*c\\_\\[x\\](y)");
}

TEST_CASE("a hidden case the grader did not run says why, in the grader's words only", "[grading][reports]") {
    StudentReport report = sample_report("ann");
    ScoreItem& hidden = report.labs[0].items[1];
    hidden.message = not_run_prefix + "this submission used up its run-time budget for labT (60 s of runs in all)";
    std::string md = feedback_markdown(report, {{"labT", sample_plan()}}, {"today", "a GPU", "bwrap"});
    CHECK(md.find("on case `big`: not run: this submission used up its run-time budget for labT") != std::string::npos);
    CHECK(md.find("hidden case: no details") == std::string::npos);
    CHECK(md.find("secret") == std::string::npos);
    std::string json = gradescope_json(report);
    CHECK(json.find("\"output\": \"not run: this submission used up its run-time budget") != std::string::npos);
    CHECK(json.find("secret") == std::string::npos);
    // Anything else a hidden case's item says stays hidden, whatever it starts with.
    hidden.message = "wrong result: not run: [7] = 1";
    CHECK(hidden_outcome(hidden) == "failed");
}

TEST_CASE("grading.args reach every run but stay out of the feedback's cases and rerun hints", "[grading][reports]") {
    LabPlan plan = make_lab_plan(
        Manifest::parse("title = Test lab\nstudent_files = k.cu\nparts = one\n"
                        "grading.args = --check none --quiet --threads 4\ncases = small big\ncase.small.args = --n 3\n"
                        "case.small.visibility = public\ncase.small.points = 1\ncase.big.args = --n 9 --reps 5 --threads 1\n"
                        "case.big.visibility = public\ncase.big.points = 1\nperf.cases = big\nperf.points = 1\n"
                        "perf.full_ratio = 1.2\nperf.zero_ratio = 2\n",
                        "m"),
        "labT");
    // A case without performance points is not timed; a case's own options come after the
    // lab's, so they win (the driver keeps the last of an option given twice).
    CHECK(plan.run_args(plan.cases[0]) == std::vector<std::string>{"--check", "none", "--quiet", "--threads", "4", "--n",
                                                                   "3", "--reps", "1", "--warmup", "0"});
    CHECK(plan.run_args(plan.cases[1]) == std::vector<std::string>{"--check", "none", "--quiet", "--threads", "4", "--n",
                                                                   "9", "--reps", "5", "--threads", "1"});
    StudentReport report = sample_report("ann");
    report.labs[0].items[0].passed = false;  // a public failure, with its rerun hint
    report.labs[0].items[0].points = 0;
    report.labs[0].items[0].message = "wrong result";
    std::string md = feedback_markdown(report, {{"labT", plan}}, {"today", "a GPU", "bwrap"});
    CHECK(md.find("make labT ARGS=\"--n 3 --part one\"") != std::string::npos);
    CHECK(md.find("- `small`: `--n 3`") != std::string::npos);
    CHECK(md.find("--check none") == std::string::npos);
}

TEST_CASE("a lab the run never reached counts zero with its maximum", "[grading][reports]") {
    LabScore s = not_graded(sample_plan());
    CHECK(s.state == "not-graded");
    CHECK(s.points == 0);
    CHECK(s.max == 3);
}

TEST_CASE("a hidden performance case shows points, not times", "[grading][reports]") {
    LabPlan plan = make_lab_plan(Manifest::parse("student_files = k.cu\nparts = one\ncases = big\n"
                                                 "case.big.args = --n 99\ncase.big.visibility = hidden\n"
                                                 "case.big.points = 1\nperf.cases = big\nperf.points = 2\n"
                                                 "perf.full_ratio = 1.2\nperf.zero_ratio = 10\n",
                                                 "m"),
                                 "labT");
    ScoreItem perf;
    perf.kind = "performance";
    perf.part = "one";
    perf.case_name = "big";
    perf.points = 1.5;
    perf.max = 2;
    perf.hidden = true;
    perf.student_ms = 123.25;
    perf.reference_ms = 99.5;
    perf.ratio = 1.24;
    LabScore lab;
    lab.lab = "labT";
    lab.state = "graded";
    lab.items = {perf};
    StudentReport r;
    r.student = "ann";
    r.labs = {lab};
    std::string md = feedback_markdown(r, {{"labT", plan}}, {"today", "a GPU", "bwrap"});
    CHECK(md.find("| one | - | - | - | 1.2x to 10x | 1.5/2 |") != std::string::npos);
    CHECK(md.find("123.25") == std::string::npos);
    CHECK(md.find("99.5") == std::string::npos);
}
