# Lab 3 figures, from the CSV that mk/sweep.sh writes (make lab3-sweep). mk/plot.sh runs, from
# the repository root,
#     gnuplot -e "csv='results/lab3/sweep-....csv'; outdir='results/lab3'" labs/lab3/plots.gp
# which writes the student report's two figures and two of the blocked algorithm:
#     lab3-times.png      median time against N in the runs of the student report's experiment (N = 400,
#                         1000, 1400, 2000): the CPU's triple loop, fw_1d and fw_2d at each block
#                         (8, 16, 32), fw_blocked; log scale, bars: quartiles
#     lab3-speedups.png   the speedups over the CPU in the same runs, S = T_CPU / T_part
#     lab3-blocked.png    how many times faster fw_blocked is than the plain 2D kernel (the
#                         driver's, trusted_2d, and yours, fw_2d), blocks of 32 x 32, against N up
#                         to 8192, with the goal: 30x at N = 4096
#     lab3-rates.png      relaxations per second (N^3 / median time) against N at block 32: every
#                         part, the plain 2D kernel and the CPU
# The rows are selected and averaged by labs/lab3/plots.awk, which names the CSV's columns; only
# rows whose check is PASS are drawn. Lines starting with '#' are ignored, except "# gpu: NAME",
# which goes into the titles. A figure names the curves it leaves out for want of rows.

if (!exists("csv")) csv = system("ls labs/lab3/sample/*.csv 2>/dev/null | head -n 1")
if (!exists("outdir")) outdir = "."

if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo enhanced size 1000,700 font "Sans,11" linewidth 1.5
} else {
    set terminal png enhanced size 1000,700
}
set datafile separator whitespace
set grid
set key top left box opaque

gpu = system(sprintf("sed -n 's/^# *gpu: *//p' '%s' 2>/dev/null | head -n 1", csv))
on_gpu = (strlen(gpu) == 0 || strstrt(gpu, "unavailable") == 1) ? "" : " on " . gpu

# The shell command printing one curve's points (labs/lab3/plots.awk says what the arguments mean).
rows(part, block, only, y, base) = sprintf("awk -v 'part=%s' -v 'block=%s' -v 'only=%s' -v 'y=%s' -v 'base=%s' -f labs/lab3/plots.awk '%s' '%s' | sort -g", \
                                           part, block, only, y, base, csv, csv)
points(part, block, only, y, base) = int(system(rows(part, block, only, y, base) . " | wc -l"))
# add(...): appends the curve to `cmd` (the figure's plot command) when it has points, else its
# name to `missing`. Titles are single-quoted in the command: enhanced text sees "\_" as "_".
add(part, block, only, y, base, title, style) = points(part, block, only, y, base) > 0 ? \
    (cmd = cmd . (strlen(cmd) ? ", " : "") . sprintf("\"< %s\" using %s %s title '%s'", rows(part, block, only, y, base), \
                                                      y eq "ms" ? "1:2:3:4" : "1:2", style, title), 1) : \
    (missing = missing . " " . part . (block eq "*" ? "" : " (block " . block . ")"), 0)
# empty_figure: what a figure shows when none of its curves has points (with `message`).
empty_figure = "unset logscale; unset key; set xrange [0:1]; set yrange [0:1]; " . \
               "set label 1 message at graph 0.5, 0.5 center; plot NaN notitle; unset label 1; set key; set autoscale"
# left_out(name): says which curves the figure leaves out (when it draws others).
left_out = "if (strlen(missing) > 0 && strlen(cmd) > 0) { print name . ': no passing row for' . missing . ', left out' }"

orange = "lc rgb '#ff7f0e'"
blue = "lc rgb '#1f77b4'"
green = "lw 2.5 lc rgb '#2ca02c' pt 11"
black = "lw 2.5 lc rgb 'black' pt 6"
grey = "lc rgb '#7f7f7f' pt 13 dt 2"
dash(b) = b eq "8" ? "pt 5 dt 3" : b eq "16" ? "pt 7 dt 2" : "pt 9"

