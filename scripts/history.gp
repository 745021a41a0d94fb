# scripts/history.gp — rating history across leagues: one line per agent (pooled Elo of each league with its
# 95% interval), the leagues' start dates on the x axis.
# Input (gnuplot -e): data = whitespace-separated blocks, one per agent, separated by two blank lines; each
# block starts with the agent's name, then lines "DATE ELO PLUSMINUS" (DATE as 2026-11-21T02:00:00);
# blocks = number of blocks; out = .png or .svg; title.
if (strstrt(out, ".svg") > 0) { set terminal svg size 900,480 dynamic background "white" } else { set terminal pngcairo size 900,480 }
set output out
set title title noenhanced
set xdata time
set timefmt "%Y-%m-%dT%H:%M:%S"
set format x "%Y-%m-%d %H:%M"
set xtics rotate by -30
set ylabel "Elo (95% interval)"
set grid
set key outside right top noenhanced
set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05
plot for [i=0:blocks-1] data index i using 1:2:3 with yerrorlines pointtype 7 pointsize 0.8 title columnheader(1)
