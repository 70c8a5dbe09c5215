# Lab 1 figures, from the CSV that mk/sweep.sh writes (make lab1-sweep). mk/plot.sh runs
#     gnuplot -e "csv='results/lab1/sweep-....csv'; outdir='results/lab1'" labs/lab1/plots.gp
# which writes
#     lab1-gflops.png  GFLOP/s against N (M = N = K) for every part and cuBLAS: naive and tiled
#                      at tile 32, dynamic at tile 32 and depth 8;
#     lab1-block.png   median time against the block side T (T x T threads) of naive, tiled and
#                      dynamic (depth 8), at N = 2048 if the CSV has it, else at its largest N;
#     lab1-depth.png   dynamic's median time against its depth at N = 4096 (else the largest N
#                      it has), tile 32, with tiled's time there as a horizontal line.
# Error bars span the quartiles (q1_ms, q3_ms) of the timed repetitions. The GFLOP/s figure
# draws the GPU's FP32 peak from the CSV's "# fp32 peak:" line, or from -e "peak_gflops=...".
#
# CSV columns (the driver's --csv --csv-header), found by position:
#     1 m, 2 n, 3 k, 4 part, 5 tile, 6 depth, 7 block, 8 threads, 9 launches, 10 check,
#     11 median_ms, 12 q1_ms, 13 q3_ms, 14 gflops, 15 pct_cublas
# Lines starting with '#' are ignored, except "# gpu: NAME", which goes into the titles.
# Only rows whose check is PASS are drawn: a wrong result has no meaningful speed.
# Rows that repeat (cuBLAS is timed in every run; tiled at 4096 is in two runs; several sweeps
# may be concatenated) are averaged per x value, and so are their quartiles.

if (!exists("csv")) csv = system("ls labs/lab1/sample/*.csv 2>/dev/null | head -n 1")
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
# The GPU's FP32 peak, from the "# fp32 peak: N GFLOP/s" line mk/sweep.sh writes (make limits
# computes it), unless given with -e.
if (!exists("peak_gflops")) {
    peak = system(sprintf("sed -n 's/^# *fp32 peak: *\\([0-9.][0-9.]*\\).*/\\1/p' '%s' 2>/dev/null | head -n 1", csv))
    if (strlen(peak) > 0) { peak_gflops = real(peak) }
}

# A row that counts: this part, this tile and depth ("" for any), at this N ("" for any),
# check PASS, a square problem. (Only strcol here: inside "with table if", column() sees only
# the columns being written.)
ok(p, t, d, n) = strcol(4) eq p && (t eq "" || strcol(5) eq t) && (d eq "" || strcol(6) eq d) \
                 && (n eq "" || strcol(2) eq n) && strcol(10) eq "PASS" \
                 && strcol(1) eq strcol(2) && strcol(2) eq strcol(3)

# --- the N of the block and depth figures ---------------------------------------------------
# Block: 2048 if a passing naive, tiled or dynamic row has it, else the largest such N.
# Depth: 4096 if a passing dynamic row has it, else the largest such N.
largest_b = 0; has2048 = 0; largest_d = 0; has4096 = 0
is_tiled(p) = p eq "naive" || p eq "tiled" || p eq "dynamic"
stats csv using (ok(strcol(4), "", "", "") && is_tiled(strcol(4)) ? \
                 (largest_b = column(2) > largest_b ? column(2) : largest_b, \
                  has2048 = column(2) == 2048 ? 1 : has2048, 0) : 0) nooutput
stats csv using (ok("dynamic", "32", "", "") ? \
                 (largest_d = column(2) > largest_d ? column(2) : largest_d, \
                  has4096 = column(2) == 4096 ? 1 : has4096, 0) : 0) nooutput
nblock = has2048 ? 2048 : largest_b
ndepth = has4096 ? 4096 : largest_d
nb = sprintf("%d", nblock)
nd = sprintf("%d", ndepth)

# --- the curves -------------------------------------------------------------------------------
# One entry per curve: figure, part, tile, depth and N filters, the x column (2 n, 5 tile,
# 6 depth), y as GFLOP/s (1) or ms (0), and its style.
ncurves = 10
array fig[ncurves]    = ["gflops", "gflops", "gflops", "gflops", "gflops", "gflops", "block", "block", "block", "depth"]
array part[ncurves]   = ["cublas", "regblock", "coarse2", "dynamic", "tiled", "naive", "naive", "tiled", "dynamic", "dynamic"]
array tile[ncurves]   = ["", "", "", "32", "32", "32", "", "", "", "32"]
array depth[ncurves]  = ["", "", "", "8", "", "", "", "", "8", ""]
array nfilt[ncurves]  = ["", "", "", "", "", "", nb, nb, nb, nd]
array xcol[ncurves]   = [2, 2, 2, 2, 2, 2, 5, 5, 5, 6]
array rate[ncurves]   = [1, 1, 1, 1, 1, 1, 0, 0, 0, 0]
array label[ncurves]  = ["cuBLAS SGEMM (the yardstick)", "regblock (register blocking)", \
                         "coarse2 (32 x 16 blocks, 2 outputs per thread)", \
                         "dynamic (dynamic shared memory, 32 x 32 blocks, depth 8)", \
                         "tiled (shared-memory tiles, 32 x 32 blocks)", "naive (32 x 32 blocks)", \
                         "naive", "tiled", "dynamic (depth 8)", "dynamic (tile 32)"]
