#!/usr/bin/env bash
# scripts/rcfr_experiments.sh — the regression CFR comparison of docs/experiments.md: exact exploitability
# against iterations and wall time for CFR, CFR+ (cfr-train) and RCFR, RCFR+, f-RCFR with the polynomial
# link (p = 1.5, 2, 3) and the exponential link (tau = 0.01, 0.1, 1) (rcfr-train, XGBoost trees) with the
# coarse and the rich feature sets, on 2x2, 3x2 and 2x3 classical and abrupt. Writes OUT/curves/*.csv,
# OUT/GAME.png and .svg (log-scale figures), OUT/final.csv and OUT/table.md; runs JOBS trainings at a time.
# 3x3 abrupt is not run: its game tree does not fit in memory (docs/experiments.md).
# usage: scripts/rcfr_experiments.sh BIN_DIR OUT [ITERATIONS [JOBS]]; `make experiments` runs it.
set -euo pipefail
bin=${1:?bin directory} out=${2:?output directory}
iterations=${3:-200} jobs=${4:-2}
here=$(cd "$(dirname "$0")" && pwd)
command -v gnuplot >/dev/null || { echo "rcfr_experiments: gnuplot not found (make deps installs gnuplot-nox)" >&2; exit 1; }
mkdir -p "$out/curves" "$out/tmp"
games="classical_2x2 abrupt_2x2 classical_3x2 abrupt_3x2 classical_2x3 abrupt_2x3"
# name|trainer arguments (one run per name, game and feature set; CFR and CFR+ have no features)
runs=(
    "cfr|cfr-train --algo cfr"
    "cfr+|cfr-train --algo cfr+"
    "rcfr|rcfr-train --algo rcfr"
    "rcfr+|rcfr-train --algo rcfr+"
    "poly1.5|rcfr-train --algo frcfr --link poly --p 1.5"
    "poly2|rcfr-train --algo frcfr --link poly --p 2"
    "poly3|rcfr-train --algo frcfr --link poly --p 3"
    "exp0.01|rcfr-train --algo frcfr --link exp --tau 0.01"
    "exp0.1|rcfr-train --algo frcfr --link exp --tau 0.1"
    "exp1|rcfr-train --algo frcfr --link exp --tau 1"
)
jobfile="$out/tmp/jobs"
: >"$jobfile"
for g in $games; do
    v=${g%_*} b=${g#*_}
    for r in "${runs[@]}"; do
        name=${r%%|*} cmd=${r#*|}
        if [[ $cmd == cfr-train* ]]; then
            feats="-"
        else
            feats="coarse rich"
        fi
        for f in $feats; do
            id="${g}_${name}"
            extra=""
            [ "$f" = - ] || { id="${id}_$f"; extra="--features $f"; }
            echo "$bin/$cmd --variant $v --board $b $extra --iterations $iterations --eval-every 10 --fresh --quiet" \
                 "--checkpoint-every 0 --curve $out/curves/$id.csv --out $out/tmp/$id.pol --json" \
                 ">$out/tmp/$id.json" >>"$jobfile"
        done
    done
done
rm -f "$out"/curves/*.csv
total=$(wc -l <"$jobfile")
echo "rcfr_experiments: $total trainings of $iterations iterations, $jobs at a time" >&2
start=$(date +%s)
n=0
# xargs runs the jobs; a line per finished job keeps an ETA on stderr
xargs -P "$jobs" -I{} bash -c '{} && echo done' <"$jobfile" | while read -r _; do
    n=$((n + 1))
    el=$(($(date +%s) - start))
    echo "rcfr_experiments: $n/$total done, ${el} s, ETA $((el * (total - n) / n)) s" >&2
done
[ "$(ls "$out"/tmp/*.json | wc -l)" -eq "$total" ] || { echo "rcfr_experiments: some trainings failed" >&2; exit 1; }

# The final exploitabilities: one row per game and algorithm, one column per feature set.
final="$out/final.csv" table="$out/table.md"
echo "game,algorithm,features,iterations,seconds,fit_seconds,exploitability" >"$final"
for j in "$out"/tmp/*.json; do
    id=$(basename "$j" .json)
    python_free_num() { sed -n "s/.*\"$1\":\\([^,}]*\\).*/\\1/p" "$j"; }
    g=$(cut -d_ -f1,2 <<<"$id") rest=${id#*_*_}
    name=${rest%_*} f=${rest##*_}
    [ "$name" = "$rest" ] && f=-
    [[ $rest == *_* ]] || { name=$rest f=-; }
    fit=$(python_free_num fit_seconds); fit=${fit:-0}
    echo "$g,$name,$f,$(python_free_num iterations),$(python_free_num seconds),$fit,$(python_free_num exploitability)" >>"$final"
done
{
    echo "| game | algorithm | rich features | coarse features |"
    echo "|---|---|---:|---:|"
    for g in $games; do
        for r in "${runs[@]}"; do
            name=${r%%|*}
            rich=$(awk -F, -v g="$g" -v n="$name" '$1==g && $2==n && ($3=="rich" || $3=="-") { printf "%.2e", $7 }' "$final")
            coarse=$(awk -F, -v g="$g" -v n="$name" '$1==g && $2==n && $3=="coarse" { printf "%.2e", $7 }' "$final")
            echo "| ${g/_/ } | $name | $rich | ${coarse:-(tabular)} |"
        done
    done
} >"$table"

# One figure per game: exploitability against iterations and against seconds, rich and coarse features.
for g in $games; do
    files="" names=""
    for r in "${runs[@]}"; do
        name=${r%%|*}
        if [ -f "$out/curves/${g}_${name}.csv" ]; then
            files="$files $out/curves/${g}_${name}.csv" names="$names $name"
        fi
    done
    for f in rich coarse; do
        fs="" ns=""
        for r in "${runs[@]:2}"; do
            name=${r%%|*}
            fs="$fs $out/curves/${g}_${name}_$f.csv" ns="$ns $name"
        done
        for ext in png svg; do
            gnuplot -e "base='${files# }'; basenames='${names# }'; files='${fs# }'; names='${ns# }'; out='$out/${g}_$f.$ext'; title='${g/_/ } ($f features)'" \
                "$here/exploitability.gp"
        done
    done
done
rm -rf "$out/tmp"
echo "rcfr_experiments: $total trainings in $(($(date +%s) - start)) s; table $table, figures $out/*.png" >&2
cat "$table"
