#!/usr/bin/env bash
# scripts/curves_3x3.sh — exploitability against training hours for 3x3 (docs/solver.md): external-sampling
# MCCFR on one variant, trained in segments that resume one checkpoint (so the training clock is one run's),
# a snapshot of the policy after each segment, then every snapshot scored exactly by `arena exploit`
# (the information-state walk, off the training clock). Writes OUT/VARIANT.csv
# (seconds,hours,iterations,exploitability,nashconv,ev_black,walk_seconds), OUT/VARIANT_Ts.pol snapshots
# and OUT/VARIANT.pol (the last). usage: scripts/curves_3x3.sh BIN_DIR OUT VARIANT "T1 T2 ..." [LABEL [ARGS]]
# (seconds, rising; LABEL names the files instead of VARIANT, ARGS are more cfr-train options, e.g.
# "--baseline history"). `make curves-3x3` runs it for classical and abrupt, `make curves-3x3-vr` with
# history baselines (labels classical-vr, abrupt-vr).
set -euo pipefail
bin=${1:?bin directory} out=${2:?output directory} variant=${3:?variant} points=${4:?training seconds}
label=${5:-$variant} extra=${6:-}
mkdir -p "$out"
pol="$out/$label.pol"
rm -f "$pol" "$pol.ckpt"
declare -a iters
for t in $points; do
    # shellcheck disable=SC2086 # ARGS are separate options
    "$bin/cfr-train" --variant "$variant" --board 3x3 --algo mccfr --seconds "$t" --no-eval --quiet \
        --checkpoint-every 600 --json --out "$pol" $extra >"$out/${label}_${t}s.train.json"
    cp "$pol" "$out/${label}_${t}s.pol"
    iters+=("$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["iterations"])' "$out/${label}_${t}s.train.json")")
    echo "$label: ${t}s trained, ${iters[-1]} iterations" >&2
done
echo "seconds,hours,iterations,exploitability,nashconv,ev_black,walk_seconds" >"$out/$label.csv"
i=0
for t in $points; do
    "$bin/arena" exploit "$out/${label}_${t}s.pol" --json --quiet --threads 1 >"$out/${label}_${t}s.exploit.json"
    python3 - "$out/${label}_${t}s.exploit.json" "$t" "${iters[$i]}" >>"$out/$label.csv" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); t = int(sys.argv[2])
print(f"{t},{t/3600:.4f},{sys.argv[3]},{j['exploitability']:.6e},{j['nashconv']:.6e},{j['ev_black']:.6f},{j['seconds']:.1f}")
PY
    echo "$label: ${t}s scored: $(tail -1 "$out/$label.csv")" >&2
    i=$((i + 1))
done
