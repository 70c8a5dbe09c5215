# Lab 5 figures, from the CSV that mk/sweep.sh writes (make lab5-sweep). mk/plot.sh runs
#     gnuplot -e "csv='results/lab5/sweep-....csv'; outdir='results/lab5'" labs/lab5/plots.gp
# which writes
#     lab5-bandwidth.png  effective GB/s (8 n bytes / median time) against n, log scale, for
#                         every rung and CUB at blocks of 512, with the GPU's memory peak
#     lab5-speedup.png    the ladder's cumulative speedup at n = 2^24, blocks of 512: the
#                         neighbored rung's time over each rung's (and CUB's), as bars, the
#                         book's table 3-5 on this GPU
#     lab5-blocks.png     effective GB/s against the block size at n = 2^24, every rung and CUB
#
# CSV columns (the driver's --csv --csv-header), found by position:
#     1 n, 2 block_size, 3 part, 4 block, 5 threads, 6 launches, 7 check, 8 median_ms,
#     9 q1_ms, 10 q3_ms, 11 gbps, 12 pct_yardstick
# Lines starting with '#' are ignored, except "# gpu: NAME" (the titles) and "# memory peak:
# N GB/s" (the peak line). Only rows whose check is PASS are drawn; rows that repeat (CUB runs
# in every run of the sweep; sweeps concatenated) are averaged per point. A rung with no
# passing row is left out of a figure, with a line saying so.

if (!exists("csv")) csv = system("ls labs/lab5/sample/*.csv 2>/dev/null | head -n 1")
if (!exists("outdir")) outdir = "."
if (!exists("speedup_n")) speedup_n = 16777216

if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo enhanced size 1100,750 font "Sans,11" linewidth 1.5
} else {
    set terminal png enhanced size 1100,750
}
set datafile separator whitespace
set grid

gpu = system(sprintf("sed -n 's/^# *gpu: *//p' '%s' 2>/dev/null | head -n 1", csv))
on_gpu = (strlen(gpu) == 0 || strstrt(gpu, "unavailable") == 1) ? "" : " on " . gpu
peak = real(system(sprintf("sed -n 's/^# *memory peak: *\\([0-9.]*\\).*/\\1/p' '%s' 2>/dev/null | head -n 1 | grep . || echo 0", csv)))

ladder = "cub neighbored neighbored_less interleaved unrolling2 unrolling4 unrolling8 unroll_warps8 complete_unroll_warps8 complete_unroll shuffle grid_stride"

# points(PART, KEY, EXTRA): "x mean_gbps" lines, one per x (column KEY), for PART's passing rows
# where the awk condition EXTRA holds; sorted by x.
points(part, key, extra) = sprintf("< awk -F, '!/^#/ && $3 == \"%s\" && $7 == \"PASS\" && (%s) { x = $%d; c[x]++; r[x] += $11 } END { for (x in c) print x, r[x] / c[x] }' '%s' | sort -g", part, extra, key, csv)
# The rungs of the ladder with at least one passing row where EXTRA holds, in ladder order.
present(extra) = system(sprintf("awk -F, -v ladder='%s' '!/^#/ && $7 == \"PASS\" && (%s) { seen[$3] = 1 } END { n = split(ladder, p, \" \"); for (i = 1; i <= n; i++) if (p[i] in seen) printf \"%%s \", p[i] }' '%s'", ladder, extra, csv))
report_missing(drawn, figure) = system(sprintf("for p in %s; do case ' %s ' in *\" $p \"*) ;; *) echo \"%s: no passing row for $p, left out\" >&2 ;; esac; done", ladder, drawn, figure))
# One colour per rung, the same in every figure; CUB black and dashed, CUB and the top rung thick.
colors = "black #1b9e77 #d95f02 #7570b3 #e7298a #66a61e #e6ab02 #a6761d #1f78b4 #b15928 #6a3d9a #e31a1c"
index_of(p, i) = i > words(ladder) ? 1 : (word(ladder, i) eq p ? i : index_of(p, i + 1))
color(p) = word(colors, index_of(p, 1))
width(p) = (p eq "cub" || p eq "grid_stride") ? 3 : 1.5
dash(p) = p eq "cub" ? 2 : 1