# --- the student report's figures: times and speedups at N = 400, 1000, 1400, 2000 --------------------
do for [fig in "times speedups"] {
    cmd = ""; missing = ""
    times = fig eq "times"
    y = times ? "ms" : "speedup"
    style = times ? "with yerrorlines" : "with linespoints"
    letter = times ? "T" : "S"
    if (times) { dummy = add("cpu", "*", "report", y, "", "T_{CPU}: the plain triple loop, one core", style . " " . black) }
    do for [b in "8 16 32"] {
        dummy = add("fw_1d", b, "report", y, "", sprintf("%s_{1D}, 1D blocks of %d threads", letter, int(b) * int(b)), style . " " . orange . " " . dash(b))
        dummy = add("fw_2d", b, "report", y, "", sprintf("%s_{2D}, %s x %s blocks", letter, b, b), style . " " . blue . " " . dash(b))
    }
    dummy = add("fw_blocked", "*", "report", y, "", letter . "_{blocked}", style . " " . green)
    set output outdir . "/lab3-" . fig . ".png"
    set xlabel "N (vertices)"
    set xtics (400, 1000, 1400, 2000)
    if (times) {
        set title "Floyd-Warshall: median time against N" . on_gpu . "\n{/*0.85 (the student report's experiment; rows whose check passed; bars: quartiles)}"
        set ylabel "median time (ms, log scale)"
        set logscale y
        set key outside right top vertical  # inside, it covered the blocked points at N = 1400, 2000
    } else {
        set title "Floyd-Warshall: speedup over the CPU, S = T_{CPU} / T_{part}" . on_gpu . "\n{/*0.85 (the student report's experiment: the CPU timed in the same runs)}"
        set ylabel "speedup (log scale)"
        set logscale y
        set key outside right top vertical
    }
    name = "lab3-" . fig . ".png"; eval left_out
    if (strlen(cmd) > 0) {
        eval "plot " . cmd
    } else {
        print "lab3-" . fig . ".png: no row of the student report's runs (fw_1d with the CPU timed) passed its check; the figure is empty"
        message = times ? "no run of the student report's experiment in this CSV" : "no run with the CPU timed in this CSV"
        eval empty_figure
    }
    unset logscale
    set xtics autofreq
    set key inside top left
}

# --- the blocked algorithm against the plain 2D kernel --------------------------------------
cmd = ""; missing = ""
dummy = add("fw_blocked", "32", "", "over", "trusted_2d", "T(the plain 2D kernel, trusted\\_2d) / T(fw\\_blocked)", "with linespoints " . green)
dummy = add("fw_blocked", "32", "", "over", "fw_2d", "T(your fw\\_2d) / T(fw\\_blocked)", "with linespoints " . blue . " pt 9 dt 2")
set output outdir . "/lab3-blocked.png"
set title "Blocked Floyd-Warshall against the plain 2D kernel, blocks of 32 x 32" . on_gpu . "\n{/*0.85 (how many times faster; the goal: 30x at N = 4096)}"
set xlabel "N (vertices), log_2 scale"
set ylabel "T_{2D} / T_{blocked}"
set logscale x 2
set yrange [0:*]
name = "lab3-blocked.png"; eval left_out
if (strlen(cmd) > 0) {
    set label 2 "goal at N = 4096" at 4096, 30 point pt 3 ps 2 lc rgb 'red' offset 1, 1
    eval "plot " . cmd . ", 30 with lines dt 3 lw 1.5 lc rgb 'red' title '30x'"
    unset label 2
} else {
    print "lab3-blocked.png: no passing fw_blocked row at block 32 beside the 2D kernel; the figure is empty"
    message = "no fw\\_blocked and 2D rows at block 32 in this CSV"
    eval empty_figure
}
unset logscale
set autoscale

# --- relaxations per second ------------------------------------------------------------
cmd = ""; missing = ""
dummy = add("cpu", "*", "", "rate", "", "CPU: the plain triple loop, one core", "with linespoints " . black)
dummy = add("fw_1d", "32", "", "rate", "", "fw\\_1d, 1D blocks of 1024 threads", "with linespoints " . orange . " pt 9")
dummy = add("fw_2d", "32", "", "rate", "", "fw\\_2d, 32 x 32 blocks", "with linespoints " . blue . " pt 9")
dummy = add("trusted_2d", "32", "", "rate", "", "trusted\\_2d, the plain 2D kernel", "with linespoints " . grey)
dummy = add("fw_blocked", "32", "", "rate", "", "fw\\_blocked", "with linespoints " . green)
set output outdir . "/lab3-rates.png"
set title "Relaxations per second, N^3 / median time, at block 32" . on_gpu
set xlabel "N (vertices), log_2 scale"
set ylabel "Grelax/s (log scale)"
set logscale x 2
set logscale y
set key outside below center horizontal maxrows 2
name = "lab3-rates.png"; eval left_out
if (strlen(cmd) > 0) {
    eval "plot " . cmd
} else {
    print "lab3-rates.png: no passing row at block 32; the figure is empty"
    message = "no passing row at block 32 in this CSV"
    eval empty_figure
}
