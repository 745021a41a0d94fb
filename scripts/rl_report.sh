#!/usr/bin/env bash
# scripts/rl_report.sh — the tabular RL report (docs/bots.md), `make rl-report`. With rl-train's defaults
# (opponent pool self:1,random:4,bridge:1, 180-degree symmetry, count-based step, perfect-recall keys):
# Q-learning and SARSA on classical and abrupt 3x3 for SECONDS of training each (default 300), the greedy
# policy evaluated every 100,000 episodes with 1,000 games against the random player and 1,000 against the
# bridge builder (colours alternate: 500 games as Black, 500 as White); learning curves (one CSV per run and
# a gnuplot figure per variant, win rate against episodes on a log scale) and final win rates per colour.
# Then the same defaults with view keys on 4x4 and 5x5 for EPISODES_LARGER episodes each (default
# 1000000; 0 skips them), and on 3x2 and 2x3 the exact exploitability of the learned Q-learning policy next
# to the CFR+ policy of `make policies`. Writes OUT/table.md. About 25 minutes with the defaults.
# usage: scripts/rl_report.sh BIN_DIR OUT [SECONDS_3x3 [EPISODES_LARGER]]
set -euo pipefail
bin=${1:?bin directory} out=${2:?output directory}
seconds=${3:-300} large=${4:-1000000}
here=$(cd "$(dirname "$0")" && pwd)
command -v gnuplot >/dev/null || { echo "rl_report: gnuplot not found (make deps installs gnuplot-nox)" >&2; exit 1; }
mkdir -p "$out"
table="$out/table.md"
{
    echo "| variant | board | algo | keys | episodes | seconds | states | vs random | as Black | as White | vs bridge | as Black | as White |"
    echo "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
} >"$table"
num() { sed -n "s/.*\"$1\":\\([^,}]*\\).*/\\1/p"; }
pct() { awk -v x="$(num "$1" <<<"$2")" 'BEGIN { printf "%.1f%%", 100 * x }'; }

# One run: rl-train with the defaults and these extra options, its row in the table.
run() {
    local v=$1 b=$2 a=$3 keys=$4 name=$5
    shift 5
    local json
    json=$("$bin/rl-train" --variant "$v" --board "$b" --algo "$a" --keys "$keys" --curve "$out/$name.csv" \
           --checkpoint "$out/$name.ckpt" --fresh --quiet --json --out "$out/$name.pol" "$@")
    rm -f "$out/$name.ckpt" "$out/$name.pol" # large, and the report needs only the figures
    printf '| %s | %s | %s | %s | %s | %.1f | %s | %s | %s | %s | %s | %s | %s |\n' "$v" "$b" "$a" "$keys" \
        "$(num episodes <<<"$json")" "$(num seconds <<<"$json")" "$(num states <<<"$json")" \
        "$(pct win_random "$json")" "$(pct random_black "$json")" "$(pct random_white "$json")" \
        "$(pct win_bridge "$json")" "$(pct bridge_black "$json")" "$(pct bridge_white "$json")" >>"$table"
}

for v in classical abrupt; do
    files="" names=""
    for a in qlearning sarsa; do
        name="${a}_${v}_3x3"
        echo "rl_report: $name ($seconds s)" >&2
        run "$v" 3x3 "$a" perfect "$name" --seconds "$seconds" --eval-every 100000 --eval-games 1000 \
            --memory-mb 1024
        files="$files $out/$name.csv" names="$names $a"
    done
    for ext in png svg; do
        gnuplot -e "files='${files# }'; names='${names# }'; out='$out/learning-$v.$ext'; logx=1" \
            -e "title='$v 3x3, rl-train defaults: greedy win rate (1,000 games per point and opponent)'" \
            "$here/learning.gp"
    done
done

if [ "$large" -gt 0 ]; then
    for v in classical abrupt; do
        for b in 4x4 5x5; do
            for a in qlearning sarsa; do
                echo "rl_report: ${a}_${v}_$b ($large episodes, view keys)" >&2
                run "$v" "$b" "$a" view "${a}_${v}_$b" --episodes "$large" --eval-every $((large / 20)) \
                    --eval-games 400 --memory-mb 1024
            done
        done
    done
fi

{
    echo
    echo "| variant | board | Q-learning exploitability | CFR+ exploitability (make policies) |"
    echo "|---|---|---:|---:|"
} >>"$table"
for v in classical abrupt; do
    for b in 3x2 2x3; do
        name="qlearning_${v}_${b}"
        "$bin/rl-train" --variant "$v" --board "$b" --algo qlearning --episodes 1000000 --eval-every 0 \
            --eval-games 2 --checkpoint "$out/$name.ckpt" --fresh --quiet --out "$out/$name.pol" >/dev/null
        rm -f "$out/$name.ckpt"
        q=$("$bin/arena" exploit --quiet --json "$out/$name.pol" | num exploitability)
        cfr=results/policies/cfr_${v}_${b}.pol
        c=n/a
        [ -f "$cfr" ] && c=$(printf '%.4g' "$("$bin/arena" exploit --quiet --json "$cfr" | num exploitability)")
        printf '| %s | %s | %.4g | %s |\n' "$v" "$b" "$q" "$c" >>"$table"
    done
done
cat "$table"
echo "rl_report: figures and table in $out" >&2
