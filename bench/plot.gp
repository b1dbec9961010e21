# Latency against corpus size, from bench/merge_runs.py's plot data:
#   gnuplot -e "data='plot.dat'; out='docs/benchmarks_latency.png'" bench/plot.gp
# One panel per engine and percentile (p50 above, p99 below), one line per
# query kind: medians over the runs in milliseconds, both axes logarithmic. A line flatter than the dotted one (time
# proportional to the corpus) grows sub-linearly.
set terminal pngcairo size 1500,1000 font ",10" noenhanced
set output out
set logscale xy
set xrange [7000:1400000]
set yrange [0.005:1000]
set xtics ("10k" 10000, "100k" 100000, "1M" 1000000)
set xlabel "abstracts"
set grid
set key top left font ",8"
kinds = "common rare and2 and3 and4_6 and4_6_all or2_3 or4_6 phrase all"
# Rows come by corpus size; sorted by kind, then size, each kind's points are
# consecutive, so gnuplot joins them into one line.
sorted = "< sort -k2,2 -k1,1n ".data
set multiplot layout 2,3
do for [pct in "p50 p99"] {
  do for [engine in "paperdb FTS5 Xapian"] {
    col = (engine eq "paperdb" ? 3 : (engine eq "FTS5" ? 4 : 5)) + \
          (pct eq "p99" ? 3 : 0)
    set title engine." ".pct
    set ylabel pct." latency, ms"
    plot for [k in kinds] sorted using (strcol(2) eq k ? $1 : NaN):col \
           with linespoints title k, \
         0.001 * x / 10000 * 10 with lines dashtype 3 lc "gray" title "linear"
  }
}
unset multiplot
