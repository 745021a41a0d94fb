# scripts/curves.gp — exploitability against training hours on a log scale (make curves-3x3, docs/solver.md).
# Input (gnuplot -e): files / names = CSV curves (seconds,hours,iterations,exploitability,...) and their
# labels, space-separated in the same order; out = .png or .svg; xlab (optional) = the x axis label.
if (strstrt(out, ".svg") > 0) { set terminal svg size 800,500 dynamic background "white" } else { set terminal pngcairo size 800,500 }
set output out
set datafile separator ","
set logscale y
set format y "10^{%L}"
set grid
set key top right noenhanced
if (!exists("xlab")) xlab = "training hours (external-sampling MCCFR, two busy cores)"
set xlabel xlab
set ylabel "exact exploitability (arena exploit)"
set title "3x3 Dark Hex: exploitability against training time" noenhanced
n = words(files)
plot for [i=1:n] word(files, i) using 2:4 every ::1 with linespoints linewidth 2 pointtype 7 title word(names, i)
