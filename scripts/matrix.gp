# scripts/matrix.gp — a win matrix as a heatmap: rows are the agent moving first (Black), columns the agent
# moving second (White), both in the order given (best rated first); each cell is a rectangle coloured by
# the row's score % with the row's wins-losses and score written in it. Rectangles (not `with image`) so
# that no viewer smooths the colours.
# Input (set by the driver arena writes, arena/report/plot.c): data = lines "x y score wins losses textcolour"
# (x column, y row, from 0); n = agents; names = their names (array); title; w, h = size in pixels;
# cellfont = font size of the cell text; out = .png or .svg.
if (strstrt(out, ".svg") > 0) { set terminal svg size w,h dynamic background "white" font "sans,11" } \
else { set terminal pngcairo size w,h background "white" font "sans,11" }
set output out
set title title noenhanced
set xlabel "second player (White)"
set ylabel "first player (Black)"
set x2label ""
set cbrange [0:100]
set cblabel "row's score %"
set palette defined (0 "#b2182b", 50 "#f7f7f7", 100 "#2166ac")
set xrange [-0.5:n-0.5]
set yrange [n-0.5:-0.5]
set size ratio -1
set key off
set border 0
set tics scale 0 noenhanced
set xtics () rotate by 45 right offset 0,0
set ytics ()
do for [i=1:n] { set xtics add (names[i] i-1); set ytics add (names[i] i-1) }
set style fill solid 1.0 noborder
plot data using 1:2:(0.48):(0.48):3 with boxxyerror fillcolor palette, \
     "" using 1:2:(sprintf("%d-%d\n%.0f%%", $4, $5, $3)):6 with labels textcolor rgb variable font ",".cellfont noenhanced
