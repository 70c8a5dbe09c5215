# Lab 6 figures, from the CSV that mk/sweep.sh writes (make lab6-sweep). mk/plot.sh runs
#     gnuplot -e "csv='results/lab6/sweep-....csv'; outdir='results/lab6'" labs/lab6/plots.gp
# which writes
#     lab6-throughput.png      Mkeys/s (batch x length / median time) against the array length
#                              at batch x length = 2^20 (the student report's table): bitonic, odd-even,
#                              their one-block versions, CUB's segmented sort, and Thrust (one
#                              array: at 2^20 only), both directions averaged
#     lab6-throughput-16m.png  the same at batch x length = 2^24
# Where the networks' curves fall under CUB's and Thrust's is where they stop paying (handout:
# the passes over memory).
#
# CSV columns (the driver's --csv --csv-header), found by position:
#     1 length, 2 batch, 3 dir, 4 part, 5 block, 6 threads, 7 launches, 8 check, 9 median_ms,
#     10 q1_ms, 11 q3_ms, 12 mkeys, 13 pct_yardstick
# Lines starting with '#' are ignored, except "# gpu: NAME" (the titles). Only rows whose check
# is PASS are drawn (thrust_float, unchecked, is not drawn); rows that repeat are averaged per
# point. A part with no passing row is left out of a figure, with a line saying so.

if (!exists("csv")) csv = system("ls labs/lab6/sample/*.csv 2>/dev/null | head -n 1")
if (!exists("outdir")) outdir = "."

if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo enhanced size 1100,750 font "Sans,11" linewidth 1.5
} else {
    set terminal png enhanced size 1100,750
}
set datafile separator whitespace
set grid

gpu = system(sprintf("sed -n 's/^# *gpu: *//p' '%s' 2>/dev/null | head -n 1", csv))
on_gpu = (strlen(gpu) == 0 || strstrt(gpu, "unavailable") == 1) ? "" : " on " . gpu

lines = "cub thrust bitonic_shared bitonic oddeven_shared oddeven"
colors = "black #555555 #1b9e77 #d95f02 #7570b3 #e7298a"
index_of(p, i) = i > words(lines) ? 1 : (word(lines, i) eq p ? i : index_of(p, i + 1))
color(p) = word(colors, index_of(p, 1))
width(p) = (p eq "bitonic" || p eq "oddeven") ? 3 : 1.5
dash(p) = (p eq "cub" || p eq "thrust") ? 2 : 1

# points(PART, EXTRA): "length mean_mkeys" lines for PART's passing rows where the awk
# condition EXTRA holds; sorted by length.
points(part, extra) = sprintf("< awk -F, '!/^#/ && $4 == \"%s\" && $8 == \"PASS\" && (%s) { x = $1; c[x]++; r[x] += $12 } END { for (x in c) print x, r[x] / c[x] }' '%s' | sort -g", part, extra, csv)
present(extra) = system(sprintf("awk -F, -v lines='%s' '!/^#/ && $8 == \"PASS\" && (%s) { seen[$4] = 1 } END { n = split(lines, p, \" \"); for (i = 1; i <= n; i++) if (p[i] in seen) printf \"%%s \", p[i] }' '%s'", lines, extra, csv))
# Thrust sorts one array, so at 2^24 pairs (at most 2^20 a array) it has no row by design.
report_missing(expected, drawn, figure) = system(sprintf("for p in %s; do case ' %s ' in *\" $p \"*) ;; *) echo \"%s: no passing row for $p, left out\" >&2 ;; esac; done", expected, drawn, figure))

set xlabel "array length (pairs)"
set ylabel "Mkeys/s (batch x length / median time)"
set logscale x 2
set format x "2^{%L}"
set key outside right top
set yrange [0:*]

do for [total in "1048576 16777216"] {
    extra = sprintf("$1 * $2 == %s", total)
    drawn = present(extra)
    file = total eq "1048576" ? "lab6-throughput.png" : "lab6-throughput-16m.png"
    expected = total eq "1048576" ? lines : "cub bitonic_shared bitonic oddeven_shared oddeven"
    dummy = report_missing(expected, drawn, file)
    set output outdir . "/" . file
    set title sprintf("Sorting %s (key, value) pairs of uint32 as arrays of each length%s\n(one-block parts up to 1024; Thrust sorts one array)", total eq "1048576" ? "2^{20}" : "2^{24}", on_gpu)
    if (strlen(drawn) > 0) {
        plot for [p in drawn] points(p, extra) using 1:2 with linespoints lw width(p) dt dash(p) lc rgb color(p) pt 7 title p noenhanced
    } else {
        print sprintf("%s: no passing row at batch x length = %s: nothing to draw", file, total)
        unset xtics
        unset ytics
        set key off
        plot [0:1][0:1] 2 notitle
        set xtics
        set ytics
        set key outside right top
    }
}
