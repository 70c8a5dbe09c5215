#include "round_plan.hpp"

RoundCases round_cases(const LabPlan& plan) {
    RoundCases rounds;
    for (const CasePlan& c : plan.cases)
        (c.hidden ? (c.perf ? rounds.hidden_timed : rounds.hidden_untimed)
                  : (c.perf ? rounds.public_timed : rounds.public_untimed))
            .push_back(c.name);
    return rounds;
}

RoundWork round_work(const LabPlan& plan, int round, bool with_sanitizers) {
    const RoundCases rounds = round_cases(plan);
    RoundWork work;
    if (round == 1) work.untimed = rounds.public_untimed.empty() ? 0 : 1;
    if (round == 2) work.timed = rounds.public_timed.empty() ? 0 : 1;
    if (round == 3) {
        if (with_sanitizers && !plan.sanitize_case.empty()) work.untimed += int(plan.sanitize_tools.size());
        work.untimed += rounds.hidden_untimed.empty() ? 0 : 1;
        work.timed = rounds.hidden_timed.empty() ? 0 : 1;
    }
    return work;
}
