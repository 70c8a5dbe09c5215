#include "lab_case.hpp"

#include <cmath>
#include <cstdio>

#include "compare.hpp"
#include "cuda_check.hpp"
#include "fail.hpp"
#include "table.hpp"

Verdict LabCase::verify(const std::string& output, const OutputArray& array, const Reference& reference,
                        double tolerance) {
    std::vector<double> got;
    if (reference.positions.empty()) {
        got = array.values;
    } else {
        for (size_t p : reference.positions) got.push_back(p < array.values.size() ? array.values[p] : NAN);
    }
    if (got.size() != reference.value.size())
        return {false, "the output has " + std::to_string(array.values.size()) + " elements, the reference " +
                           std::to_string(reference.value.size())};
    std::vector<double> allowed(reference.bound);
    for (double& a : allowed) a *= tolerance;
    Comparison result = compare_values(got.data(), reference.value.data(), allowed.data(), got.size(), 1);
    if (result.ok()) return {true, ""};
    if (result.checked == 0) return {false, "nothing was checked (an empty output)"};
    const Mismatch& m = result.first.front();
    size_t where = reference.positions.empty() ? m.position : reference.positions[m.position];
    char text[320];
    std::snprintf(text, sizeof text, "%s = %.9g, expected %.9g (allowed error %.2g); %zu of %zu checked elements wrong",
                  element_name(output, where).c_str(), m.got, m.want, m.allowed, result.bad, result.checked);
    return {false, text};
}

void require_device_memory(size_t bytes) {
    size_t free_bytes = 0, total_bytes = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    const size_t room = 64u << 20;  // the context, cuBLAS's workspace, the kernels
    if (bytes + room > free_bytes)
        fail(exit_code::gpu_short, "the data need " + format_fixed(bytes / 1048576.0, 0) + " MiB but the GPU has " +
                                       format_fixed(free_bytes / 1048576.0, 0) + " " + exit_code::gpu_short_advice);
}
