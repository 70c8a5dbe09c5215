# Lab 1 figures, from the CSV that labs/lab1/sweep.sh writes. mk/plot.sh runs
#     gnuplot -e "csv='results/lab1/sweep-....csv'; outdir='results/lab1'" labs/lab1/plots.gp
# which writes
#     lab1-gflops.png  GFLOP/s against N (M = N = K) for every rung and cuBLAS;
#     lab1-block.png   median time against the block side T (T x T threads) of the rungs
#                      that take --tile, at N = 2048 if the CSV has it, else at its largest N.
# CSV columns: m,n,k,rung,tile,block,threads,check,median_ms,gflops,pct_cublas
# Lines starting with '#' are ignored, except "# gpu: NAME", which goes into the titles.
# Only rows whose check is PASS are drawn: a wrong result has no meaningful speed.
# Rows that repeat (cuBLAS is timed in every run; several sweeps may be concatenated) are
# averaged per x value (smooth unique).

if (!exists("csv")) csv = "labs/lab1/sample/sweep.csv"
if (!exists("outdir")) outdir = "."

if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo enhanced size 1000,700 font "Sans,11" linewidth 1.5
} else {
    set terminal png enhanced size 1000,700
}
set datafile separator comma
set datafile commentschars "#"

gpu = system(sprintf("sed -n 's/^# *gpu: *//p' '%s' 2>/dev/null | head -n 1", csv))
on_gpu = (strlen(gpu) == 0 || strstrt(gpu, "unavailable") == 1) ? "" : " on " . gpu

# A row that counts: this rung, this tile ("" for any), check PASS, a square problem.
# (Only strcol here: inside "with table if", column() sees only the columns being written.)
ok(r, t) = strcol(4) eq r && (t eq "" || strcol(5) eq t) && strcol(8) eq "PASS" \
                 && strcol(1) eq strcol(2) && strcol(2) eq strcol(3)

# The curves, in key order: rung, tile filter, title, point type, colour, dash type.
array rung[6]  = ["cublas", "regblock", "coarse2", "dynamic", "tiled", "naive"]
array tile[6]  = ["", "", "", "32", "32", "32"]
array label[6] = ["cuBLAS SGEMM (the yardstick)", "regblock (register blocking)", \
                  "coarse2 (32 x 16 blocks, 2 outputs per thread)", "dynamic (dynamic shared memory, 32 x 32 blocks)", \
                  "tiled (shared-memory tiles, 32 x 32 blocks)", "naive (32 x 32 blocks)"]
array point[6] = [6, 9, 11, 5, 7, 13]
array colour[6] = ["black", "#d62728", "#9467bd", "#2ca02c", "#1f77b4", "#ff7f0e"]
array dash[6]  = [2, 1, 1, 1, 1, 1]

# --- the passing rows, one datablock per curve ----------------------------------------------
# "with table if" keeps only the rows that count (filtering with NaN inside the plot itself
# would cut every line into single points). A datablock is made only when some row counts,
# which stats finds first: it sees every line of the CSV as a 0 or a 1, so it never meets
# an empty set, and gnuplot never warns about an empty plot.
array gflops_rows[6]
do for [i = 1:6] {
    stats csv using (ok(rung[i], tile[i]) ? 1 : 0) nooutput
    gflops_rows[i] = int(STATS_sum)
    if (gflops_rows[i] > 0) {
        eval sprintf("set table $gflops_%d separator comma", i)
        plot csv using 1:10 with table if (ok(rung[i], tile[i]))
        unset table
    }
}
# The N of the block-size figure: 2048 if a passing naive, tiled or dynamic row has it,
# else the largest such N.
largest = 0; has2048 = 0
is_tiled(r) = r eq "naive" || r eq "tiled" || r eq "dynamic"
stats csv using (is_tiled(strcol(4)) && ok(strcol(4), "") ? \
                 (largest = column(1) > largest ? column(1) : largest, \
                  has2048 = column(1) == 2048 ? 1 : has2048, 0) : 0) nooutput
nblock = has2048 ? 2048 : largest
nb = sprintf("%d", nblock)
array block_rows[6]
do for [i = 4:6] {
    stats csv using (ok(rung[i], "") && strcol(1) eq nb ? 1 : 0) nooutput
    block_rows[i] = int(STATS_sum)
    if (block_rows[i] > 0) {
        eval sprintf("set table $block_%d separator comma", i)
        plot csv using 5:9 with table if (ok(rung[i], "") && strcol(1) eq nb)
        unset table
    }
}
# cuBLAS at that N: its rows have no tile, so their mean is one horizontal line.
cublas_sum = 0; cublas_count = 0
stats csv using (ok("cublas", "") && strcol(1) eq nb ? \
                 (cublas_sum = cublas_sum + column(9), cublas_count = cublas_count + 1, 0) : 0) nooutput
