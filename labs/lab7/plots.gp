# Lab 7 figures, from the CSV that mk/sweep.sh writes (make lab7-sweep). mk/plot.sh runs
#     gnuplot -e "csv='results/lab7/sweep-....csv'; outdir='results/lab7'" labs/lab7/plots.gp
# which writes the student report's figures and the thread analysis (time, speedup, efficiency):
#     lab7-threads-time.png        median time of cpu_ijk and cpu_ikj against OpenMP threads p
#     lab7-threads-speedup.png     speedup T1 / Tp of both loop orders, and the ideal p
#     lab7-threads-efficiency.png  efficiency T1 / (p Tp) of both loop orders, and the ideal 1
#     lab7-gpu-vs-n.png            median time against N of the best CPU run (cpu_ikj on every
#                                  core) and every GPU matmul part at tile 32 (log scale)
#     lab7-stream.png              GB/s against the bytes streamed: the streaming kernel reading
#                                  mapped memory, and the pinned cudaMemcpy in the same runs
# The thread figures use the largest N that has rows for both loop orders at p = 1.
#
# CSV columns (the driver's --csv --csv-header), found by position:
#     1 n, 2 omp_threads, 3 stream, 4 part, 5 tile, 6 block, 7 threads, 8 launches, 9 check,
#     10 median_ms, 11 q1_ms, 12 q3_ms, 13 gflops, 14 gbps, 15 pct_yardstick
# Lines starting with '#' are ignored, except "# gpu: NAME", which goes into the titles. Only
# rows whose check is PASS are drawn (the sweep checks a sample), and "-" where it was not
# checked (the pinned copy). Rows that repeat (several sweeps concatenated, the yardsticks timed
# in every run) are averaged per x value by the awk filters below.

if (!exists("csv")) csv = system("ls labs/lab7/sample/*.csv 2>/dev/null | head -n 1")
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

# select(PART, KEY, EXTRA): "x mean_median_ms mean_q1 mean_q3 mean_rate" lines, one per x, for
# the passing rows of PART whose awk condition EXTRA holds; x is column KEY. Sorted by x.
select(part, key, extra) = sprintf("< awk -F, '!/^#/ && $4 == \"%s\" && ($9 == \"PASS\" || $9 == \"-\") && (%s) { x = $%d; n[x]++; t[x] += $10; a[x] += $11; b[x] += $12; r[x] += ($13 != \"\" ? $13 : $14) } END { for (x in n) print x, t[x] / n[x], a[x] / n[x], b[x] / n[x], r[x] / n[x] }' '%s' | sort -g", part, extra, key, csv)

# --- the thread sweep -------------------------------------------------------------------
# Its N: the largest with a p = 1 row of both cpu_ijk and cpu_ikj.
nthreads = system(sprintf("awk -F, '!/^#/ && $2 == 1 && $9 == \"PASS\" { if ($4 == \"cpu_ijk\") a[$1] = 1; if ($4 == \"cpu_ikj\") b[$1] = 1 } END { m = 0; for (n in a) if ((n in b) && n + 0 > m) m = n + 0; print m }' '%s'", csv))
has_threads = nthreads + 0 > 0
at_n = sprintf("$1 == %s", nthreads)
# T1 of each order, for speedup and efficiency.
t1(part) = real(system(sprintf("awk -F, '!/^#/ && $4 == \"%s\" && $1 == %s && $2 == 1 && $9 == \"PASS\" { t += $10; c++ } END { print (c ? t / c : 1) }' '%s'", part, nthreads, csv)))

if (has_threads) {
    t1_ijk = t1("cpu_ijk")
    t1_ikj = t1("cpu_ikj")
    set xlabel "OpenMP threads p"
    set xtics 1, 1
    set autoscale

    set output outdir . "/lab7-threads-time.png"
    set title sprintf("CPU matmul, N = %s: time against threads%s", nthreads, on_gpu)
    set ylabel "median time [ms] (bars: quartiles)"
    set logscale y
    plot select("cpu_ijk", 2, at_n) using 1:2:3:4 with yerrorlines title "i-j-k", \
         select("cpu_ikj", 2, at_n) using 1:2:3:4 with yerrorlines title "i-k-j"
    unset logscale y

    set output outdir . "/lab7-threads-speedup.png"
    set title sprintf("CPU matmul, N = %s: speedup T_1 / T_p%s", nthreads, on_gpu)
    set ylabel "speedup"
    plot select("cpu_ijk", 2, at_n) using 1:(t1_ijk / $2) with linespoints title "i-j-k", \
         select("cpu_ikj", 2, at_n) using 1:(t1_ikj / $2) with linespoints title "i-k-j", \
         x with lines dashtype 2 linecolor "gray" title "ideal (p)"

    set output outdir . "/lab7-threads-efficiency.png"
    set title sprintf("CPU matmul, N = %s: efficiency T_1 / (p T_p)%s", nthreads, on_gpu)
    set ylabel "efficiency"
    set yrange [0:*]
    plot select("cpu_ijk", 2, at_n) using 1:(t1_ijk / ($1 * $2)) with linespoints title "i-j-k", \
         select("cpu_ikj", 2, at_n) using 1:(t1_ikj / ($1 * $2)) with linespoints title "i-k-j", \
         1 with lines dashtype 2 linecolor "gray" title "ideal (1)"
    set autoscale y
    set xtics autofreq
} else {
    print "lab7: no thread sweep in this CSV (no p = 1 rows of both cpu_ijk and cpu_ikj): thread figures skipped"
}

# --- every multiply against N ------------------------------------------------------------
# The CPU line: cpu_ikj with the most threads in the CSV at each N (the best CPU run).
pmax = system(sprintf("awk -F, '!/^#/ && $4 == \"cpu_ikj\" && $9 == \"PASS\" && $2 + 0 > m { m = $2 + 0 } END { print m + 0 }' '%s'", csv))
set output outdir . "/lab7-gpu-vs-n.png"
set title sprintf("N x N matmul: the best CPU run against the GPU parts, tile 32%s", on_gpu)
set xlabel "N"
set ylabel "median time [ms] (log scale)"
set logscale y
set key top left
tile32 = "$5 == 32"
plot select("cpu_ikj", 1, sprintf("$2 == %s", pmax)) using 1:2:3:4 with yerrorlines title sprintf("CPU i-k-j, %s threads", pmax), \
     select("zc_naive", 1, tile32) using 1:2:3:4 with yerrorlines title "zero-copy naive", \
     select("zc_tiled", 1, tile32) using 1:2:3:4 with yerrorlines title "zero-copy tiled", \
     select("copy_naive", 1, tile32) using 1:2:3:4 with yerrorlines title "copies + naive", \
     select("copy_tiled", 1, tile32) using 1:2:3:4 with yerrorlines title "copies + tiled", \
     select("managed_tiled", 1, tile32) using 1:2:3:4 with yerrorlines title "managed + prefetch, tiled"
unset logscale y

# --- streaming ------------------------------------------------------------------------
set output outdir . "/lab7-stream.png"
set title sprintf("Reading host memory once: mapped-memory kernel against pinned cudaMemcpy%s", on_gpu)
set xlabel "bytes streamed [MiB]"
set ylabel "GB/s"
set logscale x 2
set yrange [0:*]
plot select("stream", 3, "1") using ($1 * 4 / 1048576):5 with linespoints title "stream (zero-copy kernel)", \
     select("pinned_h2d", 3, "1") using ($1 * 4 / 1048576):5 with linespoints title "pinned cudaMemcpy H2D"