# --- GB/s against n, blocks of 512 ---------------------------------------------------------------
at512 = "$2 == 512"
drawn = present(at512)
dummy = report_missing(drawn, "lab5-bandwidth.png")
set output outdir . "/lab5-bandwidth.png"
set title "Effective bandwidth of each rung against n, blocks of 512" . on_gpu . "\n(8 n bytes / median time; from the input in device memory to its sum, cold L2)"
set xlabel "n (doubles)"
set ylabel "GB/s"
set logscale x 2
set format x "2^{%L}"
set key outside right top
set yrange [0:*]
if (peak > 0) {
    plot for [p in drawn] points(p, 1, at512) using 1:2 with linespoints lw width(p) dt dash(p) lc rgb color(p) title p noenhanced, \
         peak with lines dashtype 2 linecolor "gray" title sprintf("memory peak %.0f GB/s", peak)
} else {
    plot for [p in drawn] points(p, 1, at512) using 1:2 with linespoints lw width(p) dt dash(p) lc rgb color(p) title p noenhanced
}
unset logscale x
set format x "%g"

# --- cumulative speedup at speedup_n, blocks of 512 -----------------------------------------------
at_n = sprintf("$1 == %d && $2 == 512", speedup_n)
t_first = real(system(sprintf("awk -F, '!/^#/ && $3 == \"neighbored\" && $7 == \"PASS\" && %s { t += $8; c++ } END { print (c ? t / c : 0) }' '%s'", at_n, csv)))
set output outdir . "/lab5-speedup.png"
if (t_first > 0) {
    # "part cumulative" lines, in ladder order.
    bars = sprintf("< awk -F, -v ladder='%s' -v first=%.9g '!/^#/ && $7 == \"PASS\" && %s { c[$3]++; t[$3] += $8 } END { n = split(ladder, p, \" \"); for (i = 1; i <= n; i++) if (p[i] in c) printf \"%%s %%.4f\\n\", p[i], first / (t[p[i]] / c[p[i]]) }' '%s'", ladder, t_first, at_n, csv)
    set title sprintf("The ladder's cumulative speedup at n = %d, blocks of 512%s\n(neighbored's median time / each rung's; a student report on a P100: 6.7x for complete unroll)", speedup_n, on_gpu)
    set xlabel ""
    set ylabel "cumulative speedup over neighbored"
    set style data histogram
    set style histogram clustered gap 1
    set style fill solid 0.8 border -1
    set boxwidth 0.8
    set xtics rotate by -40 scale 0 noenhanced
    set key off
    set yrange [0:*]
    plot bars using 2:xtic(1) linecolor rgb "#4477aa", '' using 0:2:(sprintf("%.1fx", $2)) with labels offset 0,0.8 notitle
    set xtics norotate
    unset style data
    set style data linespoints
} else {
    set title sprintf("No passing neighbored row at n = %d, blocks of 512, in this CSV", speedup_n)
    unset xtics
    unset ytics
    set key off
    plot [0:1][0:1] 2 notitle
    set xtics
    set ytics
    print sprintf("lab5-speedup.png: no passing neighbored row at n = %d, blocks of 512: nothing to draw", speedup_n)
}

# --- GB/s against the block size at speedup_n ------------------------------------------------------
at_big = sprintf("$1 == %d", speedup_n)
drawn = present(at_big)
dummy = report_missing(drawn, "lab5-blocks.png")
set output outdir . "/lab5-blocks.png"
set title sprintf("Effective bandwidth against the block size, n = %d%s", speedup_n, on_gpu)
set xlabel "threads per block"
set ylabel "GB/s"
set logscale x 2
set xtics (64, 128, 256, 512, 1024)
set key outside right top
set yrange [0:*]
plot for [p in drawn] points(p, 2, at_big) using 1:2 with linespoints lw width(p) dt dash(p) lc rgb color(p) title p noenhanced
