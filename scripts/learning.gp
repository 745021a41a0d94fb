# scripts/learning.gp — learning curves of rl-train: the greedy policy's win rate against the random player
# (solid) and the bridge builder (dashed) over training episodes, one line pair per run.
# Input (gnuplot -e): files = space-separated CSV curves (episode,seconds,epsilon,states,win_random,
# win_bridge, ...); names = space-separated labels in the same order; out = .png or .svg; title; logx = 1
# for a logarithmic episode axis (optional).
if (strstrt(out, ".svg") > 0) { set terminal svg size 960,520 dynamic background "white" } else { set terminal pngcairo size 960,520 }
set output out
set title title noenhanced
set datafile separator ","
set xlabel "episodes"
set ylabel "greedy win rate"
set yrange [0:1]
set format x "%.0s%c"
if (exists("logx") && logx) { set logscale x }
set grid
set key outside right top noenhanced
n = words(files)
plot for [i=1:n] word(files, i) using 1:5 every ::1 with linespoints linecolor i pointtype 7 pointsize 0.5 \
         dashtype 1 title word(names, i)." vs random", \
     for [i=1:n] word(files, i) using 1:6 every ::1 with linespoints linecolor i pointtype 6 pointsize 0.5 \
         dashtype 2 title word(names, i)." vs bridge"
