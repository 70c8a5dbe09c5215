#include "reference.hpp"

#include <algorithm>

#include "floyd.h"
#include "parallel_ranges.hpp"
#include "reference_hook.hpp"

void floyd_warshall_cpu(int* dist, int n) {
    const size_t N = size_t(n);
    for (size_t k = 0; k < N; ++k) {
        const int* __restrict row_k = dist + k * N;
        // The rows of step k on every CPU: each reads only row k and writes only its own.
        parallel_ranges(N, items_per_range(double(N)), [&](size_t first_row, size_t end_row) {
            for (size_t i = first_row; i < end_row; ++i) {
                // Row k does not change in step k (dist[k][k] = 0 and no weight is negative), so
                // it is skipped, and row_i never overlaps row_k (what __restrict promises).
                if (i == k) continue;
                int* __restrict row_i = dist + i * N;
                const int d_ik = row_i[k];
                // FW_INF + FW_INF fits in an int (floyd.h): no overflow, unreachable stays FW_INF.
                for (size_t j = 0; j < N; ++j) {
                    const int via_k = d_ik + row_k[j];
                    row_i[j] = via_k < row_i[j] ? via_k : row_i[j];
                }
            }
        });
    }
}

std::vector<int> shortest_path_rows(const std::vector<int>& adjacency, int n, const std::vector<int>& sources) {
    const size_t N = size_t(n);
    std::vector<int> rows;
    rows.reserve(sources.size() * N);
    std::vector<char> done(N);
    for (int source : sources) {
        std::vector<int> d(adjacency.begin() + source * N, adjacency.begin() + (source + 1) * N);
        d[size_t(source)] = 0;
        std::fill(done.begin(), done.end(), 0);
        for (size_t round = 0; round < N; ++round) {
            size_t u = N;  // the closest vertex not done
            for (size_t v = 0; v < N; ++v)
                if (!done[v] && (u == N || d[v] < d[u])) u = v;
            if (u == N || d[u] >= FW_INF) break;  // the rest is unreachable
            done[u] = 1;
            const int* row_u = adjacency.data() + u * N;
            for (size_t v = 0; v < N; ++v)
                if (!done[v] && row_u[v] < FW_INF && d[u] + row_u[v] < d[v]) d[v] = d[u] + row_u[v];
        }
        rows.insert(rows.end(), d.begin(), d.end());
    }
    return rows;
}

int diameter_cpu(const int* dist, size_t count) {
    int longest = 0;
    for (size_t i = 0; i < count; ++i)
        if (dist[i] < FW_INF && dist[i] > longest) longest = dist[i];
    return longest;
}

namespace {
const ReferenceHook<FloydCpuFunction>::Install install_floyd(&floyd_warshall_cpu);
const ReferenceHook<ShortestRowsFunction>::Install install_rows(&shortest_path_rows);
const ReferenceHook<DiameterCpuFunction>::Install install_diameter(&diameter_cpu);
}  // namespace
