# Lab 4 figures, from the CSV that mk/sweep.sh writes (make lab4-sweep). mk/plot.sh runs
#     gnuplot -e "csv='results/lab4/sweep-....csv'; outdir='results/lab4'" labs/lab4/plots.gp
# which writes
#     lab4-blocks-time.png     the student report's experiment: n = 200000, median time against the block
#                              size of the CPU loop, both stencils, the max and an empty kernel
#                              (log scale: the GPU parts sit on the launch floor)
#     lab4-blocks-speedup.png  the student report's speedups T_cpu / T_gpu of both stencils at n = 200000
#     lab4-bandwidth.png       GB/s against n (block 256): both stencils, the max, and the copy
#                              kernel, cudaMemcpy and the half copy timed in the same runs
#     lab4-time.png            median time against n (log-log): both stencils, the copy kernel,
#                              the empty kernel and the CPU loop: where the launch stops mattering
#     lab4-conv-radius.png     GB/s of both convolutions and the copy kernel of the image against
#                              the radius (4096 x 4096)
#     lab4-conv-size.png       the same against the side of a square image (r = 2)
#
# CSV columns (the driver's --csv --csv-header), found by position:
#     1 n, 2 block_size, 3 width, 4 height, 5 radius, 6 part, 7 block, 8 threads, 9 launches,
#     10 check, 11 median_ms, 12 q1_ms, 13 q3_ms, 14 gbps, 15 pct_yardstick
# Lines starting with '#' are ignored, except "# gpu: NAME", which goes into the titles. Only
# rows whose check is PASS (or "-": a yardstick, which checks nothing) are drawn. Rows that
# repeat (the yardsticks are timed in every run, sweeps may be concatenated) are averaged per x
# value. A curve without rows is left out, and said so.

if (!exists("csv")) csv = system("ls labs/lab4/sample/*.csv 2>/dev/null | head -n 1")
if (!exists("outdir")) outdir = "."

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

counts = "!/^#/ && $1 != \"n\" && ($10 == \"PASS\" || $10 == \"-\")"
# select(PART, KEY, EXTRA): "x mean_ms mean_q1 mean_q3 mean_gbps" lines, one per x, for the rows
# of PART that count and satisfy the awk condition EXTRA; x is column KEY. Sorted by x.
select(part, key, extra) = sprintf("< awk -F, '%s && $6 == \"%s\" && (%s) { x = $%d; n[x]++; t[x] += $11; a[x] += $12; b[x] += $13; r[x] += $14 } END { for (x in n) print x, t[x] / n[x], a[x] / n[x], b[x] / n[x], r[x] / n[x] }' '%s' | sort -g", counts, part, extra, key, csv)
count(part, extra) = int(system(sprintf("awk -F, '%s && $6 == \"%s\" && (%s) { c++ } END { print c + 0 }' '%s'", counts, part, extra, csv)))

# Before each figure: `parts` (words) and `extra`; `pick` sets `ok`, the indices of the parts
# that have rows, and `missing`, the names of those that have none.
pick = "ok = ''; missing = ''; do for [i = 1:words(parts)] { if (count(word(parts, i), extra) > 0) { ok = ok . ' ' . i } else { missing = missing . ' ' . word(parts, i) } }"
# After it: what was left out, or that the figure is empty.
report = "if (strlen(ok) == 0) { print figure . ': no passing row for any of its curves; the figure is empty' } else { if (strlen(missing) > 0) { print figure . ': no passing row for' . missing . ', left out' } }"
empty = "set label 1 'no passing row in this CSV' at graph 0.5, 0.5 center; set xrange [1:10]; set yrange [1:10]; unset key; plot 100 notitle; unset label 1; set autoscale x; set autoscale y; set key top left box opaque"

# --- the student report's experiment: the block sizes at n = 200000 -----------------------------------
parts = "cpu stencil_global stencil_shared max launch"
array titles[5] = ["CPU loop, one core (T_{CPU})", "stencil, global memory", "stencil, shared tile", \
                   "max (two passes)", "an empty kernel: the launch floor"]
extra = "$1 == 200000"
figure = "lab4-blocks-time.png"
eval(pick)
set output outdir . "/" . figure
set title "The student report's experiment: n = 200000, time against the block size" . on_gpu
set xlabel "threads per block (--block)"
set ylabel "median time [us] (log scale; bars: quartiles)"
set logscale x 2
set logscale y
if (strlen(ok) == 0) { eval(empty) } else {
    plot for [w in ok] select(word(parts, int(w)), 2, extra) using 1:($2 * 1000):($3 * 1000):($4 * 1000) \
         with yerrorlines title titles[int(w)]
}
eval(report)

