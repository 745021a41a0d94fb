#!/usr/bin/env bash
# scripts/equilibria.sh — the certified equilibria of the small boards as policy files that policy-bot
# and `ismcts --policy-dir` play (docs/solved.md "Playing the certified strategies"): the boards of at most 6
# cells in abrupt, abrupt-noisy and abrupt-flash solved on the spot by the sequence-form double oracle in
# rational arithmetic (seconds each), and every certificate of docs/certificates whose two bounds are equal
# (the value); each certificate is checked in full (no cap on the histories walked) before it is written as
# OUT/RXC-VARIANT.pol.
# usage: scripts/equilibria.sh BIN_DIR OUT; `make equilibria` runs it (about 40 s, and about 6 minutes more
# for classical 4x3, whose check walks a billion histories; each file is written once).
set -euo pipefail
bin=${1:?bin directory} out=${2:?output directory}
mkdir -p "$out"
for v in abrupt abrupt-noisy abrupt-flash; do
    for b in 2x2 2x3 3x2; do
        cert="$out/$b-$v.value"
        if [ ! -s "$cert" ]; then
            "$bin/arena" solve --variant "$v" --board "$b" --method sequence-oracle --solver clp --exact \
                --time-limit 600 --certificate "$cert.tmp" >/dev/null
            mv "$cert.tmp" "$cert"
        fi
    done
done
for cert in "$out"/*.value docs/certificates/*.value; do
    lower=$(sed -n 's/^lower //p' "$cert")
    upper=$(sed -n 's/^upper //p' "$cert")
    [ "$lower" = "$upper" ] || continue # an interval, not the value: no equilibrium to play
    pol="$out/$(basename "$cert" .value).pol"
    [ -s "$pol" ] && [ "$pol" -nt "$cert" ] && continue
    "$bin/arena" classify --check --max-histories 0 --policy "$pol" "$cert" | tail -n 1
done
ls "$out"/*.pol
