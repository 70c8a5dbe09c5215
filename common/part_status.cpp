#include "part_status.hpp"

namespace {
constexpr PartStatus all_statuses[] = {PartStatus::ran,     PartStatus::not_implemented, PartStatus::refused,
                                       PartStatus::crashed, PartStatus::timeout,         PartStatus::error,
                                       PartStatus::skipped};
}  // namespace

const char* status_name(PartStatus status) {
    switch (status) {
        case PartStatus::ran: return "ran";
        case PartStatus::not_implemented: return "not implemented";
        case PartStatus::refused: return "refused";
        case PartStatus::crashed: return "crashed";
        case PartStatus::timeout: return "timeout";
        case PartStatus::error: return "error";
        case PartStatus::skipped: return "skipped";
    }
    return "?";
}

bool parse_status(const std::string& name, PartStatus& status) {
    for (PartStatus candidate : all_statuses)
        if (name == status_name(candidate)) {
            status = candidate;
            return true;
        }
    return false;
}
