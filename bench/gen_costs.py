#!/usr/bin/env python3
"""Writes a deterministic synthetic cost CSV of N rows (the header excluded) for benchmarks."""
import random
import sys

def main() -> None:
    path, rows = sys.argv[1], int(sys.argv[2])
    accounts = int(sys.argv[3]) if len(sys.argv) > 3 else 200_000
    rng = random.Random(20261001)
    categories = ["compute", "api", "storage", "payout"]
    start = 1_790_812_800_000  # 2026-10-01T00:00:00Z
    span = 31 * 86_400_000
    with open(path, "w", newline="") as out:
        out.write("timestamp,account_id,category,cost,currency,request_id\n")
        chunk = []
        for i in range(rows):
            ms = start + rng.randrange(span)
            seconds, millis = divmod(ms, 1000)
            day, second_of_day = divmod(seconds - start // 1000, 86_400)
            stamp = "2026-10-%02dT%02d:%02d:%02d.%03dZ" % (
                day + 1, second_of_day // 3600, second_of_day // 60 % 60, second_of_day % 60, millis)
            cost = "%d.%06d" % (rng.randrange(3), rng.randrange(1_000_000))
            chunk.append("%s,acct-%07d,%s,%s,USD,req-%010d\n" % (
                stamp, rng.randrange(accounts), categories[i % 4], cost, i))
            if len(chunk) == 10_000:
                out.write("".join(chunk))
                chunk.clear()
        out.write("".join(chunk))

if __name__ == "__main__":
    main()
