#!/usr/bin/env bash
# scripts/league-demo.sh — what `make league` runs until leagues exist: random-vs-random games in every
# variant on the engine, printing Black's win rate and the engine's speed.
# usage: scripts/league-demo.sh BIN_DIR
set -euo pipefail
bin=${1:-bin}
printf '%-16s %-6s %8s %10s %14s\n' variant board games "Black %" "attempts/s"
for variant in hex classical abrupt classical-noisy classical-flash abrupt-noisy abrupt-flash; do
    for board in 3x3 5x5; do
        "$bin/arena" random --variant "$variant" --board "$board" --games 20000 --seed 1 --json |
            sed -E 's/.*"games":([0-9]+),"black_wins":([0-9]+),.*"attempts_per_second":([0-9]+).*/\1 \2 \3/' |
            awk -v v="$variant" -v b="$board" '{ printf "%-16s %-6s %8d %9.2f%% %14d\n", v, b, $1, 100 * $2 / $1, $3 }'
    done
done
