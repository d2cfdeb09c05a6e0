#!/usr/bin/env bash
# Measures `refund-cost validate` on a generated cost file (1 million rows by default)
# beside libcsv's raw parse rate on the same file. Results go to bench/results/.
set -euo pipefail
cd "$(dirname "$0")/.."
rows="${ROWS:-1000000}"
mkdir -p bench/data bench/results
data="bench/data/validate-$rows"
if [ ! -f "$data/costs/costs.csv" ]; then
    mkdir -p "$data/costs"
    echo "generating $rows cost rows in $data/costs/costs.csv"
    python3 bench/gen_costs.py "$data/costs/costs.csv" "$rows"
fi
cc -O2 -o bench/data/libcsv_count bench/libcsv_count.c -lcsv
result="bench/results/validate-$rows-$(date -u +%Y%m%dT%H%M%SZ).txt"
{
    echo "file: $data/costs/costs.csv ($(stat -c %s "$data/costs/costs.csv") bytes, $rows rows)"
    bench/data/libcsv_count "$data/costs/costs.csv"
    for run in 1 2 3; do
        /usr/bin/env time -f "refund-cost validate run $run: %e s wall, peak RSS %M KB" \
            .build/release/refund-cost validate --data "$data" --quiet | grep '^read '
    done
} 2>&1 | tee "$result"
echo "written to $result"
