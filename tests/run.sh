#!/usr/bin/env bash
# tests/run.sh — runs every test program in a directory, prints each suite's result with its time and
# ends with one line "N passed, N failed". Exits non-zero when any test failed, a program crashed or a
# program ran past its time limit (TEST_TIMEOUT seconds, default 600; it is then killed, with its process
# group, and reported by name as timed out).
# usage: tests/run.sh TEST_DIR BIN_DIR [NAME...]   (BIN_DIR holds the programs under test, e.g. bin/arena;
# NAMEs, e.g. test_match, run only those)
set -uo pipefail

dir=${1:?test directory}
export ARENA_BIN_DIR=${2:?bin directory}
export ARENA_TEST_AGENTS="$dir/agents"
passed=0
failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

limit=${TEST_TIMEOUT:-600}
shift 2
only=" $* "

for t in "$dir"/test_*; do
    [ -x "$t" ] || continue
    name=$(basename "$t")
    [ $# -eq 0 ] || [[ $only == *" $name "* ]] || continue
    start=$SECONDS
    # timeout runs the test in a process group of its own and signals the whole group at the limit.
    timeout --kill-after=10 "$limit" "$t" >"$log" 2>&1
    status=$?
    took=$((SECONDS - start))
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
        echo "$name: TIMED OUT after ${limit}s (TEST_TIMEOUT)" >>"$log"
    fi
    ran=$(sed -n 's/^\[==========\] Running \([0-9]*\) test.*/\1/p' "$log" | head -1)
    ok=$(grep -c '^\[       OK \]' "$log")
    ran=${ran:-0}
    bad=$((ran - ok))
    if [ "$status" -ne 0 ] && [ "$bad" -eq 0 ]; then
        bad=1 # crashed or failed outside a test (sanitizer report, setup error)
    fi
    passed=$((passed + ok))
    failed=$((failed + bad))
    if [ "$bad" -ne 0 ]; then
        printf '%-16s %3d passed, %d FAILED (exit %d) %4ds\n' "$name" "$ok" "$bad" "$status" "$took"
        sed 's/^/    /' "$log"
    else
        printf '%-16s %3d passed %4ds\n' "$name" "$ok" "$took"
    fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
