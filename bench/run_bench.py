#!/usr/bin/env python3
"""make bench: refund-cost report beside a DuckDB baseline on the same generated data.

Generates (outside git) a dataset of about 10 million cost rows, then runs, several times
each: `refund-cost report` for its last month, and the DuckDB baseline SQL on the same files;
prints wall time (median, min, max), rows/s, MB/s and peak RSS for each, the ratio, libcsv's
raw parse rate on the same files as the ceiling, and checks that both give the same cost by
class to the micro-unit. Results go to bench/results/ (git-ignored).
"""
import argparse
import csv
import datetime
import decimal
import glob
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(ROOT, ".build", "release", "refund-cost")
CLASSES = ["paid", "family_shared", "premature", "after_refund", "after_family_exit", "after_expiry", "unentitled", "unlinked"]


def timed(command, env=None):
    """Runs a command under /usr/bin/time; returns (seconds, peak RSS in MB, stdout)."""
    started = time.perf_counter()
    result = subprocess.run(["/usr/bin/time", "-f", "%M"] + command, capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - started
    if result.returncode != 0:
        sys.exit(f"failed: {' '.join(command)}\n{result.stdout}\n{result.stderr}")
    peak_kb = int(result.stderr.strip().splitlines()[-1])
    return seconds, peak_kb / 1024, result.stdout


def summary(label, seconds, peaks, rows, megabytes):
    median = statistics.median(seconds)
    return (f"{label:<22} median {median:7.2f} s  (min {min(seconds):.2f}, max {max(seconds):.2f})  "
            f"{rows / median / 1e6:6.2f} M rows/s  {megabytes / median:7.1f} MB/s  peak RSS {max(peaks):7.1f} MB")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--accounts", type=int, default=200_000)
    parser.add_argument("--rows-per-account", type=int, default=50)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--month", default="2026-10")
    options = parser.parse_args()

    data = os.path.join(ROOT, "bench", "data", f"bench-{options.accounts}-{options.rows_per_account}")
    if not os.path.isdir(os.path.join(data, "costs")):
        print(f"generating {data} ...", flush=True)
        subprocess.run([TOOL, "generate", "--out", data, "--accounts", str(options.accounts), "--seed", "7",
                        "--cost-rows-per-account", str(options.rows_per_account), "--no-credit-use", "--quiet"],
                       check=True, stdout=subprocess.DEVNULL)
    cost_files = sorted(glob.glob(os.path.join(data, "costs", "*.csv")))
    cost_mb = sum(os.path.getsize(path) for path in cost_files) / 1e6

    # The venv lives beside the data: DuckDB comes from PyPI, never into the product.
    venv = os.path.join(ROOT, "bench", "data", "venv")
    python = os.path.join(venv, "bin", "python")
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        subprocess.run([python, "-m", "pip", "install", "--quiet", "duckdb"], check=True)
    duckdb_version = subprocess.run([python, "-c", "import duckdb; print(duckdb.__version__)"], capture_output=True, text=True).stdout.strip()

    first = datetime.date.fromisoformat(options.month + "-01")
    after = (first.replace(day=28) + datetime.timedelta(days=4)).replace(day=1)
    epoch = datetime.date(1970, 1, 1)
    start_ms = (first - epoch).days * 86_400_000
    end_ms = (after - epoch).days * 86_400_000

    lines = [f"refund-cost bench, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%dT%H:%M:%SZ}, {os.cpu_count()} cores",
             f"data: {data}: {len(cost_files)} cost files, {cost_mb:.1f} MB"]

    # The ceiling: libcsv alone counting fields, on the same files.
    counter = os.path.join(ROOT, "bench", "data", "libcsv_count")
    subprocess.run(["cc", "-O2", "-o", counter, os.path.join(ROOT, "bench", "libcsv_count.c"), "-lcsv"], check=True)
    raw_seconds = 0.0
    raw_rows = 0
    for path in cost_files:
        output = subprocess.run([counter, path], capture_output=True, text=True, check=True).stdout
        raw_rows += int(output.split(":")[1].split("records")[0])
        raw_seconds += float(output.split(",")[2].strip().split(" ")[0])
    lines.append(f"{'libcsv alone, 1 core':<22} {raw_seconds:7.2f} s  {raw_rows / raw_seconds / 1e6:6.2f} M rows/s  {cost_mb / raw_seconds:7.1f} MB/s")

    # refund-cost.
    out = os.path.join(ROOT, "bench", "data", "reports")
    tool_seconds, tool_peaks = [], []
    for _ in range(options.runs):
        seconds, peak, _ = timed([TOOL, "report", "--data", data, "--month", options.month, "--out", out, "--quiet"])
        tool_seconds.append(seconds)
        tool_peaks.append(peak)
    run = json.load(open(os.path.join(out, options.month, "run.json")))
    rows = run["cost_rows"]["read"]
    lines.append(summary("refund-cost report", tool_seconds, tool_peaks, rows, cost_mb))
    lines.append(f"  of which App Store data and ledger {run['timings']['app_store_and_ledger_seconds']} s, "
                 f"cost rows {run['timings']['cost_rows_seconds']} s (last run)")
    with open(os.path.join(out, options.month, "summary.csv")) as handle:
        star = [row for row in csv.DictReader(handle) if row["product_id"] == "*"][0]

    # The DuckDB baseline, on the access timeline the ledger exports.
    access = os.path.join(ROOT, "bench", "data", "access.csv")
    export_seconds, _, _ = timed([TOOL, "export-access", "--data", data, "--as-of", after.isoformat(), "--out", access, "--quiet"])
    sql = open(os.path.join(ROOT, "bench", "duckdb_baseline.sql")).read()
    for key, value in {"costs": os.path.join(data, "costs", "*.csv"), "access": access, "fx": os.path.join(data, "fx.csv"),
                       "start_ms": start_ms, "end_ms": end_ms}.items():
        sql = sql.replace("{" + key + "}", str(value))
    script = ("import duckdb, json, sys\n"
              "con = duckdb.connect(config={'threads': 2})\n"
              "con.execute('SET enable_progress_bar = false')\n"
              "statements = [s for s in sys.stdin.read().split(';') if s.strip()]\n"
              "for s in statements[:-1]: con.execute(s)\n"
              "print(json.dumps([[c, n, str(v)] for c, n, v in con.execute(statements[-1]).fetchall()]))\n")
    duck_seconds, duck_peaks = [], []
    result = None
    for _ in range(options.runs):
        started = time.perf_counter()
        process = subprocess.run(["/usr/bin/time", "-f", "%M", python, "-c", script], input=sql, capture_output=True, text=True)
        duck_seconds.append(time.perf_counter() - started)
        if process.returncode != 0:
            sys.exit(process.stderr)
        duck_peaks.append(int(process.stderr.strip().splitlines()[-1]) / 1024)
        result = json.loads(process.stdout)
    lines.append(summary(f"DuckDB {duckdb_version}, 2 threads", duck_seconds, duck_peaks, rows, cost_mb))
    lines.append(f"  (plus {export_seconds:.2f} s for refund-cost export-access, not counted)")
    ratio = statistics.median(duck_seconds) / statistics.median(tool_seconds)
    lines.append(f"throughput refund-cost / DuckDB: {ratio:.2f}x")
    lines.append(f"refund-cost vs raw libcsv (1 core): {raw_seconds / statistics.median(tool_seconds) * 100:.0f}% of its rate")

    # Agreement to the micro-unit, class by class.
    duck = {name: decimal.Decimal(value) for name, _, value in result}
    agree = True
    for name in CLASSES:
        ours = decimal.Decimal(star["cost_" + name])
        theirs = duck.get(name, decimal.Decimal(0)).quantize(decimal.Decimal("0.000001"), rounding=decimal.ROUND_HALF_EVEN)
        same = ours == theirs
        agree = agree and same
        lines.append(f"  {name:<18} refund-cost {ours:>18}  DuckDB {theirs:>18}  {'same' if same else 'DIFFERENT'}")
    lines.append("class totals agree to the micro-unit" if agree else "CLASS TOTALS DIFFER")

    text = "\n".join(lines)
    print(text)
    os.makedirs(os.path.join(ROOT, "bench", "results"), exist_ok=True)
    path = os.path.join(ROOT, "bench", "results", f"bench-{datetime.datetime.now():%Y%m%dT%H%M%S}.txt")
    with open(path, "w") as handle:
        handle.write(text + "\n")
    print(f"written to {path}")
    if not agree:
        sys.exit(1)


if __name__ == "__main__":
    main()
