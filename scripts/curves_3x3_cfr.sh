#!/usr/bin/env bash
# scripts/curves_3x3_cfr.sh — exploitability against training hours for full-width CFR+ over the
# information-state walk on 3x3 (docs/solver.md): one cfr-train run that scores its average policy exactly
# every EVERY iterations (off the training clock), the first DELAY iterations left out of the average.
# Writes OUT/VARIANT-cfr+.csv in the columns of scripts/curves_3x3.sh (seconds,hours,iterations,
# exploitability,nashconv,ev_black,walk_seconds; the walk's time is not recorded here), the raw
# `--curve` rows (OUT/VARIANT-cfr+.raw.csv) and the policy OUT/VARIANT-cfr+.pol.
# usage: scripts/curves_3x3_cfr.sh BIN_DIR OUT VARIANT SECONDS EVERY DELAY
set -euo pipefail
bin=${1:?bin directory} out=${2:?output directory} variant=${3:?variant} seconds=${4:?training seconds}
every=${5:?iterations between evaluations} delay=${6:?averaging delay}
mkdir -p "$out"
label="$variant-cfr+"
pol="$out/$label.pol" raw="$out/$label.raw.csv"
rm -f "$pol" "$pol.ckpt" "$raw"
"$bin/cfr-train" --variant "$variant" --board 3x3 --algo cfr+ --delay "$delay" --seconds "$seconds" \
    --eval-every "$every" --curve "$raw" --checkpoint-every 1800 --quiet --json --out "$pol" \
    >"$out/$label.train.json"
awk -F, 'NR == 1 { print "seconds,hours,iterations,exploitability,nashconv,ev_black,walk_seconds"; next }
         { printf "%.0f,%.4f,%d,%s,%s,%s,\n", $2, $2 / 3600, $1, $3, $4, $5 }' "$raw" >"$out/$label.csv"
echo "$label: $(tail -1 "$out/$label.csv")" >&2