array point[ncurves]  = [6, 9, 11, 5, 7, 13, 13, 7, 5, 5]
array colour[ncurves] = ["black", "#d62728", "#9467bd", "#2ca02c", "#1f77b4", "#ff7f0e", \
                         "#ff7f0e", "#1f77b4", "#2ca02c", "#2ca02c"]
array width[ncurves]  = [2.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5]
array dash[ncurves]   = [2, 1, 1, 1, 1, 1, 1, 1, 1, 1]
# Where each curve's averaged points lie in $agg (its "index"), or -1 when it has none.
array at[ncurves]

# For each curve, the passing rows go to $rows as x, y, y at q3, y at q1 (a GFLOP/s rate is
# 2 M N K / time, so q3's time gives the low end of the bar); "smooth unique" then averages
# each column per x, and the averages are joined line by line (same x order) into $agg, one
# index a curve. "with table if" keeps only the rows that count (NaN in the plot itself would
# cut every line into single points). A datablock is made only when some row counts, which
# stats finds first: it sees every line as a 0 or a 1, so it never meets an empty set.
gf(ms) = 2.0 * column(1) * column(2) * column(3) / (ms * 1e6)
yval(i, c) = rate[i] ? gf(column(c)) : column(c)
curves_in_agg = 0
do for [i = 1:ncurves] {
    stats csv using (ok(part[i], tile[i], depth[i], nfilt[i]) ? 1 : 0) nooutput
    at[i] = -1
    if (STATS_sum > 0) {
        set table $rows separator comma
        plot csv using (column(xcol[i])):(yval(i, 11)):(yval(i, rate[i] ? 13 : 12)):(yval(i, rate[i] ? 12 : 13)) \
             with table if (ok(part[i], tile[i], depth[i], nfilt[i]))
        set table $u2
        plot $rows using 1:2 smooth unique
        set table $u3
        plot $rows using 1:3 smooth unique
        set table $u4
        plot $rows using 1:4 smooth unique
        unset table
        set print $agg append
        do for [j = 1:|$u2|] {
            if (words($u2[j]) >= 2 && strstrt($u2[j], "#") == 0) {
                print sprintf("%s,%s,%s,%s", word($u2[j], 1), word($u2[j], 2), word($u3[j], 2), word($u4[j], 2))
            }
        }
        print ""
        print ""
        set print
        at[i] = curves_in_agg
        curves_in_agg = curves_in_agg + 1
    }
}

# A horizontal reference line: the mean median time of the passing rows of one part at one N.
line_sum = 0; line_count = 0
stats csv using (ok("cublas", "", "", nb) ? (line_sum = line_sum + column(11), line_count = line_count + 1, 0) : 0) nooutput
cublas_ms = line_count > 0 ? line_sum / line_count : NaN
line_sum = 0; line_count = 0
stats csv using (ok("tiled", "32", "", nd) ? (line_sum = line_sum + column(11), line_count = line_count + 1, 0) : 0) nooutput
tiled_ms = line_count > 0 ? line_sum / line_count : NaN

set grid xtics ytics mytics lc rgb "#c8c8c8"
set key outside below center horizontal maxrows 3 box width 1 spacing 1.2
set format x "%g"
set format y "%g"

# plot_cmd(i, xtic): the plot clause of curve i: its points with quartile bars, joined by a line.
plot_cmd(i, xtic) = sprintf("$agg index %d using 1:2:3:4:xtic(%s) with yerrorlines lw %g dt %d pt %d ps 1.3 lc rgb '%s' title '%s'", \
                            at[i], xtic, width[i], dash[i], point[i], colour[i], label[i])
# empty_figure(message): what a figure shows when none of its curves has a passing row.
empty_figure = "unset logscale; unset key; set xrange [0:1]; set yrange [0:1]; set xtics; " . \
               "set label 1 message at graph 0.5, 0.5 center; plot NaN notitle; unset label 1; set key"

# --- (a) GFLOP/s against N -------------------------------------------------------------
set output outdir . "/lab1-gflops.png"
set title "Lab 1: matrix multiplication C = A B with M = N = K" . on_gpu . \
          "\n{/*0.85 (naive, tiled and dynamic with 32 x 32 blocks, dynamic at depth 8; rows whose check passed; bars: quartiles)}"
