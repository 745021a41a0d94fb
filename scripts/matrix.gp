# scripts/matrix.gp — a win matrix as a heatmap with the numbers in the cells: rows are the agent moving
# first (Black), columns the agent moving second; colour and number are the row's score in %.
# Input (gnuplot -e): data = whitespace-separated matrix (first line: names; then one row per Black agent:
# name and scores, "nan" where no games), out = .png or .svg, title.
if (strstrt(out, ".svg") > 0) { set terminal svg size 720,600 dynamic background "white" } else { set terminal pngcairo size 720,600 }
set output out
set title title noenhanced
set xlabel "second player (White)"
set ylabel "first player (Black)"
set cbrange [0:100]
set cblabel "row's score %"
set palette defined (0 "#b2182b", 50 "#f7f7f7", 100 "#2166ac")
set yrange [] reverse
set key off
set tics scale 0
plot data matrix rowheaders columnheaders using 1:2:3 with image, \
     "" matrix rowheaders columnheaders using 1:2:($3 == $3 ? sprintf("%.0f", $3) : "") with labels font ",12"
