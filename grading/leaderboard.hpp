// The leaderboard an instructor can post (grade.sh --leaderboard): for each part with
// performance points and each performance case of each lab, the time of every submission whose
// part is correct, fastest first, with the reference solution's time as a line among them.
// Students appear under pseudonyms (grade.sh makes them: a salted hash of the name), and only
// those given one take part: a student who opted out (NO-LEADERBOARD) has none.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "class_report.hpp"

struct LeaderboardEntry {
    int rank = 0;  // 1 for the fastest; equal times share a rank
    std::string name;  // the pseudonym
    double ms = 0;     // the median of the part's timed runs (score.tsv's student_ms)
    double ratio = 0;  // over the reference's time on the student's own GPU
};

struct Leaderboard {
    std::string lab, part, case_name;
    double reference_ms = 0;  // the median of the reference's times over the class; 0: none known
    std::vector<LeaderboardEntry> entries;
};

// A part is correct when the lab's cases ran and the part passed every case, hidden ones
// included (a fast kernel that fails an awkward size is not ranked); it is ranked on a case
// when its performance item there has a valid time (a time below the physical bound has none).
bool ranked_on(const LabScore& score, const std::string& part, const std::string& case_name);

// students: lab -> every student's score; pseudonyms: student -> pseudonym, for those who take
// part. In the order of the labs, then of the cases, then of the parts.
std::vector<Leaderboard> leaderboards(const std::vector<std::string>& labs, const std::map<std::string, LabPlan>& plans,
                                      const std::map<std::string, std::vector<StudentLab>>& students,
                                      const std::map<std::string, std::string>& pseudonyms);

struct LeaderboardPage {
    std::map<std::string, std::string> titles;  // lab -> title
    std::string when, gpu;
    size_t opted_out = 0;  // students left off at their request
};
std::string leaderboard_markdown(const std::vector<Leaderboard>& boards, const LeaderboardPage& page);
// lab,part,case,rank,name,time_ms,ratio; the reference's row has no rank and the name "reference".
std::string leaderboard_csv(const std::vector<Leaderboard>& boards);
