// Lab 7 as the shared driver core sees it (common/lab_case.hpp): its driver's main() and its
// tests run the same lab, and the tests run the same parts.
#pragma once
#include <string>
#include <vector>

#include "lab_case.hpp"
#include "zerocopy.h"

// Where a part's matrices live, which decides what the driver hands it.
enum class Memory { host, mapped, device_copies, managed, stream };

struct ZeroCopyPart {
    const char* name;  // as in the manifest's `parts` and --part
    Memory memory;
    bool uses_tile;  // --tile shapes it
    // The one of these that matches `memory` (stream: stream_mapped).
    void (*cpu)(const HostMatmul&, Launcher&);
    void (*gpu)(const GpuMatmul&, int tile, Launcher&);  // mapped and managed
    void (*copy)(const CopyMatmul&, int tile, Launcher&);
};

// The parts, in the order of the table: the driver runs them and the tests check them from this
// one list (common/part_table.hpp looks a part up by name), so a new part is added here and in
// the manifest's `parts`, nowhere else.
const std::vector<ZeroCopyPart>& zerocopy_parts();
// The parts that need no GPU (the CPU parts): with no GPU they still run alone.
std::vector<std::string> zerocopy_host_part_names();

LabInfo lab7();
