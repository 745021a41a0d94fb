# scripts/history.gp — rating history: one line per agent (its pooled Elo in each league with the 95%
# interval), one point per night on the x axis, labelled with the nightly dates.
# Input (set by the driver arena writes, arena/report/plot.c): data = one block per agent (two blank lines
# between), lines "x elo lower upper" (x: the night's index from 0); n = agents; names = their names; nx =
# nights; nights = their dates (array); title; w, h = size in pixels; out = .png or .svg.
if (strstrt(out, ".svg") > 0) { set terminal svg size w,h dynamic background "white" font "sans,11" } \
else { set terminal pngcairo size w,h background "white" font "sans,11" }
set output out
set title title noenhanced
set ylabel "Elo (95% interval)"
set grid
set key outside right top noenhanced
set xrange [-0.5:nx-0.5]
set offsets 0, 0, graph 0.05, graph 0.05
set tics noenhanced
set xtics () rotate by -30 left
do for [i=1:nx] { set xtics add (nights[i] i-1) }
# gnuplot's eight line colours, then the same colours with other point shapes: twelve agents stay apart
shape(i) = i / 8 == 0 ? 7 : i / 8 == 1 ? 5 : i / 8 == 2 ? 9 : i / 8 == 3 ? 13 : 11
plot for [i=0:n-1] data index i using 1:2:3:4 with yerrorlines linecolor (i % 8) + 1 pointtype shape(i) \
     pointsize 0.9 title names[i+1]
