# Lab 0 figures, from the CSV that mk/sweep.sh writes (make lab0-sweep). mk/plot.sh runs
#     gnuplot -e "csv='results/lab0/sweep-....csv'; outdir='results/lab0'" labs/lab0/plots.gp
# which writes
#     lab0-bandwidth.png   GB/s against n (block 256): both parts and the copy kernel timed in
#                          the same runs; where the launch, then memory, sets the time
#     lab0-blocks.png      GB/s against the block size at n = 2^24: both parts and the copy
#
# CSV columns (the driver's --csv --csv-header), found by position:
#     1 n, 2 block_size, 3 part, 4 block, 5 threads, 6 launches, 7 check, 8 median_ms,
#     9 q1_ms, 10 q3_ms, 11 gbps, 12 pct_yardstick
# Lines starting with '#' are ignored, except "# gpu: NAME", which goes into the titles. Only
# rows whose check is PASS (or "-": the copy, which checks nothing) are drawn, averaged per x
# value. A curve without rows is left out, and said so.

if (!exists("csv")) csv = system("ls labs/lab0/sample/*.csv 2>/dev/null | head -n 1")
if (!exists("outdir")) outdir = "."
if (!exists("blocks_n")) blocks_n = 16777216

if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo enhanced size 1000,700 font "Sans,11" linewidth 1.5
} else {
    set terminal png enhanced size 1000,700
}
set datafile separator whitespace
set key top left box opaque
set grid

gpu = system(sprintf("sed -n 's/^# *gpu: *//p' '%s' 2>/dev/null | head -n 1", csv))
on_gpu = (strlen(gpu) == 0 || strstrt(gpu, "unavailable") == 1) ? "" : " on " . gpu

counts = "!/^#/ && $1 != \"n\" && ($7 == \"PASS\" || $7 == \"-\")"
# points(PART, KEY, EXTRA): "x mean_gbps" lines for PART's rows that count and satisfy EXTRA;
# x is column KEY. Sorted by x.
points(part, key, extra) = sprintf("< awk -F, '%s && $3 == \"%s\" && (%s) { x = $%d; c[x]++; r[x] += $11 } END { for (x in c) print x, r[x] / c[x] }' '%s' | sort -g", counts, part, extra, key, csv)
count(part, extra) = int(system(sprintf("awk -F, '%s && $3 == \"%s\" && (%s) { c++ } END { print c + 0 }' '%s'", counts, part, extra, csv)))

parts = "copy one_per_thread grid_stride"
set logscale x 2
set ylabel "GB/s (12 bytes an element: x and y read, z written)"

figure = "lab0-bandwidth.png"
extra = "$2 == 256"
ok = ""; missing = ""
do for [i = 1:words(parts)] { if (count(word(parts, i), extra) > 0) { ok = ok . " " . i } else { missing = missing . " " . word(parts, i) } }
if (strlen(missing) > 0) { print figure . ": no passing row for" . missing . ", left out" }
set output outdir . "/" . figure
set title "z = a x + y against n, blocks of 256" . on_gpu
set xlabel "n (elements)"
set format x "2^{%L}"
if (strlen(ok) == 0) {
    print figure . ": no passing row for any of its curves; the figure is empty"
    set label 1 "no passing row in this CSV" at graph 0.5, 0.5 center
    plot [1:10] [1:10] 100 notitle
    unset label 1
} else {
    plot for [i in ok] points(word(parts, i + 0), 1, extra) using 1:2 with linespoints title word(parts, i + 0) noenhanced
}

figure = "lab0-blocks.png"
extra = sprintf("$1 == %d", blocks_n)
ok = ""; missing = ""
do for [i = 1:words(parts)] { if (count(word(parts, i), extra) > 0) { ok = ok . " " . i } else { missing = missing . " " . word(parts, i) } }
if (strlen(missing) > 0) { print figure . ": no passing row for" . missing . ", left out" }
set output outdir . "/" . figure
set title sprintf("z = a x + y against the block size, n = %d", blocks_n) . on_gpu
set xlabel "threads per block"
set format x "%g"
if (strlen(ok) == 0) {
    print figure . ": no passing row for any of its curves; the figure is empty"
    set label 1 "no passing row in this CSV" at graph 0.5, 0.5 center
    plot [1:10] [1:10] 100 notitle
    unset label 1
} else {
    plot for [i in ok] points(word(parts, i + 0), 2, extra) using 1:2 with linespoints title word(parts, i + 0) noenhanced
}
unset output
