#!/usr/bin/env bash
# scripts/plots.sh — the plots of one league: pooled ratings with error bars, ratings per variant and
# board, a win-matrix heatmap per variant and board, and the rating history of every league with the same
# name, as PNG and SVG under OUTDIR. `arena plot` runs this script.
# usage: scripts/plots.sh BIN_DIR DB LEAGUE OUTDIR [BOOTSTRAP [TITLE]]   (LEAGUE: an id or a name)
set -euo pipefail
bin=${1:?bin directory} db=${2:?database} league=${3:?league} out=${4:?output directory} boot=${5:-500}
label=${6:-$league}
here=$(cd "$(dirname "$0")" && pwd)
command -v gnuplot >/dev/null || { echo "plots: gnuplot not found (make deps installs gnuplot-nox)" >&2; exit 1; }
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$bin/arena" ratings --db "$db" --league "$league" --format csv --bootstrap "$boot" >"$tmp/ratings.csv"
# one CSV per table (variant and board, or "pooled"), then one plot each
awk -F, -v dir="$tmp" 'NR == 1 { head = $0; next }
    { name = $2 == "" ? $1 : $1 "-" $2
      file = dir "/r-" name ".csv"; if (!(file in seen)) { print head > file; seen[file] = 1 } print > file }' \
    "$tmp/ratings.csv"
for f in "$tmp"/r-*.csv; do
    name=$(basename "$f" .csv); name=${name#r-}
    for ext in png svg; do
        gnuplot -e "data='$f'; out='$out/ratings-$name.$ext'; title='$label: Elo, $name'" "$here/ratings.gp"
    done
done

"$bin/arena" matrix --db "$db" --league "$league" --format csv >"$tmp/matrix.csv"
# the long form (variant, board, black, white, games, black_wins, white_wins, black_score_pct) as one
# whitespace-separated matrix per variant and board: a line of names, then a row of scores per Black agent
awk -F, -v dir="$tmp" 'NR == 1 { next }
    { file = dir "/m-" $1 "-" $2 ".txt"
      if (!(file in seen)) { seen[file] = 1; n[file] = 0 }
      for (k = 3; k <= 4; k++) if (!((file, $k) in known)) { known[file, $k] = 1; names[file, ++n[file]] = $k }
      score[file, $3, $4] = $8 }
    END { for (file in seen) {
            line = "x"
            for (i = 1; i <= n[file]; i++) line = line " " names[file, i]
            print line > file
            for (i = 1; i <= n[file]; i++) {
                b = names[file, i]; line = b
                for (j = 1; j <= n[file]; j++) {
                    w = names[file, j]; line = line " " ((file, b, w) in score ? score[file, b, w] : "nan") }
                print line > file } } }' "$tmp/matrix.csv"
for f in "$tmp"/m-*.txt; do
    name=$(basename "$f" .txt); name=${name#m-}
    for ext in png svg; do
        gnuplot -e "data='$f'; out='$out/matrix-$name.$ext'; title='$label: $name, row score % (rows move first)'" \
            "$here/matrix.gp" 2> >(grep -v "missing or undefined\|room for" >&2 || true)
    done
done
# rating history: one block per agent (name, then "date elo +-" per league), in league order
"$bin/arena" ratings --db "$db" --league "$league" --history --format csv --bootstrap "$boot" >"$tmp/history.csv"
blocks=$(awk -F, 'NR > 1 { n = $4; gsub(/^"|"$/, "", n); if (!(n in seen)) { seen[n] = 1; k++ } } END { print k + 0 }' \
    "$tmp/history.csv")
awk -F, 'NR > 1 { n = $4; gsub(/^"|"$/, "", n); gsub(/ /, "_", n)
              if (!(n in idx)) { idx[n] = ++k; name[k] = n }
              rows[idx[n]] = rows[idx[n]] $3 " " $5 " " ($6 == "" ? 0 : $6) "\n" }
         END { for (i = 1; i <= k; i++) printf "%s%s\n%s", (i > 1 ? "\n\n" : ""), name[i], rows[i] }' \
    "$tmp/history.csv" >"$tmp/history.txt"
for ext in png svg; do
    gnuplot -e "data='$tmp/history.txt'; blocks=$blocks; out='$out/history.$ext'; title='$label: rating history'" \
        "$here/history.gp" 2> >(grep -v "empty x range" >&2 || true)
done
echo "plots: $(ls "$out" | wc -l) files in $out"
