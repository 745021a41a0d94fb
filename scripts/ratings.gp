# scripts/ratings.gp — Elo ratings with their 95% intervals as error bars, one point per agent, best first;
# the caption under the title gives the first-move advantage.
# Input (set by the driver arena writes, arena/report/plot.c): data = lines "x elo lower upper" (x from 0);
# n = agents; names = their names (array); title; caption; w, h = size in pixels; bm = bottom margin in
# lines (room for the names); out = .png or .svg.
if (strstrt(out, ".svg") > 0) { set terminal svg size w,h dynamic background "white" font "sans,11" } \
else { set terminal pngcairo size w,h background "white" font "sans,11" }
set output out
set title (strlen(caption) > 0 ? title."\n".caption : title) noenhanced
set ylabel "Elo (95% interval)"
set xlabel ""
set grid ytics
set bmargin bm
set key off
set xrange [-0.6:n-0.4]
set offsets 0, 0, graph 0.08, graph 0.08
set tics noenhanced
set xtics () rotate by -30 left scale 0
do for [i=1:n] { set xtics add (names[i] i-1) }
# a point's label: its Elo to the unit, "0" (not "-0") for a value that rounds to zero
whole(v) = sprintf("%.0f", v) eq "-0" ? "0" : sprintf("%.0f", v)
plot data using 1:2:3:4 with yerrorbars pointtype 7 pointsize 1.2 linecolor rgb "#1f5fa8", \
     "" using 1:2:(whole($2)) with labels offset 2.4,0 notitle
