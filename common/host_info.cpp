#include "host_info.hpp"

#include <unistd.h>

#include <fstream>
#include <sstream>

std::string cpu_model_from_cpuinfo(const std::string& cpuinfo) {
    std::istringstream in(cpuinfo);
    std::string fallback;
    for (std::string line; std::getline(in, line);) {
        size_t colon = line.find(':');
        if (colon == std::string::npos) continue;
        std::string key = line.substr(0, colon), value = line.substr(colon + 1);
        while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) key.pop_back();
        size_t start = value.find_first_not_of(" \t");
        value = start == std::string::npos ? "" : value.substr(start);
        while (!value.empty() && (value.back() == ' ' || value.back() == '\r')) value.pop_back();
        if (value.empty()) continue;
        if (key == "model name") return value;  // x86: the first processor's
        if ((key == "Model" || key == "Hardware") && fallback.empty()) fallback = value;
    }
    return fallback;
}

std::string cpu_model_name() {
    std::ifstream file("/proc/cpuinfo");
    std::stringstream text;
    text << file.rdbuf();
    std::string model = cpu_model_from_cpuinfo(text.str());
    long count = sysconf(_SC_NPROCESSORS_ONLN);
    std::string cpus = count > 0 ? std::to_string(count) + " logical CPUs" : "logical CPUs unknown";
    return (model.empty() ? "an unnamed CPU" : model) + " (" + cpus + ")";
}

size_t physical_memory_bytes() {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? size_t(pages) * size_t(page) : 0;
}
