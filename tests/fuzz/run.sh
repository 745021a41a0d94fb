#!/usr/bin/env bash
# tests/fuzz/run.sh — runs one libFuzzer target (`make fuzz` calls it once per target):
#   run.sh BINARY SEED_DIR WORK_DIR SECONDS TIMEOUT [libFuzzer flags...]
# Copies the seed corpus to WORK_DIR/corpus (the seeds are only read), fuzzes for SECONDS with
# TIMEOUT seconds allowed per input, writes the full output to WORK_DIR/fuzz.log and prints one line:
# executions, rate, corpus size. Exit 1 on a crash, leak, timeout or out-of-memory, with the path of the
# input that did it (kept under WORK_DIR/artifacts/) and how to reproduce it.
set -euo pipefail

if [ $# -lt 5 ]; then
    echo "usage: $0 BINARY SEED_DIR WORK_DIR SECONDS TIMEOUT [libFuzzer flags...]" >&2
    exit 2
fi
bin=$1 seeds=$2 work=$3 seconds=$4 timeout=$5
shift 5
name=$(basename "$bin")

rm -rf "$work/corpus"
mkdir -p "$work/corpus" "$work/artifacts"
cp "$seeds"/* "$work/corpus/"
log=$work/fuzz.log

echo "$name: fuzzing for $seconds s ($(find "$work/corpus" -type f | wc -l) seeds)"
export ASAN_OPTIONS="detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
rc=0
"$bin" -max_total_time="$seconds" -timeout="$timeout" -detect_leaks=1 -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/" "$@" "$work/corpus" >"$log" 2>&1 || rc=$?

final_stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -n 1; }
runs=$(final_stat number_of_executed_units)
rate=$(final_stat average_exec_per_sec)
units=$(find "$work/corpus" -type f | wc -l)

if [ "$rc" -eq 0 ]; then
    echo "$name: ok, ${runs:-?} executions in $seconds s, ${rate:-?} exec/s, corpus $units inputs (log $log)"
    exit 0
fi

kind=crash
grep -q 'ERROR: LeakSanitizer' "$log" && kind=leak
grep -q 'ERROR: libFuzzer: timeout' "$log" && kind=timeout
grep -q 'ERROR: libFuzzer: out-of-memory' "$log" && kind=out-of-memory
input=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
echo "$name: FAILED ($kind, exit status $rc) after ${runs:-?} executions, ${rate:-?} exec/s" >&2
grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error:|fuzz_[a-z]+: )' "$log" | head -n 5 | sed 's/^/    /' >&2 || true
if [ -n "$input" ]; then
    echo "$name: input kept at $input" >&2
    echo "$name: reproduce with: $bin $input" >&2
fi
echo "$name: full output in $log" >&2
exit 1