set xlabel "N (M = N = K), log_2 scale"
set ylabel "GFLOP/s = 2 N^3 / median time"
set logscale x 2
cmd = ""; missing = ""
xmin = 1e30; xmax = 0; ymax = 0
do for [i = 1:ncurves] {
    if (fig[i] eq "gflops") {
        if (at[i] >= 0) {
            eval sprintf("stats $agg index %d using 1:4 nooutput", at[i])
            xmin = STATS_min_x < xmin ? STATS_min_x : xmin
            xmax = STATS_max_x > xmax ? STATS_max_x : xmax
            ymax = STATS_max_y > ymax ? STATS_max_y : ymax
            # A tic at every measured N.
            cmd = cmd . (strlen(cmd) ? ", " : "") . plot_cmd(i, "sprintf('%d', $1)")
        } else {
            missing = missing . " " . part[i]
        }
    }
}
if (strlen(missing) > 0 && strlen(cmd) > 0) {
    print "lab1-gflops.png: no passing row for" . missing . ", left out (naive, tiled and dynamic are drawn at tile 32, dynamic at depth 8)"
}
if (strlen(cmd) == 0) {
    print "lab1-gflops.png: no row of the CSV passed its check; the figure is empty"
    message = "no row of this CSV passed its check"
    eval empty_figure
} else {
    if (exists("peak_gflops")) {
        cmd = cmd . sprintf(", %g with lines dt 3 lw 2 lc rgb '#7f7f7f' title 'FP32 peak (%g GFLOP/s)'", peak_gflops, peak_gflops)
        ymax = peak_gflops > ymax ? peak_gflops : ymax
    }
    # Linear from 0, so heights compare as ratios; tight at the top (5% headroom, so the
    # highest bar and the peak line stay inside the frame).
    set xrange [xmin / 1.25 : xmax * 1.25]
    set yrange [0 : ymax * 1.05]
    eval "plot " . cmd
}
set autoscale
unset logscale
set xtics autofreq

# --- (b) median time against the block side at one N -------------------------------------
set output outdir . "/lab1-block.png"
set title "Lab 1: median time against block size" . (nblock > 0 ? sprintf(" at M = N = K = %d", nblock) : "") . on_gpu . \
          "\n{/*0.85 (blocks of T x T threads, dynamic at depth 8; rows whose check passed; bars: quartiles)}"
set xlabel "block side T (a block has T x T threads), log_2 scale"
set ylabel "median time (ms, log scale)"
set logscale x 2
set logscale y 10
set xlabel offset 0, -1
set key maxrows 2
cmd = ""; missing = ""
xmin = 1e30; xmax = 0
do for [i = 1:ncurves] {
    if (fig[i] eq "block") {
        if (at[i] >= 0) {
            eval sprintf("stats $agg index %d using 1 nooutput", at[i])
            xmin = STATS_min < xmin ? STATS_min : xmin
            xmax = STATS_max > xmax ? STATS_max : xmax
            # A tic at every measured T, with the block's thread count under it.
            cmd = cmd . (strlen(cmd) ? ", " : "") . plot_cmd(i, "sprintf(\"%d\\n(%d threads)\", $1, $1 * $1)")
        } else {
            missing = missing . " " . part[i]
        }
    }
}
if (strlen(missing) > 0 && strlen(cmd) > 0) {
    print sprintf("lab1-block.png: no passing row at N = %d for", nblock) . missing . "; left out"
}
if (strlen(cmd) == 0) {
    print "lab1-block.png: no naive, tiled or dynamic row of the CSV passed its check; the figure is empty"
    message = "no passing naive, tiled or dynamic row in this CSV"
    eval empty_figure
} else {
    if (cublas_ms == cublas_ms) {
        cmd = cmd . sprintf(", %g with lines dt 2 lw 2.5 lc rgb 'black' title 'cuBLAS SGEMM (its own blocks)'", cublas_ms)
    }
    set xrange [xmin / 1.35 : xmax * 1.35]
    eval "plot " . cmd
}
set autoscale
unset logscale
set xtics autofreq
set xlabel offset 0, 0

# --- (c) dynamic's time against its depth at one N ---------------------------------------
set output outdir . "/lab1-depth.png"
set title "Lab 1: the dynamic part against its depth" . (ndepth > 0 ? sprintf(" at M = N = K = %d", ndepth) : "") . on_gpu . \
          "\n{/*0.85 (32 x 32 blocks; depth = tiles of K staged per barrier; rows whose check passed; bars: quartiles)}"
set xlabel "depth (tiles of K per barrier), log_2 scale"
set ylabel "median time (ms)"
set logscale x 2
cmd = ""
do for [i = 1:ncurves] {
    if (fig[i] eq "depth" && at[i] >= 0) {
        eval sprintf("stats $agg index %d using 1 nooutput", at[i])
        xmin = STATS_min; xmax = STATS_max
        cmd = plot_cmd(i, "sprintf('%d', $1)")
    }
}
if (strlen(cmd) == 0) {
    print "lab1-depth.png: no passing dynamic row at tile 32 in the CSV; the figure is empty"
    message = "no passing dynamic row at tile 32 in this CSV"
    eval empty_figure
} else {
    if (tiled_ms == tiled_ms) {
        cmd = cmd . sprintf(", %g with lines dt 2 lw 2.5 lc rgb '#1f77b4' title 'tiled (tile 32, static shared memory)'", tiled_ms)
    } else {
        print sprintf("lab1-depth.png: no passing tiled row at tile 32 and N = %d; its line is left out", ndepth)
    }
    set xrange [xmin / 1.35 : xmax * 1.35]
    eval "plot " . cmd
}
set output
