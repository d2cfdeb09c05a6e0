#!/usr/bin/env bash
# Runs every fuzz target for FUZZ_SECONDS (default 180) from its committed seed corpus, one
# after the other. New inputs go to a scratch copy of the corpus under .build/fuzz/, so the
# committed seeds never change by themselves. A crash stops with the input saved in
# .build/fuzz/crashes/ (make it a regression test before fixing it) and a non-zero exit.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${FUZZ_SECONDS:-180}"
Fuzz/build.sh
export SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0
mkdir -p .build/fuzz/crashes
status=0
for source in Fuzz/Targets/*.swift; do
    target=$(basename "$source" .swift)
    scratch=.build/fuzz/corpus/$target
    mkdir -p "$scratch"
    cp -n Fuzz/corpus/"$target"/* "$scratch"/ 2>/dev/null || true
    log=.build/fuzz/$target.log
    if .build/fuzz/"$target" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix=.build/fuzz/crashes/"$target"- -print_final_stats=1 "$scratch" >"$log" 2>&1; then
        runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
        cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
        echo "$target: ${seconds}s, $runs runs, $cov, no finding"
    else
        status=1
        echo "$target: FOUND A PROBLEM; see $log and .build/fuzz/crashes/"
        grep -E 'ERROR|SUMMARY|Fatal error|Precondition' "$log" | head -5 || true
    fi
done
exit $status
