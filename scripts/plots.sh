#!/usr/bin/env bash
# scripts/plots.sh — the plots of one league: pooled ratings with error bars, ratings per variant and
# board, and a win-matrix heatmap per variant and board, as PNG and SVG under OUTDIR.
# usage: scripts/plots.sh BIN_DIR DB LEAGUE OUTDIR
set -euo pipefail
bin=${1:?bin directory} db=${2:?database} league=${3:?league} out=${4:?output directory}
here=$(cd "$(dirname "$0")" && pwd)
command -v gnuplot >/dev/null || { echo "plots: gnuplot not found (make deps installs gnuplot-nox)" >&2; exit 1; }
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$bin/arena" ratings --db "$db" --league "$league" --format csv --bootstrap 500 >"$tmp/ratings.csv"
# one CSV per table (first column), then one plot each
awk -F, -v dir="$tmp" 'NR == 1 { head = $0; next }
    { t = $1; gsub(/^"|"$/, "", t); split(t, parts, ":"); name = parts[1]; gsub(/ /, "-", name)
      file = dir "/r-" name ".csv"; if (!(file in seen)) { print head > file; seen[file] = 1 } print > file }' \
    "$tmp/ratings.csv"
for f in "$tmp"/r-*.csv; do
    name=$(basename "$f" .csv); name=${name#r-}
    for ext in png svg; do
        gnuplot -e "data='$f'; out='$out/ratings-$name.$ext'; title='$league: Elo, $name'" "$here/ratings.gp"
    done
done

"$bin/arena" matrix --db "$db" --league "$league" --score --format csv >"$tmp/matrix.csv"
awk -F, -v dir="$tmp" 'NR == 1 { next }
    { t = $1; gsub(/^"|"$/, "", t); split(t, parts, ":"); name = parts[1]; gsub(/ /, "-", name)
      file = dir "/m-" name ".txt"
      if (!(file in seen)) { seen[file] = 1; n[file] = 0 }
      rows[file, ++n[file]] = $0 }
    END { for (key in seen) {
            file = key; line = "x"
            for (i = 1; i <= n[file]; i++) { split(rows[file, i], c, ","); line = line " " c[2] }
            print line > file
            for (i = 1; i <= n[file]; i++) {
                k = split(rows[file, i], c, ","); line = c[2]
                for (j = 3; j <= k; j++) line = line " " (c[j] == "" ? "nan" : c[j])
                print line > file } } }' "$tmp/matrix.csv"
for f in "$tmp"/m-*.txt; do
    name=$(basename "$f" .txt); name=${name#m-}
    for ext in png svg; do
        gnuplot -e "data='$f'; out='$out/matrix-$name.$ext'; title='$league: $name, row score % (rows move first)'" \
            "$here/matrix.gp" 2> >(grep -v "missing or undefined\|room for" >&2 || true)
    done
done
echo "plots: $(ls "$out" | wc -l) files in $out"
