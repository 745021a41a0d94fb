#!/usr/bin/env bash
# tests/run.sh — runs every test program in a directory, TEST_JOBS at a time (default 2: the machine's two cores,
# most of a test's time being spent waiting on bots, servers and clocks), the longest first; prints each suite's
# result with its time as it ends and ends with one line "N passed, N failed". Exits non-zero when any test
# failed, a program crashed or a program ran past its time limit (TEST_TIMEOUT seconds, default 600; it is then
# killed, with its process group, and reported by name as timed out). TEST_JOBS=1 runs them one after another.
# A suite that fails is run once more on its own, after the others (TEST_RETRY=0: not): it counts as failed only
# when it fails again, and one that passes the second time is named as flaky at the end, with the end of its
# first run's log, so that a test which a busy machine can fail is seen and fixed rather than hidden. Before the
# last line, every suite that failed is named again with the end of its log.
# usage: tests/run.sh TEST_DIR BIN_DIR [NAME...]   (BIN_DIR holds the programs under test, e.g. bin/arena;
# NAMEs, e.g. test_match, run only those)
set -uo pipefail

dir=${1:?test directory}
export ARENA_BIN_DIR=${2:?bin directory}
export ARENA_TEST_AGENTS="$dir/agents"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

limit=${TEST_TIMEOUT:-600}
retry=${TEST_RETRY:-1}
jobs=${TEST_JOBS:-2}
case "$jobs" in '' | *[!0-9]* | 0) echo "run.sh: TEST_JOBS '$jobs': expected a count of 1 or more" >&2; exit 2 ;; esac
case "$retry" in 0 | 1) ;; *) echo "run.sh: TEST_RETRY '$retry': expected 0 or 1" >&2; exit 2 ;; esac
shift 2
only=" $* "

# The longest suites first (measured on two cores), so that the last to end is a short one.
first="test_league test_match test_serve test_siege test_browser test_docs test_classify test_ladder_siege
       test_seqform test_hostile test_reports test_limits test_ladder_accounts test_distributed test_trainer"
first=$(echo $first) # one space between names
tests=()
for name in $first; do
    [ -x "$dir/$name" ] && tests+=("$dir/$name")
done
for t in "$dir"/test_*; do
    [[ " $first " == *" $(basename "$t") "* ]] || tests+=("$t")
done

# One suite: its result into $work/NAME.res ("passed failed") and what to print into $work/NAME.out.
run_one() {
    local t=$1 name
    name=$(basename "$t")
    local log="$work/$name.log" start=$SECONDS status
    # timeout runs the test in a process group of its own and signals the whole group at the limit.
    timeout --kill-after=10 "$limit" "$t" >"$log" 2>&1
    status=$?
    local took=$((SECONDS - start))
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
        echo "$name: TIMED OUT after ${limit}s (TEST_TIMEOUT)" >>"$log"
    fi
    local ran ok bad
    ran=$(sed -n 's/^\[==========\] Running \([0-9]*\) test.*/\1/p' "$log" | head -1)
    ok=$(grep -c '^\[       OK \]' "$log")
    ran=${ran:-0}
    bad=$((ran - ok))
    if [ "$status" -ne 0 ] && [ "$bad" -eq 0 ]; then
        bad=1 # crashed or failed outside a test (sanitizer report, setup error)
    fi
    if [ "$bad" -ne 0 ]; then
        { printf '%-16s %3d passed, %d FAILED (exit %d) %4ds\n' "$name" "$ok" "$bad" "$status" "$took"
          sed 's/^/    /' "$log"; } >"$work/$name.out"
    else
        printf '%-16s %3d passed %4ds\n' "$name" "$ok" "$took" >"$work/$name.out"
    fi
    echo "$ok $bad" >"$work/$name.res.tmp" && mv "$work/$name.res.tmp" "$work/$name.res"
}

passed=0
failed=0
failed_suites=()
# Prints and counts the suites that ended since the last call; a failed one is noted (its log kept as
# NAME.first) to be run again.
flush() {
    local r name ok bad
    for r in "$work"/*.res; do
        [ -e "$r" ] || continue
        name=$(basename "$r" .res)
        read -r ok bad <"$r"
        cat "$work/$name.out"
        passed=$((passed + ok))
        failed=$((failed + bad))
        if [ "$bad" -ne 0 ]; then
            failed_suites+=("$name $ok $bad")
            cp "$work/$name.log" "$work/$name.first"
        fi
        rm -f "$r"
    done
}

for t in "${tests[@]}"; do
    [ -x "$t" ] || continue
    name=$(basename "$t")
    [ $# -eq 0 ] || [[ $only == *" $name "* ]] || continue
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
        wait -n
        flush
    done
    run_one "$t" &
done
wait
flush

# The failed suites once more, one at a time: the second run's counts replace the first's.
flaky=()
still=()
for entry in "${failed_suites[@]}"; do
    read -r name ok bad <<<"$entry"
    if [ "$retry" -eq 0 ]; then
        still+=("$name")
        continue
    fi
    echo "$name: failed; running it again on its own"
    passed=$((passed - ok))
    failed=$((failed - bad))
    run_one "$dir/$name"
    read -r ok bad <"$work/$name.res"
    rm -f "$work/$name.res"
    cat "$work/$name.out"
    passed=$((passed + ok))
    failed=$((failed + bad))
    if [ "$bad" -eq 0 ]; then flaky+=("$name"); else still+=("$name"); fi
done
for name in "${flaky[@]}"; do
    echo "FLAKY: $name failed, then passed on its own; the end of its first run:"
    tail -n 25 "$work/$name.first" | sed 's/^/    /'
done
for name in "${still[@]}"; do
    echo "FAILED: $name; the end of its log:"
    tail -n 25 "$work/$name.log" | sed 's/^/    /'
done

echo "$passed passed, $failed failed${flaky:+ (flaky: ${flaky[*]})}"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
