#!/usr/bin/env bash
# scripts/rcfr_sampled_3x3.sh — the 3x3 section of docs/experiments.md: sampled RCFR and f-RCFR (exp tau 0.1,
# poly p 1.5) from rcfr-train --sampling external (rich features, XGBoost), SECONDS of training each, one
# run at a time, each policy scored exactly by the information-state walk at the end (rcfr-train's final
# evaluation, off the training clock: about 2-4 minutes per policy on classical, longer on abrupt).
# Writes OUT/VARIANT_ALGO.pol and .json and prints a markdown table.
# usage: scripts/rcfr_sampled_3x3.sh BIN_DIR OUT [SECONDS [BATCH [VARIANTS]]]; `make rcfr-3x3` runs it.
set -euo pipefail
bin=${1:?bin directory} out=${2:?output directory}
seconds=${3:-600} batch=${4:-10} variants=${5:-"classical abrupt"}
mkdir -p "$out"
runs=(
    "rcfr|--algo rcfr"
    "frcfr-exp0.1|--algo frcfr --link exp --tau 0.1"
    "frcfr-poly1.5|--algo frcfr --link poly --p 1.5"
)
echo "| 3x3 | algorithm | iterations | seconds | states met | exploitability |"
echo "|---|---|---:|---:|---:|---:|"
for v in $variants; do
    for r in "${runs[@]}"; do
        name=${r%%|*} args=${r#*|}
        # shellcheck disable=SC2086
        nice -n 10 "$bin/rcfr-train" --variant "$v" --board 3x3 $args --sampling external --batch "$batch" \
            --seconds "$seconds" --out "$out/${v}_$name.pol" --quiet --json >"$out/${v}_$name.json"
        python3 - "$out/${v}_$name.json" "$v" "$name" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
e = j["exploitability"]
print(f"| {sys.argv[2]} | {sys.argv[3]} | {j['iterations']:,} | {j['seconds']:.0f} | {j['infosets']:,} | "
      + ("-" if e is None else f"{e:.4f}") + " |")
PY
    done
done
