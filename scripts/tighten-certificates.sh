#!/usr/bin/env bash
# scripts/tighten-certificates.sh — continues value certificates that hold an interval (docs/solved.md): for
# each one, the sequence-form double oracle of its board and variant seeded by it (`arena solve
# --seed-certificate`) runs for SECONDS, and each end of the interval is kept from whichever certificate holds
# it better (by the bounds each states): the new one takes the old one's place when it is better at both ends
# (or exact), once it is checked in full (`arena classify --check --max-histories 0`); better at one end only,
# its strategy for that end and the old certificate's for the other are merged into one (`arena solve --method
# merge`) that takes the place once that is checked in full; better at neither, the old one stays (and the new
# one, which its writer checked, is not walked again). Each file that takes a place is checked once. A certificate whose bounds
# are already equal is left alone. One line per certificate says what was done, with the old and new bounds;
# each run's JSON and log stay in WORK_DIR (default results/certificates). MAX_ITERATIONS=N also stops each
# run after N restricted games (a run that does not depend on the machine's speed).
# The -flash certificates are continued with --spread-defaults (docs/solver.md), a first-move certificate (its
# `first CELL` line) in the game after that opening (--first CELL).
# usage: scripts/tighten-certificates.sh BIN_DIR SECONDS [CERT...]   (default: every docs/certificates/*.value)
# `make certificates` runs it (CERT_SECONDS a certificate, default 3600; one certificate after the other).
# Exit status: 0 when every run and check worked (narrower or not), 1 when one failed (its old file is kept),
# 2 on a usage error.
set -uo pipefail
bin=${1:-} seconds=${2:-}
if [ -z "$bin" ] || ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
    echo "usage: scripts/tighten-certificates.sh BIN_DIR SECONDS [CERT...]" >&2
    exit 2
