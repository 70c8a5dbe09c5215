# The rows of a lab 3 sweep (mk/sweep.sh's CSV) that labs/lab3/plots.gp draws, one line per N,
# sorted by the caller. Read the CSV twice (awk -f plots.awk ... CSV CSV): the first pass collects
# the CPU's and the base part's times and the N of the student report's runs.
#
#   -v part=P     the part (or yardstick) drawn: fw_1d, fw_2d, fw_blocked, diameter, cpu, trusted_2d
#   -v block=B    its --block (CSV column blocksize), or * for any
#   -v only=report  only the N where fw_1d ran (the runs of the student report's experiment); empty: every N
#   -v y=WHAT     ms: "N median q1 q3" (ms); rate: "N Grelax/s"; speedup: "N T_cpu / T_part";
#                 over: "N T_base / T_part", base's rows at the same block (-v base=trusted_2d)
#
# CSV columns (the driver's --csv --csv-header): 1 n, 2 blocksize, 3 arcs, 4 part, 5 block,
# 6 threads, 7 launches, 8 check, 9 median_ms, 10 q1_ms, 11 q3_ms, 12 grelax, 13 gbps,
# 14 pct_yardstick. Only rows whose check is PASS count (a skipped yardstick says "skipped");
# rows that repeat (the CPU in every block's run, several sweeps concatenated) are averaged.
BEGIN { FS = "," }
/^#/ || $1 == "n" || NF < 12 { next }
FNR == NR {
    if ($8 != "PASS") next
    if ($4 == "fw_1d") report_n[$1] = 1
    if ($4 == "cpu") { cpu_ms[$1] += $9; cpu_runs[$1]++ }
    if ($4 == base && (block == "*" || $2 == block)) { base_ms[$1] += $9; base_runs[$1]++ }
    next
}
$4 != part || $8 != "PASS" || (block != "*" && $2 != block) { next }
{ n = $1; runs[n]++; ms[n] += $9; q1[n] += $10; q3[n] += $11; rate[n] += $12 }
END {
    for (n in runs) {
        if (only == "report" && !(n in report_n)) continue
        t = ms[n] / runs[n]
        if (y == "ms") print n, t, q1[n] / runs[n], q3[n] / runs[n]
        else if (y == "rate") print n, rate[n] / runs[n]
        else if (y == "speedup") { if (n in cpu_runs) print n, cpu_ms[n] / cpu_runs[n] / t }
        else if (y == "over") { if (n in base_runs) print n, base_ms[n] / base_runs[n] / t }
    }
}
