#!/usr/bin/env bash
# scripts/league.sh — what `make league` runs: a league from a config (default configs/quick.ini) into
# the default database, then its ratings and win matrices on stdout, and its report (report.html with every
# figure, arena report) under results/NAME/.
# usage: scripts/league.sh BIN_DIR [CONFIG]
set -euo pipefail
bin=${1:-bin} config=${2:-configs/quick.ini}
db=results/arena.db
name=$(sed -n 's/^[[:space:]]*name[[:space:]]*=[[:space:]]*\([^[:space:];]*\).*/\1/p' "$config" | head -1)
"$bin/arena" league "$config" --db "$db"
echo
"$bin/arena" ratings --db "$db" --league "$name"
echo
"$bin/arena" matrix --db "$db" --league "$name"
echo
"$bin/arena" report --db "$db" --league "$name" --out "results/$name"
