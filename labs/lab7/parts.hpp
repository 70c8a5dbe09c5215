// The parts of lab 7, in the order of the table: the driver runs them and the tests check them
// from this one list, so a new part is added here and in the manifest's `parts`, nowhere else.
#pragma once
#include <string>
#include <vector>

#include "zerocopy.h"

// Where a part's matrices live, which decides what the driver hands it.
enum class Memory { host, mapped, device_copies, managed, stream };

struct ZeroCopyPart {
    const char* name;
    Memory memory;
    bool uses_tile;  // --tile shapes it
    // The one of these that matches `memory` (stream: stream_mapped).
    void (*cpu)(const HostMatmul&, Launcher&);
    void (*gpu)(const GpuMatmul&, int tile, Launcher&);  // mapped and managed
    void (*copy)(const CopyMatmul&, int tile, Launcher&);
};

const std::vector<ZeroCopyPart>& zerocopy_parts();
const ZeroCopyPart& zerocopy_part(const std::string& name);  // a name of zerocopy_parts()
std::vector<std::string> zerocopy_part_names();
// The parts that need no GPU (the CPU parts): with no GPU they still run alone.
std::vector<std::string> zerocopy_host_part_names();
