#!/usr/bin/env bash
# tests/run.sh — runs every test program in a directory, prints each suite's result and ends with one
# line "N passed, N failed". Exits non-zero when any test failed or a program crashed.
# usage: tests/run.sh TEST_DIR BIN_DIR   (BIN_DIR holds the programs under test, e.g. bin/arena)
set -uo pipefail

dir=${1:?test directory}
export ARENA_BIN_DIR=${2:?bin directory}
export ARENA_TEST_AGENTS="$dir/agents"
passed=0
failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

for t in "$dir"/test_*; do
    [ -x "$t" ] || continue
    name=$(basename "$t")
    "$t" >"$log" 2>&1
    status=$?
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
        printf '%-16s %3d passed, %d FAILED (exit %d)\n' "$name" "$ok" "$bad" "$status"
        sed 's/^/    /' "$log"
    else
        printf '%-16s %3d passed\n' "$name" "$ok"
    fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
