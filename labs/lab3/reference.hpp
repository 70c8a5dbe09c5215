// Lab 3's CPU reference, trusted: the plain Floyd-Warshall triple loop, Dijkstra for a sample of
// rows where the triple loop would take too long, and the diameter. The driver reaches these
// through common/reference_hook.hpp (the binary the grader runs for a student leaves this file
// out: manifest, reference_files); the tests call them directly.
#pragma once
#include <cstddef>
#include <vector>

// Floyd-Warshall in place on the n x n row-major matrix `dist` (FW_INF: unreachable): for every
// k, every i, every j, dist[i][j] = min(dist[i][j], dist[i][k] + dist[k][j]). One core, no
// tricks: it is also the CPU yardstick every part is timed against.
void floyd_warshall_cpu(int* dist, int n);
using FloydCpuFunction = void(int*, int);

// Rows `sources` of the shortest-path matrix, one after another (sources.size() x n ints), by
// Dijkstra on the adjacency matrix in O(n^2) each (no weight is negative): an exact check of a
// sample of rows by another algorithm, where the triple loop would take minutes.
std::vector<int> shortest_path_rows(const std::vector<int>& adjacency, int n, const std::vector<int>& sources);
using ShortestRowsFunction = std::vector<int>(const std::vector<int>&, int, const std::vector<int>&);

// The largest of `count` entries below FW_INF; 0 when there is none.
int diameter_cpu(const int* dist, size_t count);
using DiameterCpuFunction = int(const int*, size_t);
