#!/usr/bin/env bash
# scripts/rl_report.sh — the tabular RL report (docs/bots.md): Q-learning and SARSA by self-play on 3x3,
# 4x4 and 5x5 classical and abrupt with learning curves (CSV and a gnuplot figure per variant) and final
# win rates against random and the bridge builder; then on 3x2 and 2x3 the exact exploitability of the
# learned policy next to the CFR+ policy of `make policies`. Writes OUT/table.md; `make rl-report` runs it.
# usage: scripts/rl_report.sh BIN_DIR OUT [EPISODES_3x3 [EPISODES_LARGER]]
set -euo pipefail
bin=${1:?bin directory} out=${2:?output directory}
small=${3:-300000} large=${4:-1000000}
here=$(cd "$(dirname "$0")" && pwd)
command -v gnuplot >/dev/null || { echo "rl_report: gnuplot not found (make deps installs gnuplot-nox)" >&2; exit 1; }
mkdir -p "$out"
table="$out/table.md"
{
    echo "| variant | board | algo | keys | episodes | seconds | states | wins vs random | wins vs bridge |"
    echo "|---|---|---|---|---:|---:|---:|---:|---:|"
} >"$table"
num() { sed -n "s/.*\"$1\":\\([^,}]*\\).*/\\1/p"; }
for v in classical abrupt; do
    files="" names=""
    for b in 3x3 4x4 5x5; do
        for a in qlearning sarsa; do
            eps=$small keys=perfect
            [ "$b" = 3x3 ] || { eps=$large; keys=view; }
            name="${a}_${v}_${b}"
            echo "rl_report: $name ($eps episodes, $keys keys)" >&2
            json=$("$bin/rl-train" --variant "$v" --board "$b" --algo "$a" --episodes "$eps" --keys "$keys" \
                   --memory-mb 1024 --eval-every $((eps / 20)) --eval-games 400 --curve "$out/$name.csv" \
                   --checkpoint "$out/$name.ckpt" --fresh --quiet --json --out "$out/$name.pol")
            rm -f "$out/$name.ckpt" "$out/$name.pol" # large, and the report needs only the figures
            printf '| %s | %s | %s | %s | %s | %.1f | %s | %.1f%% | %.1f%% |\n' "$v" "$b" "$a" "$keys" "$eps" \
                "$(num seconds <<<"$json")" "$(num states <<<"$json")" \
                "$(awk -v x="$(num win_random <<<"$json")" 'BEGIN { print 100 * x }')" \
                "$(awk -v x="$(num win_bridge <<<"$json")" 'BEGIN { print 100 * x }')" >>"$table"
            files="$files $out/$name.csv" names="$names ${a}-${b}"
        done
    done
    for ext in png svg; do
        gnuplot -e "files='${files# }'; names='${names# }'; out='$out/learning-$v.$ext'; title='Self-play $v: greedy win rate'" \
            "$here/learning.gp"
    done
done

{
    echo
    echo "| variant | board | Q-learning exploitability | CFR+ exploitability (make policies) |"
    echo "|---|---|---:|---:|"
} >>"$table"
for v in classical abrupt; do
    for b in 3x2 2x3; do
        name="qlearning_${v}_${b}"
        "$bin/rl-train" --variant "$v" --board "$b" --algo qlearning --episodes "$small" --eval-every 0 \
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