fi
shift 2
[ $# -gt 0 ] || set -- docs/certificates/*.value
work=${WORK_DIR:-results/certificates}
mkdir -p "$work" || exit 1

# The bounds the full check verifies, as "LOWER UPPER" decimals; empty when the check fails.
bounds() {
    "$bin/arena" classify --check --max-histories 0 "$1" 2>/dev/null |
        sed -n -e 's/.*: verified: value in .*(= \[\([-+0-9.]*\), \([-+0-9.]*\)\]).*/\1 \2/p' \
            -e 's/.*: verified: value [-0-9]*\/[0-9]* (= \([-+0-9.]*\)).*/\1 \1/p' | head -n 1
}

# The bounds a certificate states (its lower and upper lines, exact rationals of any length) as "LOWER UPPER"
# decimals to about 16 digits, good for telling which of two intervals is narrower.
stated() {
    awk '
        function dec(q,   s, num, den, ln, ld, kn, kd) {
            s = 1
            if (substr(q, 1, 1) == "-") { s = -1; q = substr(q, 2) }
            if (index(q, "/") == 0) return s * q
            num = substr(q, 1, index(q, "/") - 1); den = substr(q, index(q, "/") + 1)
            ln = length(num); ld = length(den); kn = ln < 17 ? ln : 17; kd = ld < 17 ? ld : 17
            return s * (substr(num, 1, kn) / substr(den, 1, kd)) * 10 ^ ((ln - kn) - (ld - kd))
        }
        $1 == "lower" { lo = $2 } $1 == "upper" { hi = $2 }
        END { if (lo != "" && hi != "") printf "%.17g %.17g %s\n", dec(lo), dec(hi), (lo == hi ? "exact" : "interval") }
    ' "$1"
}

status=0
# A certificate not tightened for a reason that makes the exit status 1.
failed() {
    echo "$1" >&2
    status=1
}

for cert in "$@"; do
    if ! head -n 1 "$cert" 2>/dev/null | grep -q '^darkhex-value 1$'; then
        failed "$cert: not a value certificate (its first line is not 'darkhex-value 1')"
        continue
    fi
    old=$(stated "$cert")
    if [ -z "$old" ]; then
        failed "$cert: no lower and upper lines; left alone"
        continue
    fi
    read -r lo hi kind <<<"$old"
    if [ "$kind" = exact ]; then
        echo "$cert: exact ($lo); left alone"
        continue
    fi
    variant=$(sed -n 's/^variant //p' "$cert" | head -n 1)
    board=$(sed -n 's/^board //p' "$cert" | head -n 1)
    name=$(basename "$cert" .value)
    new="$work/$name.value" json="$work/$name.json" log="$work/$name.err"
    rm -f "$new"
    spread=() extra=() # (--first, --max-iterations)
    [[ "$variant" == *-flash ]] && spread=(--spread-defaults)
    first=$(sed -n 's/^first //p' "$cert" | head -n 1) # a first-move certificate: the game after that opening
    [ -n "$first" ] && extra=(--first "$first")
    [ -n "${MAX_ITERATIONS:-}" ] && extra+=(--max-iterations "$MAX_ITERATIONS")
    # exit 0: the value; 1: stopped by the time limit (or failed: then no certificate is written)
    "$bin/arena" solve --variant "$variant" --board "$board" --method sequence-oracle --solver clp --exact \
        --time-limit "$seconds" --certificate "$new" --certificate-denominator 1000000000 \
        --seed-certificate "$cert" "${spread[@]}" "${extra[@]}" --verbose --format json >"$json" 2>"$log"
    rc=$?
    if [ $rc -gt 1 ] || [ ! -s "$new" ]; then
        failed "$cert: the seeded run failed (exit $rc, see $log); left alone"
        continue
    fi
    read -r nlo nhi nkind <<<"$(stated "$new")" # what it claims; checked in full before it takes a place
    if [ -z "$nlo" ]; then
        failed "$cert: the new certificate states no bounds (kept as $new); left alone"
        continue
    fi
    # Each end is kept from the certificate that holds it better: Black's strategy from the one with the higher
    # lower bound, White's from the one with the lower upper bound.
    read -r blo bhi <<<"$(awk -v a="$lo" -v b="$hi" -v c="$nlo" -v d="$nhi" \
        'BEGIN { print (c > a) ? 1 : 0, (d < b) ? 1 : 0 }')"
    if [ "$nkind" = exact ] || { [ "$blo" = 1 ] && [ "$bhi" = 1 ]; }; then
        if [ -z "$(bounds "$new")" ]; then
            failed "$cert: the new certificate does not verify (kept as $new); left alone"
            continue
        fi
        mv "$new" "$cert"
        echo "$cert: $variant $board [$lo, $hi] -> [$nlo, $nhi]: replaced (the run: $json, $log)"
    elif [ "$blo" = 1 ] || [ "$bhi" = 1 ]; then
        # one end better: the run's strategy for it and the old certificate's for the other, checked as one
        merged="$work/$name.merged.value"
        if [ "$blo" = 1 ]; then black=$new white=$cert; else black=$cert white=$new; fi
        rm -f "$merged"
        if ! "$bin/arena" solve --variant "$variant" --board "$board" --method merge --black-certificate "$black" \
            --white-certificate "$white" --certificate "$merged" >>"$log" 2>&1 || [ -z "$(bounds "$merged")" ]; then
            rm -f "$merged"
            failed "$cert: merging the run's better end failed or does not verify (see $log; the run's certificate kept as $new); left alone"
            continue
        fi
        read -r mlo mhi mkind <<<"$(stated "$merged")"
        mv "$merged" "$cert"
        rm -f "$new"
        echo "$cert: $variant $board [$lo, $hi] -> [$mlo, $mhi]: merged (the run's $([ "$blo" = 1 ] && echo Black ||
            echo White) strategy, reaching [$nlo, $nhi], with the old certificate's other; the run: $json, $log)"
    else
        rm -f "$new"
        echo "$cert: $variant $board [$lo, $hi]: the run reached [$nlo, $nhi], better at neither end; left alone"
    fi
done
exit $status
