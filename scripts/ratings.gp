# scripts/ratings.gp — Elo ratings with their 95% intervals as error bars, one point per agent.
# Input (gnuplot -e): data = CSV of `arena ratings --format csv` for one table (columns: variant, board,
# rank, name, elo, plus_minus, ...), out = output file (.png or .svg), title = plot title.
set datafile separator ","
if (strstrt(out, ".svg") > 0) { set terminal svg size 800,480 dynamic background "white" } else { set terminal pngcairo size 800,480 }
set output out
set title title noenhanced
set ylabel "Elo (95% interval)"
set xlabel ""
set grid ytics
set key off
set xtics rotate by -30 noenhanced
set offsets 0.5, 0.5, 15, 15
plot data skip 1 using 3:5:6:xtic(4) with yerrorbars pointtype 7 pointsize 1.2 linecolor rgb "#1f5fa8", \
     "" skip 1 using 3:5:(sprintf("%.0f", $5)) with labels offset 2.2,0 notitle
