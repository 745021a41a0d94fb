#!/usr/bin/env bash
# scripts/league.sh — what `make league` runs: a league from a config (default configs/quick.ini) into the default
# database, then a short summary on stdout — the league's summary line (forfeits by agent included), a
# leaderboard per variant (pooled over its boards) — and the full report (every rating table, win matrix and
# figure: arena report) under results/NAME/, whose path it prints last.
# usage: scripts/league.sh BIN_DIR [CONFIG]
set -euo pipefail
bin=${1:-bin} config=${2:-configs/quick.ini}
db=results/arena.db
name=$(sed -n 's/^[[:space:]]*name[[:space:]]*=[[:space:]]*\([^[:space:];]*\).*/\1/p' "$config" | head -1)
# an unfinished league whose agents changed since (a policy made after it started) is replaced by a new one, and
# the league says so; every other unfinished league is completed
"$bin/arena" league "$config" --db "$db" --progress 500 --new-if-changed
for v in hex classical abrupt classical-noisy classical-flash abrupt-noisy abrupt-flash; do
    # a variant the league did not play has no games: nothing to show
    if table=$("$bin/arena" ratings --db "$db" --league "$name" --variant "$v" --scope pooled 2>/dev/null); then
        echo
        echo "$table" | sed -n '1p;4,$p' | grep -v '^one first-move advantage'
    fi
done
echo
"$bin/arena" report --db "$db" --league "$name" --out "results/$name" >/dev/null
echo "every rating table and win matrix: results/$name/report.html (or arena ratings / arena matrix --league $name)"
