# Lab 2 figures, from the CSV that mk/sweep.sh writes (make lab2-sweep). mk/plot.sh runs
#     gnuplot -e "csv='results/lab2/sweep-....csv'; outdir='results/lab2'" labs/lab2/plots.gp
# which writes
#     lab2-widths.png      pitched time / plain time of the naive and tiled multiplies at the
#                          widths of the handout (M = N = K = width): above 1, padding costs;
#     lab2-coalescing.png  median time of the naive multiply reading A as is and transposed,
#                          against the block width (2048^3, block height 8);
#     lab2-transpose.png   GB/s of the transpose, cudaMemcpy2D and a copy kernel against the
#                          side of the square matrix transposed.
#
# CSV columns (the driver's --csv --csv-header), found by position:
#     1 m, 2 n, 3 k, 4 pitch_a, 5 part, 6 bw, 7 bh, 8 block, 9 threads, 10 launches, 11 check,
#     12 median_ms, 13 q1_ms, 14 q3_ms, 15 gflops, 16 gbps, 17 pct_yardstick
# Lines starting with '#' are ignored, except "# gpu: NAME", which goes into the titles. Rows
# are selected and combined by awk; only rows whose check is PASS (or "-", a yardstick that
# checks nothing) are drawn: a wrong result has no meaningful speed.

if (!exists("csv")) csv = system("ls labs/lab2/sample/*.csv 2>/dev/null | head -n 1")
if (!exists("outdir")) outdir = "."

if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo enhanced size 1000,700 font "Sans,11" linewidth 1.5
} else {
    set terminal png enhanced size 1000,700
}
gpu = system(sprintf("sed -n 's/^# *gpu: *//p' '%s' 2>/dev/null | head -n 1", csv))
on_gpu = strlen(gpu) == 0 ? "" : " on " . gpu
set grid
set key top left

# awk over the CSV's data rows, fields split at commas; `program` selects and prints.
rows(program) = sprintf("< awk -F, '!/^#/ && $1 != \"m\" && ($11 == \"PASS\" || $11 == \"-\") { %s }' '%s'", program, csv)

# --- pitched / plain at each width --------------------------------------------------------------
# Square cases at block height 32: per width, the median times of the four parts; one output
# line per width: width, naive ratio, tiled ratio.
widths = "m = $1; if ($1 == $2 && $2 == $3 && $7 == \"32\") t[m, $5] = $12; seen[m] = 1 } " . \
         "END { for (m in seen) if (t[m, \"plain_naive\"] && t[m, \"pitched_naive\"]) " . \
         "print m, t[m, \"pitched_naive\"] / t[m, \"plain_naive\"], t[m, \"pitched_tiled\"] / t[m, \"plain_tiled\"] | \"sort -n\""
set output outdir . "/lab2-widths.png"
set title "Pitched against plain allocations" . on_gpu . "\n(pitched time / plain time; 1 = no difference)"
set xlabel "width = M = N = K (floats)"
set ylabel "time ratio"
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set yrange [0.8:1.2]
set datafile separator whitespace
plot rows(widths) using 2:xtic(1) title "naive", '' using 3 title "tiled (block height 32)", 1 with lines lc black notitle
unset style
set style data linespoints
set autoscale y
set yrange [0:*]

# --- coalescing: A as is and transposed, against the block width ---------------------------------
coalescing(p) = sprintf("if ($5 == \"%s\" && $1 == 2048 && $7 == \"8\") print $6, $12, $13, $14 | \"sort -n\"", p)
set output outdir . "/lab2-coalescing.png"
set title "Reading A as is or transposed, by block width" . on_gpu . "\n(naive multiply, 2048^3, block height 8)"
set xlabel "block width (threads along x)"
set ylabel "median time (ms)"
set xtics (10, 16, 24, 32)
plot rows(coalescing("pitched_naive")) using 1:2:3:4 with yerrorlines lw 2 pt 7 title "A as is: a warp spanning rows reads a column of A", \
     rows(coalescing("naive_at")) using 1:2:3:4 with yerrorlines lw 2 pt 5 title "A transposed (At): consecutive elements of a row"
set xtics autofreq

# --- the transpose against the copies ------------------------------------------------------------
transposes(p) = sprintf("if ($5 == \"%s\" && $1 == $3 && $2 == \"32\") print $1, $16 | \"sort -n\"", p)
set output outdir . "/lab2-transpose.png"
set title "Transpose and copies of a square float matrix" . on_gpu
set xlabel "side of the matrix (floats)"
set ylabel "GB/s (bytes read + written)"
set logscale x 2
set key bottom right
plot rows(transposes("copykernel")) using 1:2 lw 2 pt 9 title "copy kernel", \
     rows(transposes("transpose")) using 1:2 lw 2 pt 7 title "transpose (32 x 33 shared tile)", \
     rows(transposes("copy2d")) using 1:2 lw 2 pt 5 title "cudaMemcpy2D device to device"