# Speedups: T_cpu / T_part at each block size that has the CPU row and the part's.
speedups = sprintf("< awk -F, '%s && $1 == 200000 { t[$2, $6] += $11; c[$2, $6]++; seen[$2] = 1 } END { for (b in seen) if (c[b, \"cpu\"] && c[b, \"stencil_global\"] && c[b, \"stencil_shared\"]) print b, (t[b, \"cpu\"] / c[b, \"cpu\"]) / (t[b, \"stencil_global\"] / c[b, \"stencil_global\"]), (t[b, \"cpu\"] / c[b, \"cpu\"]) / (t[b, \"stencil_shared\"] / c[b, \"stencil_shared\"]) }' '%s' | sort -g", counts, csv)
figure = "lab4-blocks-speedup.png"
set output outdir . "/" . figure
set title "The student report's speedups at n = 200000: T_{CPU} / T_{GPU}" . on_gpu
set ylabel "speedup over one CPU core"
unset logscale y
set yrange [0:*]
if (int(system(sprintf("%s | wc -l", speedups[3:*]))) == 0) {
    print figure . ": no block size with passing rows of cpu, stencil_global and stencil_shared; the figure is empty"
    eval(empty)
} else {
    plot speedups using 1:2 with linespoints title "S_{GLOBAL}", '' using 1:3 with linespoints title "S_{SHARED}"
}
set autoscale y

# --- n from 2^10 to 2^28 at block 256 ---------------------------------------------------------
parts = "stencil_global stencil_shared max copy memcpy copy_half"
array titles[6] = ["stencil, global memory", "stencil, shared tile", "max (reads n floats)", \
                   "copy kernel, the stencil's bytes", "cudaMemcpy device to device, the same bytes", \
                   "copy kernel, the max's bytes"]
extra = "$2 == 256 && $3 == 16 && $4 == 16"
figure = "lab4-bandwidth.png"
eval(pick)
set output outdir . "/" . figure
set title "Effective bandwidth against n (block 256)" . on_gpu
set xlabel "n (outputs of the stencil)"
set ylabel "GB/s (bytes read + written once / median time)"
set logscale x 2
set format x "2^{%L}"
unset logscale y
set yrange [0:*]
if (strlen(ok) == 0) { eval(empty) } else {
    plot for [w in ok] select(word(parts, int(w)), 1, extra) using 1:5 with linespoints title titles[int(w)]
}
eval(report)
set autoscale y

parts = "cpu stencil_global stencil_shared copy launch"
array titles[5] = ["CPU loop, one core", "stencil, global memory", "stencil, shared tile", \
                   "copy kernel, the same bytes", "an empty kernel: the launch floor"]
figure = "lab4-time.png"
eval(pick)
set output outdir . "/" . figure
set title "Time against n (block 256): where the launch stops setting the time" . on_gpu
set ylabel "median time [us] (log scale)"
set logscale y
if (strlen(ok) == 0) { eval(empty) } else {
    plot for [w in ok] select(word(parts, int(w)), 1, extra) using 1:($2 * 1000) with linespoints title titles[int(w)]
}
eval(report)
unset logscale y
unset logscale x
set format x "% h"

# --- the convolution: radius and image size -------------------------------------------------
parts = "conv_global conv_shared copy_image"
array titles[3] = ["convolution, global memory", "convolution, shared tile", "copy kernel of the image"]
extra = "$3 == 4096 && $4 == 4096"
figure = "lab4-conv-radius.png"
eval(pick)
set output outdir . "/" . figure
set title "Convolution of a 4096 x 4096 image against the radius" . on_gpu
set xlabel "radius r (a (2r + 1) x (2r + 1) filter)"
set ylabel "GB/s (image read + output written / median time)"
set xtics 1
set yrange [0:*]
if (strlen(ok) == 0) { eval(empty) } else {
    plot for [w in ok] select(word(parts, int(w)), 5, extra) using 1:5 with linespoints title titles[int(w)]
}
eval(report)
set xtics autofreq

extra = "$5 == 2 && $3 == $4 && $3 >= 256"
figure = "lab4-conv-size.png"
eval(pick)
set output outdir . "/" . figure
set title "Convolution with r = 2 against the side of a square image" . on_gpu
set xlabel "side of the image (floats)"
set logscale x 2
if (strlen(ok) == 0) { eval(empty) } else {
    plot for [w in ok] select(word(parts, int(w)), 3, extra) using 1:5 with linespoints title titles[int(w)]
}
eval(report)