cublas_ms = cublas_count > 0 ? cublas_sum / cublas_count : NaN

set grid xtics ytics mytics lc rgb "#c8c8c8"
set key outside below center horizontal maxrows 3 box width 1 spacing 1.2

# --- (a) GFLOP/s against N -------------------------------------------------------------
set output outdir . "/lab1-gflops.png"
set title "Lab 1: matrix multiplication C = A B with M = N = K" . on_gpu . \
          "\n{/*0.85 (naive, tiled and dynamic with 32 x 32 blocks; rows whose check passed)}"
set xlabel "N (M = N = K), log_2 scale"
set ylabel "GFLOP/s = 2 N^3 / median time (log scale)"
set logscale x 2
set logscale y 10
set format x "%g"
set format y "%g"
cmd = ""; missing = ""
nmin = 1e30; nmax = 0
do for [i = 1:6] {
    if (gflops_rows[i] > 0) {
        eval sprintf("stats $gflops_%d using 1 nooutput", i)
        nmin = STATS_min < nmin ? STATS_min : nmin
        nmax = STATS_max > nmax ? STATS_max : nmax
        cmd = cmd . (strlen(cmd) ? ", " : "") . \
              sprintf("$gflops_%d using 1:2:xtic(sprintf('%%d', $1)) smooth unique with linespoints lw %g dt %d pt %d ps 1.3 lc rgb '%s' title '%s'", \
                      i, i == 1 ? 2.5 : 1.5, dash[i], point[i], colour[i], label[i])
    } else {
        missing = missing . " " . rung[i]
    }
}
if (strlen(missing) > 0 && strlen(cmd) > 0) {
    print "lab1-gflops.png: no passing row for" . missing . ", left out (naive, tiled and dynamic are drawn at tile 32)"
}
if (strlen(cmd) == 0) {
    print "lab1-gflops.png: no row of the CSV passed its check; the figure is empty"
    unset logscale y
    unset key
    set ylabel "GFLOP/s = 2 N^3 / median time"
    set xrange [128:8192]
    set yrange [0:1]
    set label 1 "no row of this CSV passed its check" at graph 0.5, 0.5 center
    plot NaN notitle
    unset label 1
    set key
} else {
    # A tic at every measured N (xtic in the plot command).
    set xrange [nmin / 1.25 : nmax * 1.25]
    eval "plot " . cmd
}
set autoscale
unset logscale
set xtics autofreq

# --- (b) median time against the block side at one N -------------------------------------
set output outdir . "/lab1-block.png"
set title "Lab 1: median time against block size" . (nblock > 0 ? sprintf(" at M = N = K = %d", nblock) : "") . on_gpu . \
          "\n{/*0.85 (blocks of T x T threads; rows whose check passed)}"
set xlabel "block side T (a block has T x T threads), log_2 scale"
set ylabel "median time (ms, log scale)"
set logscale x 2
set logscale y 10
set xlabel offset 0, -1
set key maxrows 2
cmd = ""; missing = ""
tmin = 1e30; tmax = 0
do for [i = 6:4:-1] {
    if (block_rows[i] > 0) {
        eval sprintf("stats $block_%d using 1 nooutput", i)
        tmin = STATS_min < tmin ? STATS_min : tmin
        tmax = STATS_max > tmax ? STATS_max : tmax
        # A tic at every measured T, with the block's thread count under it.
        cmd = cmd . (strlen(cmd) ? ", " : "") . \
              sprintf("$block_%d using 1:2:xtic(sprintf(\"%%d\\n(%%d threads)\", $1, $1 * $1)) smooth unique with linespoints lw 1.5 pt %d ps 1.3 lc rgb '%s' title '%s'", \
                      i, point[i], colour[i], rung[i])
    } else {
        missing = missing . " " . rung[i]
    }
}
if (strlen(missing) > 0 && strlen(cmd) > 0) {
    print sprintf("lab1-block.png: no passing row at N = %d for", nblock) . missing . "; left out"
}
if (strlen(cmd) == 0) {
    print "lab1-block.png: no naive, tiled or dynamic row of the CSV passed its check; the figure is empty"
    unset logscale y
    unset key
    set ylabel "median time (ms)"
    set xrange [6:42]
    set xtics (8, 16, 32)
    set yrange [0:1]
    set label 1 "no passing naive, tiled or dynamic row in this CSV" at graph 0.5, 0.5 center
    plot NaN notitle
    unset label 1
} else {
    if (cublas_ms == cublas_ms) {
        cmd = cmd . sprintf(", %g with lines dt 2 lw 2.5 lc rgb 'black' title 'cuBLAS SGEMM (its own blocks)'", cublas_ms)
    }
    set xrange [tmin / 1.35 : tmax * 1.35]
    eval "plot " . cmd
}
set output
