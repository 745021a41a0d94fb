#!/usr/bin/env bash
# scripts/equilibria.sh — the certified equilibria of the small boards as policy files that policy-bot
# and `ismcts --policy-dir` play (docs/solved.md "Playing the certified strategies"): the boards of at most 6
# cells in abrupt, abrupt-noisy and abrupt-flash solved on the spot by the sequence-form double oracle in
# rational arithmetic (seconds each), and every certificate of docs/certificates: an equilibrium where its two
# bounds are equal (the value), else two strategies that each guarantee their bound (abrupt 4x3 and
# abrupt-noisy 3x3); each certificate is checked in full (no cap on the histories walked) before it is written as
# OUT/RXC-VARIANT.pol.
# usage: scripts/equilibria.sh BIN_DIR OUT; `make equilibria` runs it (about 40 s, and about 18 minutes more
# the first time for classical and abrupt 4x3, whose checks walk a billion histories each; each file is
# written once, and again when its certificate changes).
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
    pol="$out/$(basename "$cert" .value).pol"
    [ -s "$pol" ] && [ "$pol" -nt "$cert" ] && continue
    "$bin/arena" classify --check --max-histories 0 --policy "$pol" "$cert" | tail -n 1
done
ls "$out"/*.pol
