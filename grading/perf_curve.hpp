// The performance curve of labs/MANIFEST.md: full points when the student's median time is
// within full_ratio of the reference solution's (timed in the same grading run), none beyond
// zero_ratio, linear in log(ratio) between, so each doubling of the time costs the same.
#pragma once

// The fraction of the performance points earned at `ratio` = student time / reference time.
// A ratio that is not a positive finite number earns nothing.
double perf_fraction(double ratio, double full_ratio, double zero_ratio);
