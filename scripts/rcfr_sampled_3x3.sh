#!/usr/bin/env bash
# scripts/rcfr_sampled_3x3.sh — the 3x3 section of docs/experiments.md: sampled RCFR and f-RCFR (exp tau 0.1,
# poly p 1.5) from rcfr-train --sampling SAMPLING (external or outcome; rich features, XGBoost), SECONDS of
# training each with BATCH traversals per player per iteration, one run at a time, each policy scored exactly by the information-state walk at the end (rcfr-train's final
# evaluation, off the training clock: about 2-4 minutes per policy on classical, longer on abrupt).
# Writes OUT/VARIANT_ALGO.pol and .json and prints a markdown table.
# usage: scripts/rcfr_sampled_3x3.sh BIN_DIR OUT [SECONDS [BATCH [VARIANTS [SAMPLING [ALGOS]]]]];
# `make rcfr-3x3` runs it (ALGOS: some of rcfr frcfr-exp0.1 frcfr-poly1.5; default all).
set -euo pipefail
bin=${1:?bin directory} out=${2:?output directory}
seconds=${3:-600} batch=${4:-1000} variants=${5:-"classical abrupt"} sampling=${6:-outcome}
algos=${7:-"rcfr frcfr-exp0.1 frcfr-poly1.5"}
mkdir -p "$out"
runs=(
    "rcfr|--algo rcfr"
    "frcfr-exp0.1|--algo frcfr --link exp --tau 0.1"
    "frcfr-poly1.5|--algo frcfr --link poly --p 1.5"
)
echo "| 3x3 | algorithm | sampling | batch | iterations | seconds | states met | exploitability |"
echo "|---|---|---|---:|---:|---:|---:|---:|"
for v in $variants; do
    for r in "${runs[@]}"; do
        name=${r%%|*} args=${r#*|}
        [[ " $algos " == *" $name "* ]] || continue
        # shellcheck disable=SC2086
        nice -n 10 "$bin/rcfr-train" --variant "$v" --board 3x3 $args --sampling "$sampling" --batch "$batch" \
            --seconds "$seconds" --out "$out/${v}_${name}_$sampling.pol" --quiet --json >"$out/${v}_${name}_$sampling.json"
        python3 - "$out/${v}_${name}_$sampling.json" "$v" "$name" "$sampling" "$batch" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
e = j["exploitability"]
print(f"| {sys.argv[2]} | {sys.argv[3]} | {sys.argv[4]} | {sys.argv[5]} | {j['iterations']:,} | {j['seconds']:.0f} | {j['infosets']:,} | "
      + ("-" if e is None else f"{e:.4f}") + " |")
PY
    done
done
