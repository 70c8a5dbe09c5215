// The trusted CPU yardstick: C = A B with OpenMP, loops i-k-j, on `threads` threads. Every
// part's "% OpenMP" compares with it, timed in the same run with the same --threads (by
// default every core: the best CPU run, as the student report's speedup column). The student's files may
// not call it (the grader's symbol check).
#pragma once

void openmp_yardstick_ikj(const float* A, const float* B, float* C, int n, int threads);
