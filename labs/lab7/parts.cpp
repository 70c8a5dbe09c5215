#include "parts.hpp"

#include "fail.hpp"

const std::vector<ZeroCopyPart>& zerocopy_parts() {
    static const std::vector<ZeroCopyPart> parts = {
        {"cpu_ijk", Memory::host, false, matmul_cpu_ijk, nullptr, nullptr},
        {"cpu_ikj", Memory::host, false, matmul_cpu_ikj, nullptr, nullptr},
        {"zc_naive", Memory::mapped, true, nullptr, zc_naive, nullptr},
        {"zc_tiled", Memory::mapped, true, nullptr, zc_tiled, nullptr},
        {"copy_naive", Memory::device_copies, true, nullptr, nullptr, copy_naive},
        {"copy_tiled", Memory::device_copies, true, nullptr, nullptr, copy_tiled},
        {"managed_tiled", Memory::managed, true, nullptr, managed_tiled, nullptr},
        {"stream", Memory::stream, false, nullptr, nullptr, nullptr},
    };
    return parts;
}

const ZeroCopyPart& zerocopy_part(const std::string& name) {
    for (const ZeroCopyPart& p : zerocopy_parts())
        if (name == p.name) return p;
    fail(exit_code::bad_usage, "lab7 has no part named '" + name + "'");
}

std::vector<std::string> zerocopy_part_names() {
    std::vector<std::string> names;
    for (const ZeroCopyPart& p : zerocopy_parts()) names.push_back(p.name);
    return names;
}

std::vector<std::string> zerocopy_host_part_names() {
    std::vector<std::string> names;
    for (const ZeroCopyPart& p : zerocopy_parts())
        if (p.memory == Memory::host) names.push_back(p.name);
    return names;
}
