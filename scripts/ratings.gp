# scripts/ratings.gp — Elo ratings with their 95% intervals as error bars, one point per agent.
# Input (gnuplot -e): data = CSV of `arena ratings --format csv` for one table (columns: table, rank,
# name, elo, +-, ...), out = output file (.png or .svg), title = plot title.
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
plot data skip 1 using 2:4:5:xtic(3) with yerrorbars pointtype 7 pointsize 1.2 linecolor rgb "#1f5fa8", \
     "" skip 1 using 2:4:(sprintf("%d", $4)) with labels offset 2.2,0 notitle
