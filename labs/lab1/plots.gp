# Lab 1 figures, from the CSV that labs/lab1/sweep.sh writes. mk/plot.sh runs it as
#     gnuplot -e "csv='results/lab1/sweep-....csv'; outdir='results/lab1'" labs/lab1/plots.gp
# and writes
#     lab1-gflops.png  GFLOP/s against N (M = N = K) for every rung and cuBLAS;
#     lab1-block.png   median time against the block side T (T x T threads) for the rungs
#                      that take --tile, at N = 2048 if the sweep has it, else its largest N.
# CSV columns: m,n,k,rung,tile,block,threads,check,median_ms,gflops,pct_cublas
# Lines starting with '#' are ignored, except "# gpu: NAME", which goes in the titles.
# Only rows whose check is PASS are drawn: a wrong result has no meaningful speed.
# Rows that repeat (cuBLAS is timed in every run, or several sweeps were concatenated)
# are averaged per x value (smooth unique).

if (!exists("csv")) csv = "labs/lab1/sample/sweep.csv"
if (!exists("outdir")) outdir = "."

if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo enhanced size 1000,650 font "Sans,11" linewidth 1.5
} else {
    set terminal png size 1000,650
}
set datafile separator comma
set datafile commentschars "#"

gpu = system(sprintf("sed -n 's/^# *gpu: *//p' '%s' 2>/dev/null | head -n 1", csv))
if (strlen(gpu) == 0 || strstrt(gpu, "unavailable") == 1) { on_gpu = "" } else { on_gpu = " on " . gpu }

# A row that counts: this rung, this tile ("" for any), a PASS, and a square problem.
# (&& short-circuits, so empty fields of failed rows are never read as numbers.)
ok(rung, tile) = strcol(4) eq rung && (tile eq "" || strcol(5) eq tile) && strcol(8) eq "PASS" && column(1) == column(2) && column(2) == column(3)

# --- which N the block-size figure uses ----------------------------------------------
# Every line maps to 0, so stats never meets an empty set; the assignments do the work.
tiled_rungs = "naive tiled dynamic"
largest = 0; has2048 = 0; passes = 0; gflops_passes = 0
is_tiled() = strcol(4) eq "naive" || strcol(4) eq "tiled" || strcol(4) eq "dynamic"
stats csv using (strcol(8) eq "PASS" && column(1) == column(2) && column(2) == column(3) ? \
    (gflops_passes = gflops_passes + 1, \
     is_tiled() ? (passes = passes + 1, largest = (column(1) > largest ? column(1) : largest), \
                   has2048 = (column(1) == 2048 ? 1 : has2048), 0) : 0) : 0) nooutput
nblock = has2048 ? 2048 : largest
nb = sprintf("%d", nblock)

# cuBLAS at that N, averaged over its runs.
cublas_sum = 0; cublas_count = 0
stats csv using (ok("cublas", "") && column(1) == nblock ? \
    (cublas_sum = cublas_sum + column(9), cublas_count = cublas_count + 1, 0) : 0) nooutput
cublas_ms = cublas_count > 0 ? cublas_sum / cublas_count : NaN

set grid xtics ytics mytics lc rgb "#dddddd"
set key top left box opaque

# --- (a) GFLOP/s against N -------------------------------------------------------------
set output outdir . "/lab1-gflops.png"
set title "Lab 1: matrix multiplication C = A B, M = N = K" . on_gpu . "\n{/*0.85 naive, tiled and dynamic with 32 x 32 blocks; only rows whose check passed}"
set xlabel "N (M = N = K; log_2 scale)"
set ylabel "GFLOP/s = 2 N^3 / median time (log scale)"
set logscale x 2
set logscale y 10
set xtics 2
set format x "%g"
set format y "%g"
if (gflops_passes == 0) {
    print "lab1-gflops.png: the CSV has no row whose check is PASS; the figure is empty"
    unset logscale y
    set xrange [128:8192]
    set yrange [0:1]
    set label 1 "no row of this CSV passed its check" at graph 0.5, 0.5 center
    plot NaN notitle
    unset label 1
    set autoscale
} else {
    set xrange [*:*] noextend
    plot csv using 1:(ok("cublas", "") ? column(10) : NaN) smooth unique with linespoints lw 2 dt 2 pt 6 lc rgb "black" title "cuBLAS SGEMM", \
         ""  using 1:(ok("regblock", "") ? column(10) : NaN) smooth unique with linespoints pt 9 lc rgb "#d62728" title "regblock (128 x 128 tile, 8 x 8 per thread)", \
         ""  using 1:(ok("coarse2", "") ? column(10) : NaN) smooth unique with linespoints pt 11 lc rgb "#9467bd" title "coarse2 (32 x 16 block, 2 per thread)", \
         ""  using 1:(ok("dynamic", "32") ? column(10) : NaN) smooth unique with linespoints pt 5 lc rgb "#2ca02c" title "dynamic (32 x 32, 4 tiles of K per barrier)", \
         ""  using 1:(ok("tiled", "32") ? column(10) : NaN) smooth unique with linespoints pt 7 lc rgb "#1f77b4" title "tiled (32 x 32 shared-memory tiles)", \
         ""  using 1:(ok("naive", "32") ? column(10) : NaN) smooth unique with linespoints pt 13 lc rgb "#ff7f0e" title "naive (32 x 32, global memory only)"
}
unset logscale
unset xrange

# --- (b) time against block side at one N -------------------------------------------------
set output outdir . "/lab1-block.png"
set title "Lab 1: median time against block size, M = N = K = " . nb . on_gpu . "\n{/*0.85 blocks of T x T threads; only rows whose check passed}"
set xlabel "block side T (a block has T x T threads; log_2 scale)"
set ylabel "median time (ms, log scale)"
set logscale x 2
set logscale y 10
set xrange [6:42]
set xtics ("8\n(64 threads)" 8, "16\n(256 threads)" 16, "32\n(1024 threads)" 32)
set key top right box opaque
if (passes == 0) {
    print "lab1-block.png: the CSV has no passing naive, tiled or dynamic row; the figure is empty"
    unset logscale y
    set yrange [0:1]
    set label 1 "no passing naive, tiled or dynamic row in this CSV" at graph 0.5, 0.5 center
    plot NaN notitle
    unset label 1
} else {
    at_n(rung) = ok(rung, "") && column(1) == nblock
    plot csv using (at_n("naive") ? column(5) : NaN):(at_n("naive") ? column(9) : NaN) smooth unique with linespoints pt 13 lc rgb "#ff7f0e" title "naive", \
         ""  using (at_n("tiled") ? column(5) : NaN):(at_n("tiled") ? column(9) : NaN) smooth unique with linespoints pt 7 lc rgb "#1f77b4" title "tiled", \
         ""  using (at_n("dynamic") ? column(5) : NaN):(at_n("dynamic") ? column(9) : NaN) smooth unique with linespoints pt 5 lc rgb "#2ca02c" title "dynamic", \
         cublas_ms with lines dt 2 lw 2 lc rgb "black" title (cublas_count > 0 ? "cuBLAS SGEMM (no block choice)" : "")
}
set output
