#!/usr/bin/env python3
"""make bench: refund-cost report beside DuckDB baselines on the same generated data.

Generates (outside git, in bench/data/) a dataset, then measures, several runs each:

- libcsv alone counting fields (1 process, and 2 processes in parallel: the ceiling);
- `refund-cost report --no-verify`: wall time, peak RSS, the App Store phase (signed records
  per second) and the cost-row phase (rows/s, MB/s);
- DuckDB on 2 threads: decoding the App Store files (bench/duckdb_decode.sql) and the
  join-and-sum of the cost rows against the exported access timeline
  (bench/duckdb_baseline.sql), and the ratio of refund-cost's time to the two together;
- signature verification: the same report verifying every JWS, its cost per signature beside
  `openssl speed ecdsap256`, and a second run that reads the record of verified files;
- gzip: the same data gzipped, its cost-row rate in compressed and uncompressed MB/s;
- respond against the stub of Apple's API, beside the report, and with nothing new;
- fetch transactions of 10,000 customers from the stub at Apple's 50 calls a second;
- publish of the report folder into SQLite and into a PostgreSQL server started for it;

and checks that refund-cost and DuckDB give the same cost in every class to the micro-unit.
With --scale, it runs `report --no-verify` on several sizes and prints wall time, CPU time and
memory per account. Results go to bench/results/ (git-ignored).
"""
import argparse
import csv
import datetime
import decimal
import glob
import gzip
import json
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import time

from publish_bench import publish_bench

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(ROOT, ".build", "release", "refund-cost")
DATA = os.path.join(ROOT, "bench", "data")
CLASSES = ["paid", "family_shared", "billing_grace", "premature", "after_refund", "after_family_exit", "after_expiry",
           "unentitled", "unlinked"]


def timed(command, env=None, stdin=None, allowed=(0,)):
    """Runs a command under /usr/bin/time; returns (seconds, peak RSS in MB, stdout)."""
    usage = timed_usage(command, env, stdin, allowed)
    return usage["seconds"], usage["peak_mb"], usage["stdout"]


def timed_usage(command, env=None, stdin=None, allowed=(0,)):
    """Runs a command under /usr/bin/time; returns its wall seconds, peak RSS in MB, CPU seconds
    (user and system), the GB it read from disk (what the page cache did not hold) and stdout."""
    started = time.perf_counter()
    result = subprocess.run(["/usr/bin/time", "-f", "%M %U %S %I"] + command, capture_output=True, text=True, env=env,
                            input=stdin)
    seconds = time.perf_counter() - started
    if result.returncode not in allowed:
        sys.exit(f"failed: {' '.join(command)}\n{result.stdout}\n{result.stderr}")
    peak_kb, user, system, blocks = result.stderr.strip().splitlines()[-1].split()
    return {"seconds": seconds, "peak_mb": int(peak_kb) / 1024, "cpu_seconds": float(user) + float(system),
            "read_gb": int(blocks) * 512 / 1e9, "stdout": result.stdout}


# Refund requests still open at the data's end, so `respond` has work to do.
OPEN_REQUESTS = 50


def generate(accounts, rows_per_account, months):
    data = os.path.join(DATA, f"bench-{accounts}-{rows_per_account}-{months}-open{OPEN_REQUESTS}")
    if not os.path.isdir(os.path.join(data, "costs")):
        print(f"generating {data} ...", flush=True)
        subprocess.run([TOOL, "generate", "--out", data, "--accounts", str(accounts), "--seed", "7", "--months", str(months),
                        "--cost-rows-per-account", str(rows_per_account), "--no-credit-use",
                        "--open-requests", str(OPEN_REQUESTS), "--quiet"],
                       check=True, stdout=subprocess.DEVNULL)
    return data


def start_stub(lifetime):
    """The test stub of Apple's API on 127.0.0.1, answering every consumption PUT with 202, and
    the bench's key: (process, port, key path, log path)."""
    key = os.path.join(DATA, "AuthKey_BENCH.p8")
    shutil.copyfile(os.path.join(ROOT, "Tests", "Fixtures", "api", "test-key.p8"), key)
    os.chmod(key, 0o600)
    script = os.path.join(DATA, "stub-script.json")
    with open(script, "w") as handle:
        json.dump({"routes": [{"method": "PUT", "prefix": "/inApps/v2/transactions/consumption/",
                               "responses": [{"status": 202}]}]}, handle)
    log = os.path.join(DATA, "stub-requests.jsonl")
    if os.path.exists(log):
        os.remove(log)
    stub = subprocess.Popen([sys.executable, os.path.join(ROOT, "Tests", "stub", "appstore_stub.py"), "--script", script,
                             "--log", log, "--lifetime", str(lifetime)], stdout=subprocess.PIPE, text=True)
    return stub, int(stub.stdout.readline().split()[-1]), key, log


def respond_bench(data, month, report_seconds, runs):
    """`respond` against the test stub of Apple's API on 127.0.0.1: a run that answers every open
    request (as of the data's end), beside the report's time, and a run with nothing new."""
    stub, port, key, log = start_stub(3600)
    try:
        end = (datetime.date.fromisoformat(month + "-01") + datetime.timedelta(days=32)).replace(day=1)
        common = [TOOL, "respond", "--data", data, "--key", key, "--key-id", "BENCH12345", "--issuer-id", "bench",
                  "--bundle-id", "com.example.app", "--api-url", f"http://127.0.0.1:{port}", "--no-verify",
                  "--verified-files", "none", "--threads", "2", "--quiet"]
        answering, peaks = [], []
        for _ in range(runs):
            journal = os.path.join(DATA, "respond-journal.jsonl")
            for path in (journal, journal + ".lock"):
                if os.path.exists(path):
                    os.remove(path)
            shutil.rmtree(journal + ".state", ignore_errors=True)
            # Exit 1 by design: the data's older requests are past their 12 hours (journaled missed).
            elapsed, peak, _ = timed(common + ["--journal", journal, "--as-of", f"{end.isoformat()}T00:00:00Z"], allowed=(0, 1))
            answering.append(elapsed)
            peaks.append(peak)
        sent = sum(1 for _ in open(log)) // runs
        journal_lines = open(journal).read()
        answered = journal_lines.count('"state":"sent"')
        missed = journal_lines.count('"state":"missed"')
        # As of the real clock: every request of the data is past its 12 hours (journaled missed,
        # exit 1 by design), then nothing is new.
        idle = os.path.join(DATA, "respond-idle.jsonl")
        for path in (idle, idle + ".lock"):
            if os.path.exists(path):
                os.remove(path)
        shutil.rmtree(idle + ".state", ignore_errors=True)
        subprocess.run(common + ["--journal", idle], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        quiet = []
        for _ in range(runs):
            elapsed, _, _ = timed(common + ["--journal", idle])
            quiet.append(elapsed)
    finally:
        stub.terminate()
    ratio = statistics.median(answering) / statistics.median(report_seconds)
    return [line(f"refund-cost respond, {answered} sent, {missed} missed", answering, peaks,
                 f"{ratio:.2f}x the report's time (target at most 1x); {sent} requests reached the stub"),
            line("refund-cost respond, nothing new since the last run", quiet, None, "(target under 2 s)")]


def duckdb_python():
    """DuckDB from PyPI in a venv beside the data: never part of the product."""
    venv = os.path.join(DATA, "venv")
    python = os.path.join(venv, "bin", "python")
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        subprocess.run([python, "-m", "pip", "install", "--quiet", "duckdb"], check=True)
    version = subprocess.run([python, "-c", "import duckdb; print(duckdb.__version__)"], capture_output=True, text=True)
    return python, version.stdout.strip()


DUCK_SCRIPT = ("import duckdb, json, sys\n"
               "con = duckdb.connect(config={'threads': 2})\n"
               "con.execute('SET enable_progress_bar = false')\n"
               "statements = [s for s in sys.stdin.read().split(';') if s.strip()]\n"
               "for s in statements[:-1]: con.execute(s)\n"
               "print(json.dumps([[str(v) for v in row] for row in con.execute(statements[-1]).fetchall()]))\n")


def duck(python, sql_file, names, runs):
    sql = open(os.path.join(ROOT, "bench", sql_file)).read()
    for key, value in names.items():
        sql = sql.replace("{" + key + "}", str(value))
    seconds, peaks, result = [], [], None
    for _ in range(runs):
        elapsed, peak, out = timed([python, "-c", DUCK_SCRIPT], stdin=sql)
        seconds.append(elapsed)
        peaks.append(peak)
        result = json.loads(out)
    return seconds, peaks, result


def line(label, seconds, peaks=None, extra=""):
    median = statistics.median(seconds)
    spread = f"(min {min(seconds):.2f}, max {max(seconds):.2f})" if len(seconds) > 1 else ""
    memory = f"  peak RSS {max(peaks):7.1f} MB" if peaks else ""
    return f"{label:<44} {median:7.2f} s {spread:<22}{extra}{memory}"


def report(data, month, out, extra, runs):
    seconds, peaks = [], []
    for _ in range(runs):
        elapsed, peak, _ = timed([TOOL, "report", "--data", data, "--month", month, "--out", out, "--quiet",
                                  "--threads", "2"] + extra)
        seconds.append(elapsed)
        peaks.append(peak)
    return seconds, peaks, json.load(open(os.path.join(out, month, "run.json")))


def window_ms(month):
    first = datetime.date.fromisoformat(month + "-01")
    after = (first.replace(day=28) + datetime.timedelta(days=4)).replace(day=1)
    epoch = datetime.date(1970, 1, 1)
    return first, after, (first - epoch).days * 86_400_000, (after - epoch).days * 86_400_000


def libcsv_ceiling(cost_files, cost_mb):
    counter = os.path.join(DATA, "libcsv_count")
    subprocess.run(["cc", "-O2", "-o", counter, os.path.join(ROOT, "bench", "libcsv_count.c"), "-lcsv"], check=True)
    started = time.perf_counter()
    for path in cost_files:
        subprocess.run([counter, path], capture_output=True, check=True)
    one = time.perf_counter() - started
    # Two processes at once, each half of the files: what two cores can parse at most.
    started = time.perf_counter()
    halves = [cost_files[0::2], cost_files[1::2]]
    processes = [subprocess.Popen(["sh", "-c", " ; ".join(f"{counter} '{p}' >/dev/null" for p in half)]) for half in halves if half]
    for process in processes:
        process.wait()
    two = time.perf_counter() - started
    return [f"{'libcsv alone, counting fields, 1 process':<44} {one:7.2f} s  {cost_mb / one:7.1f} MB/s",
            f"{'libcsv alone, 2 processes':<44} {two:7.2f} s  {cost_mb / two:7.1f} MB/s"]


def main_bench(options):
    data = generate(options.accounts, options.rows_per_account, options.months)
    cost_files = sorted(glob.glob(os.path.join(data, "costs", "*.csv")))
    cost_mb = sum(os.path.getsize(path) for path in cost_files) / 1e6
    app_mb = sum(os.path.getsize(p) for p in glob.glob(os.path.join(data, "notifications", "*")) +
                 glob.glob(os.path.join(data, "transactions", "*"))) / 1e6
    python, duckdb_version = duckdb_python()
    first, after, start_ms, end_ms = window_ms(options.month)
    out = os.path.join(DATA, "reports")
    trust = ["--trust-root", os.path.join(data, "test-root.der")]
    lines = [f"refund-cost bench, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%dT%H:%M:%SZ}, {os.cpu_count()} cores",
             f"data: {data}: {options.accounts:,} accounts, {len(cost_files)} cost files, {cost_mb:.1f} MB of cost CSV, "
             f"{app_mb:.1f} MB of App Store JSON", ""]
    lines += libcsv_ceiling(cost_files, cost_mb)

    seconds, peaks, run = report(data, options.month, out, ["--no-verify", "--verified-files", "none"], options.runs)
    rows = run["cost_rows"]["read"]
    records = run["notifications"]["lines"] + run["transactions"]["history_copies"]
    timings = run["timings"]
    cost_seconds = timings["cost_rows_seconds"]
    app_seconds = timings["app_store_and_ledger_seconds"]
    lines.append(line("refund-cost report --no-verify, 2 threads", seconds, peaks,
                      f"{rows / statistics.median(seconds) / 1e6:5.2f} M rows/s end to end"))
    lines.append(f"  App Store data and ledger {app_seconds:.2f} s: {records:,} signed records, "
                 f"{records / app_seconds:,.0f} records/s, {app_mb / app_seconds:.0f} MB/s")
    lines.append(f"  cost rows {cost_seconds:.2f} s: {rows:,} rows, {rows / cost_seconds / 1e6:.2f} M rows/s, "
                 f"{cost_mb / cost_seconds:.0f} MB/s")
    lines.append(f"  peak memory {max(peaks):.0f} MB = {max(peaks) * 1e6 / options.accounts / 1e3:.1f} KB per account")
    with open(os.path.join(out, options.month, "totals.csv")) as handle:
        totals = next(csv.DictReader(handle))

    access = os.path.join(DATA, "access.csv")
    export_seconds, _, _ = timed([TOOL, "export-access", "--data", data, "--as-of", after.isoformat(), "--out", access,
                                  "--quiet", "--no-verify", "--verified-files", "none"])
    decode_seconds, decode_peaks, decoded = duck(python, "duckdb_decode.sql", {
        "notifications": os.path.join(data, "notifications", "*.jsonl"),
        "transactions": os.path.join(data, "transactions", "*.jsonl")}, options.runs)
    join_seconds, join_peaks, joined = duck(python, "duckdb_baseline.sql", {
        "costs": os.path.join(data, "costs", "*.csv"), "access": access, "fx": os.path.join(data, "fx.csv"),
        "start_ms": start_ms, "end_ms": end_ms}, options.runs)
    lines.append(line(f"DuckDB {duckdb_version}, 2 threads: decode App Store JSON", decode_seconds, decode_peaks,
                      f"{int(decoded[0][0]) / statistics.median(decode_seconds):,.0f} records/s"))
    lines.append(line("DuckDB: join-and-sum the cost rows (ASOF)", join_seconds, join_peaks,
                      f"{cost_mb / statistics.median(join_seconds):.0f} MB/s"))
    lines.append(f"  (plus {export_seconds:.2f} s for refund-cost export-access, which hands DuckDB the ledger; not counted)")
    both = statistics.median(decode_seconds) + statistics.median(join_seconds)
    lines.append(f"refund-cost end to end vs DuckDB's two parts together ({both:.2f} s): "
                 f"{both / statistics.median(seconds):.2f}x")

    lines += respond_bench(data, options.month, seconds, options.runs)
    lines += fetch_bench([10_000])
    lines += publish_bench(TOOL, os.path.join(out, options.month), statistics.median(seconds), DATA, timed, line)
    allocation_lines, allocation_same = allocation_bench(options)
    lines += allocation_lines

    # Signatures: the same run verifying every JWS, then once more reading the record of files verified.
    record = os.path.join(DATA, "verified-files.tsv")
    if os.path.exists(record):
        os.remove(record)
    verify_seconds, verify_peaks, verified = report(data, options.month, out, trust + ["--verified-files", "none"], 1)
    signed = verified["signatures"]["verified"]
    cost = statistics.median(verify_seconds) - statistics.median(seconds)
    timed([TOOL, "report", "--data", data, "--month", options.month, "--out", out, "--quiet", "--threads", "2",
           "--verified-files", record] + trust)
    again_seconds, again_peaks, _ = report(data, options.month, out, trust + ["--verified-files", record], 1)
    openssl = subprocess.run(["openssl", "speed", "-seconds", "2", "ecdsap256"], capture_output=True, text=True).stdout
    openssl_rate = float(openssl.strip().splitlines()[-1].split()[-1])
    lines.append(line("refund-cost report, verifying every signature", verify_seconds, verify_peaks,
                      f"{signed:,} signatures, {signed / cost:,.0f} verified/s on 2 cores"))
    lines.append(f"  openssl speed ecdsap256: {openssl_rate:,.0f} verify/s on 1 core ({2 * openssl_rate:,.0f} on 2); "
                 f"refund-cost reaches {signed / cost / (2 * openssl_rate) * 100:.0f}% of it with chains, dates and JSON")
    lines.append(line("  again, with the record of verified files", again_seconds, again_peaks))

    # gzip twins of every input.
    zipped = data + "-gz"
    if not os.path.isdir(zipped):
        shutil.copytree(data, zipped)
        for path in glob.glob(os.path.join(zipped, "costs", "*.csv")) + glob.glob(os.path.join(zipped, "notifications", "*.jsonl")) + \
                glob.glob(os.path.join(zipped, "transactions", "*.jsonl")):
            with open(path, "rb") as plain, gzip.open(path + ".gz", "wb", compresslevel=6) as packed:
                shutil.copyfileobj(plain, packed)
            os.remove(path)
    gz_mb = sum(os.path.getsize(p) for p in glob.glob(os.path.join(zipped, "costs", "*.gz"))) / 1e6
    gz_seconds, gz_peaks, gz_run = report(zipped, options.month, out, ["--no-verify", "--verified-files", "none"], 1)
    gz_cost = gz_run["timings"]["cost_rows_seconds"]
    lines.append(line("refund-cost report --no-verify, gzipped inputs", gz_seconds, gz_peaks,
                      f"cost rows {gz_cost:.2f} s: {gz_mb / gz_cost:.0f} MB/s compressed, {cost_mb / gz_cost:.0f} MB/s uncompressed"))

    # Agreement to the micro-unit, class by class.
    theirs = {name: decimal.Decimal(value) for name, _, value in joined}
    agree = True
    lines.append("")
    for name in CLASSES:
        ours = decimal.Decimal(totals["cost_" + name])
        other = theirs.get(name, decimal.Decimal(0)).quantize(decimal.Decimal("0.000001"), rounding=decimal.ROUND_HALF_EVEN)
        agree = agree and ours == other
        lines.append(f"  {name:<18} refund-cost {ours:>18}  DuckDB {other:>18}  {'same' if ours == other else 'DIFFERENT'}")
    lines.append("class totals agree to the micro-unit" if agree else "CLASS TOTALS DIFFER")
    return lines, agree and allocation_same


def main_scale(options):
    """The same report at several sizes: wall and CPU time and peak memory per account, each
    against the first size's (1.00 is linear). CPU time shows the work apart from waiting for
    the disk, which a set larger than the page cache makes every run do."""
    sizes = [int(size) for size in options.scale.split(",")]
    lines = [f"refund-cost bench --scale, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%dT%H:%M:%SZ}, "
             f"{os.cpu_count()} cores, {options.rows_per_account} cost rows per account, {options.months} months, "
             f"median of {options.runs} runs", "",
             f"{'accounts':>10} {'cost rows':>12} {'input GB':>9} {'time s':>8} {'s/1k acc':>9} {'CPU s':>8} "
             f"{'CPU s/1k':>9} {'read GB':>8} {'peak MB':>8} {'KB/acc':>7}  per account against the first size: "
             f"time, CPU, memory"]
    out = os.path.join(DATA, "reports-scale")
    first = None
    for accounts in sizes:
        data = generate(accounts, options.rows_per_account, options.months)
        input_gb = sum(os.path.getsize(os.path.join(folder, name)) for folder, _, names in os.walk(data)
                       for name in names) / 1e9
        runs = [timed_usage([TOOL, "report", "--data", data, "--month", options.month, "--out", out, "--quiet",
                             "--threads", "2", "--no-verify", "--verified-files", "none"]) for _ in range(options.runs)]
        run = json.load(open(os.path.join(out, options.month, "run.json")))
        seconds = statistics.median(r["seconds"] for r in runs)
        cpu = statistics.median(r["cpu_seconds"] for r in runs)
        read_gb = statistics.median(r["read_gb"] for r in runs)
        peak = max(r["peak_mb"] for r in runs)
        per_account = (seconds / accounts, cpu / accounts, peak / accounts)
        first = first or per_account
        lines.append(f"{accounts:>10,} {run['cost_rows']['read']:>12,} {input_gb:>9.2f} {seconds:>8.2f} "
                     f"{seconds / accounts * 1000:>9.3f} {cpu:>8.2f} {cpu / accounts * 1000:>9.3f} {read_gb:>8.1f} "
                     f"{peak:>8.0f} {peak * 1024 / accounts:>7.2f}  "
                     + ", ".join(f"x{now / then:.2f}" for now, then in zip(per_account, first)))
        print(lines[-1], flush=True)
    return lines, True


def fetch_bench(customers_list):
    """`fetch transactions` of many customers from the stub, which enforces a rate of 50 calls a
    second as Apple does: the tool's own CPU per call, and memory as the customers grow."""
    key = os.path.join(DATA, "AuthKey_BENCH.p8")
    shutil.copyfile(os.path.join(ROOT, "Tests", "Fixtures", "api", "test-key.p8"), key)
    os.chmod(key, 0o600)
    page = json.dumps({"signedTransactions": [], "hasMore": False, "revision": "r1"})
    script = os.path.join(DATA, "stub-fetch.json")
    with open(script, "w") as handle:
        json.dump({"routes": [{"method": "GET", "prefix": "/inApps/v2/history/", "responses": [{"status": 200, "body": page}]}]},
                  handle)
    lines = []
    for customers in customers_list:
        data = os.path.join(DATA, f"fetch-{customers}")
        shutil.rmtree(data, ignore_errors=True)
        os.makedirs(os.path.join(data, "costs"))
        with open(os.path.join(data, "costs", "none.csv"), "w") as handle:
            handle.write("timestamp,account_id,category,cost\n")
        with open(os.path.join(data, "accounts.csv"), "w") as handle:
            handle.write("account_id,original_transaction_id\n")
            for n in range(customers):
                handle.write(f"a{n},{5_000_000_000_000_000 + n}\n")
        log = os.path.join(DATA, "stub-fetch.log")
        if os.path.exists(log):
            os.remove(log)
        stub = subprocess.Popen([sys.executable, os.path.join(ROOT, "Tests", "stub", "appstore_stub.py"), "--script", script,
                                 "--log", log, "--lifetime", "3600", "--rate", "50"], stdout=subprocess.PIPE, text=True)
        try:
            port = int(stub.stdout.readline().split()[-1])
            started = time.perf_counter()
            result = subprocess.run(["/usr/bin/time", "-f", "%U %S %M", TOOL, "fetch", "transactions", "--data", data,
                                     "--accounts", os.path.join(data, "accounts.csv"), "--key", key, "--key-id", "BENCH12345",
                                     "--issuer-id", "bench", "--bundle-id", "com.example.app",
                                     "--api-url", f"http://127.0.0.1:{port}", "--quiet"], capture_output=True, text=True)
            seconds = time.perf_counter() - started
        finally:
            stub.terminate()
        user, system, peak = result.stderr.strip().splitlines()[-1].split()
        calls = sum(1 for _ in open(log))
        cpu = float(user) + float(system)
        lines.append(f"refund-cost fetch transactions, {customers:,} customers: {seconds:.1f} s, {calls:,} calls "
                     f"({calls / seconds:.1f}/s against the stub's 50/s), CPU {cpu / calls * 1000:.2f} ms a call, "
                     f"peak RSS {int(peak) / 1024:.1f} MB")
        print(lines[-1], flush=True)
    return lines


def main_fetch(options):
    sizes = [int(size) for size in options.fetch_customers.split(",")]
    return [f"refund-cost bench --fetch, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%dT%H:%M:%SZ}, "
            f"{os.cpu_count()} cores", ""] + fetch_bench(sizes)


def allocation_bench(options):
    """A FOCUS bill spread over the bench set's usage rows beside the same rows with their shares in them."""
    data = os.path.join(DATA, f"bench-{options.accounts}-{options.rows_per_account}-{options.months}-focus")
    if not os.path.isdir(os.path.join(data, "costs")):
        print(f"generating {data} ...", flush=True)
        subprocess.run([TOOL, "generate", "--out", data, "--accounts", str(options.accounts), "--seed", "7",
                        "--months", str(options.months), "--cost-rows-per-account", str(options.rows_per_account),
                        "--no-credit-use", "--cost-form", "focus", "--quiet"], check=True, stdout=subprocess.DEVNULL)
    # The same data with the allocation's per-account rows as costs/: every other input linked, not copied.
    twin = data + "-allocated"
    if not os.path.isdir(twin):
        os.makedirs(twin)
        for name in os.listdir(data):
            if name not in ("costs", "allocation.csv", "allocated"):
                os.symlink(os.path.join(data, name), os.path.join(twin, name))
        os.symlink(os.path.join(data, "allocated"), os.path.join(twin, "costs"))
    bill_rows = sum(1 for _ in open(os.path.join(data, "costs", "focus-bill.csv"))) - 1
    usage_mb = sum(os.path.getsize(p) for p in glob.glob(os.path.join(data, "costs", "2*.csv"))) / 1e6
    flags = ["--no-verify", "--verified-files", "none"]
    pooled_out, twin_out = os.path.join(DATA, "reports-focus"), os.path.join(DATA, "reports-allocated")
    # Alternated, so both see the same machine.
    pooled, plain = [], []
    for _ in range(options.runs):
        pooled.append(report(data, options.month, pooled_out, flags, 1))
        plain.append(report(twin, options.month, twin_out, flags, 1))
    pooled_cost = statistics.median(r[2]["timings"]["cost_rows_seconds"] for r in pooled)
    plain_cost = statistics.median(r[2]["timings"]["cost_rows_seconds"] for r in plain)
    rows = pooled[0][2]["cost_rows"]["read"]
    same = all(open(os.path.join(pooled_out, options.month, name), "rb").read() ==
               open(os.path.join(twin_out, options.month, name), "rb").read()
               for name in ("summary.csv", "totals.csv", "cost_by_day.csv", "refunds.csv", "leaks.csv", "trend.csv"))
    allocation = pooled[0][2]["allocation"]
    return [
        "",
        f"allocation: a day-granular FOCUS bill of {bill_rows:,} pool rows over {rows:,} usage rows ({usage_mb:.0f} MB)",
        line("  refund-cost report, bill + usage", [r[0][0] for r in pooled], [r[1][0] for r in pooled],
             f"cost rows {pooled_cost:.2f} s (read once, pooled rows kept aside)"),
        line("  refund-cost report, the same rows with their shares", [r[0][0] for r in plain], [r[1][0] for r in plain],
             f"cost rows {plain_cost:.2f} s"),
        f"  allocation costs {(pooled_cost / plain_cost - 1) * 100:+.0f}% on the cost rows "
        f"({(statistics.median(r[0][0] for r in pooled) / statistics.median(r[0][0] for r in plain) - 1) * 100:+.0f}% end to end); "
        f"bill {allocation['read']} read = {allocation['allocated']} allocated + {allocation['unallocated']} unallocated; "
        + ("reports identical" if same else "REPORTS DIFFER"),
    ], same


def main_allocation(options):
    lines, same = allocation_bench(options)
    header = [f"refund-cost bench --allocation-only, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%dT%H:%M:%SZ}, "
              f"{os.cpu_count()} cores, {options.accounts:,} accounts"]
    return header + lines, same


def held_back(accounts, rows_per_account, months, month, hours):
    """A working copy of the bench set as `generate --hold-after` writes it: without what arrived
    in the last `hours` before the month's end; then `generate --release-after --hold-after`
    appends that slice to it, as servers append. Returns the copy, the slice's bytes by file
    (to append again before each run) and the month's end.

    The copy is hard links to a held-back set generated once, but for the files the slice
    grows (the month's notifications and cost rows, the transaction histories), copied first so
    the release never writes through a link."""
    end = (datetime.date.fromisoformat(month + "-01") + datetime.timedelta(days=32)).replace(day=1)
    end_time = datetime.datetime(end.year, end.month, end.day, tzinfo=datetime.timezone.utc)
    cut = (end_time - datetime.timedelta(hours=hours)).strftime("%Y-%m-%dT%H:%M:%SZ")
    common = ["--accounts", str(accounts), "--seed", "7", "--months", str(months), "--cost-rows-per-account",
              str(rows_per_account), "--no-credit-use", "--open-requests", str(OPEN_REQUESTS), "--quiet"]
    pristine = os.path.join(DATA, f"bench-{accounts}-{rows_per_account}-{months}-open{OPEN_REQUESTS}-held-{cut}")
    if not os.path.isdir(os.path.join(pristine, "costs")):
        print(f"generating {pristine} ...", flush=True)
        subprocess.run([TOOL, "generate", "--out", pristine, "--hold-after", cut] + common, check=True,
                       stdout=subprocess.DEVNULL)

    def sizes(root):
        return {os.path.relpath(os.path.join(folder, name), root): os.path.getsize(os.path.join(folder, name))
                for folder, _, names in os.walk(root) for name in names}

    before = sizes(pristine)
    work = pristine + "-live"
    if os.path.exists(work):
        shutil.rmtree(work)
    subprocess.run(["cp", "-al", pristine, work], check=True)
    grown = [f"notifications/{month}.jsonl", f"costs/{month}.csv", "transactions/history.jsonl"]
    for name in grown:
        path = os.path.join(work, name)
        shutil.copyfile(path, path + ".private")
        os.replace(path + ".private", path)
    subprocess.run([TOOL, "generate", "--out", work, "--release-after", cut, "--hold-after",
                    end_time.strftime("%Y-%m-%dT%H:%M:%SZ")] + common, check=True, stdout=subprocess.DEVNULL)
    after = sizes(work)
    if sizes(pristine) != before or any(after[name] != before[name] for name in after if name not in grown):
        sys.exit(f"the release grew a file other than {grown}: the held-back set in {pristine} must be made again")
    held = {}
    for name in grown:
        path = os.path.join(work, name)
        with open(path, "rb") as handle:
            handle.seek(before[name])
            held[path] = handle.read()
        with open(path, "r+b") as handle:
            handle.truncate(before[name])
    return work, held, end


def incremental_bench(accounts, month, runs, hours, verify):
    """respond at the pace of what arrives: the state built from every file (a first run, or a
    rebuild), then `hours` of notifications and cost rows appended and answered, then nothing
    new, then a cost file rewritten (read again alone), then a day of arrivals in two-hour slices
    with a run with nothing new after each; beside the report on the same data. With `verify`,
    every signature is checked (the generated set's own test root), as a production run does."""
    data = generate(accounts, 40, 2)
    checks = (["--trust-root", os.path.join(data, "test-root.der")] if verify else ["--no-verify"]) + [
        "--verified-files", "none"]
    report_seconds, report_peaks, _ = report(data, month, os.path.join(DATA, "reports"), checks, 1)
    work, held, end = held_back(accounts, 40, 2, month, hours)
    appended = sum(len(b) for b in held.values())
    held_lines = sum(b.count(b"\n") for b in held.values())
    stub, port, key, log = start_stub(14400)
    journals = os.path.join(DATA, f"respond-{accounts}")
    try:
        common = [TOOL, "respond", "--data", work, "--key", key, "--key-id", "BENCH12345", "--issuer-id", "bench",
                  "--bundle-id", "com.example.app", "--api-url", f"http://127.0.0.1:{port}", "--threads", "2",
                  "--quiet", "--as-of", f"{end.isoformat()}T00:00:00Z"] + checks
        if os.path.exists(journals):
            shutil.rmtree(journals)
        os.makedirs(journals)
        journal = os.path.join(journals, "base", "journal.jsonl")
        first = timed_usage(common + ["--journal", journal], allowed=(0, 1))
        sizes = {path: os.path.getsize(path) for path in held}
        # Each run starts from the state and the journal the first run left: the state is put
        # back, the journal cut back to its length (the same file: a state serves one journal).
        kept_state = os.path.join(journals, "state-after-first")
        subprocess.run(["cp", "-a", journal + ".state", kept_state], check=True)
        journal_length = os.path.getsize(journal)
        incremental, peaks, sent = [], [], 0
        for run in range(runs):
            shutil.rmtree(journal + ".state")
            subprocess.run(["cp", "-a", kept_state, journal + ".state"], check=True)
            with open(journal, "r+b") as handle:
                handle.truncate(journal_length)
            for path, size in sizes.items():
                with open(path, "r+b") as handle:
                    handle.truncate(size)
                    handle.seek(size)
                    handle.write(held[path])
            before = sum(1 for _ in open(log)) if os.path.exists(log) else 0
            usage = timed_usage(common + ["--journal", journal], allowed=(0, 1))
            incremental.append(usage["seconds"])
            peaks.append(usage["peak_mb"])
            sent = sum(1 for _ in open(log)) - before
        quiet = [timed_usage(common + ["--journal", journal])["seconds"] for _ in range(runs)]
        # A cost file rewritten whole (the month before, one row less): read again alone.
        rewritten = os.path.join(work, "costs", previous_month(month) + ".csv")
        original = rewritten + ".original"
        os.rename(rewritten, original)
        with open(original, "rb") as source, open(rewritten, "wb") as target:
            rows = source.read().split(b"\n")
            target.write(b"\n".join(rows[:len(rows) // 2] + rows[len(rows) // 2 + 1:]))
        again = timed_usage(common + ["--journal", journal], allowed=(0, 1))
        os.replace(original, rewritten)
        timed_usage(common + ["--journal", journal], allowed=(0, 1))
        day = arrivals_of_a_day(accounts, month, common, work, journals)
    finally:
        stub.terminate()
    return {"accounts": accounts, "report": report_seconds[0], "report_peak": report_peaks[0], "rebuild": first["seconds"],
            "rebuild_peak": first["peak_mb"], "incremental": incremental, "incremental_peaks": peaks, "quiet": quiet,
            "appended_mb": appended / 1e6, "appended_lines": held_lines, "sent": sent, "again": again["seconds"],
            "again_peak": again["peak_mb"], "day": day}


def previous_month(month):
    first = datetime.date.fromisoformat(month + "-01")
    return (first - datetime.timedelta(days=1)).strftime("%Y-%m")


def arrivals_of_a_day(accounts, month, common, work, journals):
    """The last 24 hours of the month held back (`generate --hold-after`), then released in
    two-hour slices appended as servers append (`--release-after T --hold-after T+2h`), each slice
    answered by a run, then a run with nothing new timed: what a day of cron costs, and whether
    a run with nothing new stays flat through it."""
    end = (datetime.date.fromisoformat(month + "-01") + datetime.timedelta(days=32)).replace(day=1)
    end_time = datetime.datetime(end.year, end.month, end.day, tzinfo=datetime.timezone.utc)
    start = end_time - datetime.timedelta(hours=24)
    generated = ["--accounts", str(accounts), "--seed", "7", "--months", "2", "--cost-rows-per-account", "40",
                 "--no-credit-use", "--open-requests", str(OPEN_REQUESTS), "--quiet"]

    def stamp(moment):
        return moment.strftime("%Y-%m-%dT%H:%M:%SZ")

    day_work = os.path.join(DATA, f"bench-{accounts}-day")
    if os.path.exists(day_work):
        shutil.rmtree(day_work)
    subprocess.run([TOOL, "generate", "--out", day_work, "--hold-after", stamp(start)] + generated, check=True,
                   stdout=subprocess.DEVNULL)
    journal = os.path.join(journals, "day", "journal.jsonl")
    os.makedirs(os.path.dirname(journal))
    day_common = [day_work if part == work else part for part in common]
    timed_usage(day_common + ["--journal", journal], allowed=(0, 1))
    arrivals, quiet, manifests = [], [], []
    for slice_number in range(12):
        released = start + datetime.timedelta(hours=2 * slice_number)
        subprocess.run([TOOL, "generate", "--out", day_work, "--release-after", stamp(released), "--hold-after",
                        stamp(released + datetime.timedelta(hours=2))] + generated, check=True,
                       stdout=subprocess.DEVNULL)
        arrivals.append(timed_usage(day_common + ["--journal", journal], allowed=(0, 1))["seconds"])
        quiet.append(timed_usage(day_common + ["--journal", journal], allowed=(0, 1))["seconds"])
        manifests.append(os.path.getsize(journal + ".state/manifest"))
    return {"arrivals": arrivals, "quiet": quiet, "manifests": manifests}


def main_respond(options):
    sizes = [int(size) for size in options.respond_sizes.split(",")]
    checks = "every signature verified" if options.respond_verify else "--no-verify"
    lines = [f"refund-cost bench --respond-only, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%dT%H:%M:%SZ}, "
             f"{os.cpu_count()} cores, 2 threads, {checks}; {options.hours} hours of notifications, cost rows and "
             "histories held back by generate --hold-after and appended by --release-after since the last run", ""]
    results = [incremental_bench(size, options.month, options.runs, options.hours, options.respond_verify)
               for size in sizes]
    for result in results:
        accounts = f"{result['accounts']:,} accounts"
        day = result["day"]
        lines += [
            line(f"{accounts}: refund-cost report (the whole month, as 0.13.0's respond read it)", [result["report"]],
                 [result["report_peak"]]),
            line(f"{accounts}: respond, state built from every file (first run, or a rebuild)", [result["rebuild"]],
                 [result["rebuild_peak"]],
                 f"{result['rebuild'] / result['report']:.2f}x the report's time, "
                 f"{result['rebuild_peak'] / result['report_peak']:.2f}x its memory (target at most 1x)"),
            line(f"{accounts}: respond, {result['appended_lines']:,} lines ({result['appended_mb']:.1f} MB) arrived, "
                 f"{result['sent']} sent", result["incremental"], result["incremental_peaks"],
                 "(target at most 2 s and 300 MB at 100,000 accounts, 10 s and 500 MB at 1,000,000)"),
            line(f"{accounts}: respond, nothing new", result["quiet"], None, "(target under 0.1 s)"),
            line(f"{accounts}: respond, the month before rewritten (read again alone)", [result["again"]],
                 [result["again_peak"]], f"{result['again'] / result['rebuild']:.2f}x a rebuild"),
            f"{accounts}: a day of arrivals, 12 runs two hours apart: {statistics.median(day['arrivals']):.2f} s a run "
            f"(max {max(day['arrivals']):.2f}); nothing new after each {min(day['quiet']):.3f} to {max(day['quiet']):.3f} s "
            f"(first {day['quiet'][0]:.3f}, last {day['quiet'][-1]:.3f}; target under 0.1 s at 100,000 accounts, "
            f"0.2 s at 1,000,000); manifest {day['manifests'][0]:,} to {day['manifests'][-1]:,} bytes", ""]
    if len(results) > 1:
        small, large = results[0], results[-1]
        per_mb = [statistics.median(r["incremental"]) / max(r["appended_mb"], 0.001) for r in (small, large)]
        lines.append(f"seconds per MB arrived: {per_mb[0]:.3f} at {small['accounts']:,} accounts, {per_mb[1]:.3f} at "
                     f"{large['accounts']:,}: {per_mb[1] / per_mb[0]:.2f}x (target at most 2x)")
    return lines


def main_publish(options):
    data = generate(options.accounts, options.rows_per_account, options.months)
    out = os.path.join(DATA, "reports")
    seconds, peaks, _ = report(data, options.month, out, ["--no-verify", "--verified-files", "none"], options.runs)
    lines = [f"refund-cost bench --publish-only, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%dT%H:%M:%SZ}, "
             f"{os.cpu_count()} cores, {options.accounts:,} accounts", "",
             line("refund-cost report --no-verify, 2 threads", seconds, peaks)]
    return lines + publish_bench(TOOL, os.path.join(out, options.month), statistics.median(seconds), DATA, timed, line)


def spark_set(options):
    """The bench set, the Python that has pyspark, and the options every step and `report` take
    (signatures verified against the generated set's own test root, as `report` would)."""
    data = generate(options.accounts, options.rows_per_account, options.months)
    python = os.path.join(ROOT, "scaleout", ".venv", "bin", "python")
    if not os.path.exists(python):
        sys.exit("install Spark first: make spark-deps")
    common = ["--data", data, "--month", options.month, "--verified-files", "none", "--trust-root",
              os.path.join(data, "test-root.der")]
    return data, python, common


def main_spark(options):
    """The App Store step of a distributed report on Spark in local mode, on one and on two
    executor threads, beside today's one-process snapshot; and the report equal to `report`'s."""
    data, python, common = spark_set(options)
    work = os.path.join(DATA, "spark")
    os.makedirs(work, exist_ok=True)
    # Today's step 1: one process reads and verifies every App Store file (as one run's step: with its secret).
    os.environ.setdefault("REFUND_COST_STEP_SECRET", secrets.token_hex(32))
    snapshot_seconds, snapshot_peaks = [], []
    for _ in range(options.runs):
        usage = timed_usage([TOOL, "snapshot", "--snapshot", os.path.join(work, "whole.snapshot"), "--threads", "2"] + common)
        snapshot_seconds.append(usage["seconds"])
        snapshot_peaks.append(usage["peak_mb"])
    one_out = os.path.join(DATA, "spark-one")
    subprocess.run([TOOL, "report", "--out", one_out, "--quiet", "--threads", "2"] + common, check=True,
                   stdout=subprocess.DEVNULL)
    environment = dict(os.environ, SPARK_LOCAL_IP="127.0.0.1", PYSPARK_PYTHON=python)
    results = {}
    same = True
    for master in ("local[1]", "local[2]"):
        decode, driver, totals = [], [], []
        for run in range(options.runs):
            out = os.path.join(DATA, "spark-out")
            started = time.perf_counter()
            result = subprocess.run([python, os.path.join(ROOT, "scaleout", "driver.py"), "--binary", TOOL, "--work",
                                     os.path.join(work, "steps"), "--master", master, "--"] + common + ["--out", out],
                                    env=environment, capture_output=True, text=True)
            totals.append(time.perf_counter() - started)
            if result.returncode != 0:
                sys.exit(f"the Spark driver failed on {master}:\n{result.stderr[-3000:]}")
            summary = [row for row in result.stderr.splitlines() if row.startswith("spark: ")][-1]
            decode.append(float(summary.split(" decoded in ")[1].split(" s")[0]))
            driver.append(float(summary.split("driver peak memory ")[1].split(" MB")[0]))
            if run == 0:
                for name in sorted(os.listdir(os.path.join(one_out, options.month))):
                    if name == "run.json":
                        continue
                    mine = open(os.path.join(out, options.month, name), "rb").read()
                    if mine != open(os.path.join(one_out, options.month, name), "rb").read():
                        same = False
                        print(f"{master}: {name} differs from report's")
        results[master] = (decode, driver, totals)
    ratio = statistics.median(results["local[2]"][0]) / statistics.median(results["local[1]"][0])
    driver_share = max(results["local[2]"][1]) / max(snapshot_peaks)
    lines = [f"refund-cost bench --spark-only, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%dT%H:%M:%SZ}, "
             f"{os.cpu_count()} cores, {options.accounts:,} accounts, signatures verified", "",
             line("refund-cost snapshot, one process, 2 threads", snapshot_seconds, snapshot_peaks,
                  "(today's step 1: reads and verifies every App Store file)")]
    for master, (decode, driver, totals) in results.items():
        lines.append(line(f"App Store step (decode) on {master}", decode, None,
                          f"driver peak memory {max(driver):.0f} MB; whole Spark run {statistics.median(totals):.1f} s"))
    lines += ["", f"local[2] / local[1]: {ratio:.2f} (target at most 0.6); driver's peak during the step / one-process "
                  f"snapshot's: {driver_share:.2f} (target at most 0.25); report equal to report's byte for byte: {same}"]
    return lines, same


def main_scaleout(options):
    """A distributed report on Spark in local[2], every refund-cost process's peak memory by
    step (each task's and each driver step's, the JVM and Python apart) against the targets of
    a run cut by account (a task at most 400 MB, a driver step at most 1 GB), beside one
    `report`; the report checked byte for byte."""
    data, python, common = spark_set(options)
    one_out = os.path.join(DATA, "scaleout-one")
    report_usage = timed_usage([TOOL, "report", "--out", one_out, "--quiet", "--threads", "2"] + common)
    out = os.path.join(DATA, "scaleout-out")
    measure = os.path.join(DATA, "scaleout-peaks.json")
    environment = dict(os.environ, SPARK_LOCAL_IP="127.0.0.1", PYSPARK_PYTHON=python)
    started = time.perf_counter()
    grouping = ["--account-groups", str(options.account_groups)] if options.account_groups else []
    grouping += ["--piece-bytes", str(options.piece_bytes)] if options.piece_bytes else []
    result = subprocess.run([python, os.path.join(ROOT, "scaleout", "driver.py"), "--binary", TOOL, "--work",
                             os.path.join(DATA, "scaleout-work"), "--master", "local[2]", "--measure", measure]
                            + grouping + ["--"] + common + ["--out", out], env=environment, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if result.returncode != 0:
        sys.exit(f"the Spark driver failed:\n{result.stderr[-3000:]}")
    with open(measure, encoding="utf-8") as handle:
        measured = json.load(handle)
    same = True
    for name in sorted(os.listdir(os.path.join(one_out, options.month))):
        if name != "run.json" and open(os.path.join(out, options.month, name), "rb").read() != open(
                os.path.join(one_out, options.month, name), "rb").read():
            same = False
            print(f"{name} differs from report's")
    on_driver = {"decode --list", "snapshot", "merge"}
    lines = [f"refund-cost bench --scaleout-only, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%dT%H:%M:%SZ}, "
             f"{os.cpu_count()} cores, {options.accounts:,} accounts, Spark local[2], signatures verified, "
             f"{measured['app_store_groups']} App Store groups, {measured['partial_groups']} partials "
             f"({measured['split_files']} cost files split in {measured['pieces']} pieces), "
             f"{measured['account_groups']} account groups, "
             f"request ids in {measured['request_parts']} parts", "",
             f"refund-cost report, one process, 2 threads: {report_usage['seconds']:.1f} s, peak {report_usage['peak_mb']:.0f} MB",
             f"the Spark run: {seconds:.1f} s", ""]
    within = True
    for step, values in measured["peak_mb"].items():
        target = 1024 if step in on_driver else 400
        within = within and max(values) <= target
        lines.append(f"{step:14} {'driver' if step in on_driver else 'task':6} peak {max(values):7.0f} MB over "
                     f"{len(values)} process{'es' if len(values) > 1 else ''} (target at most {target} MB)")
    lines += ["", f"every process within its target: {within}; report equal to report's byte for byte: {same}"]
    return lines, same


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--accounts", type=int, default=100_000)
    parser.add_argument("--rows-per-account", type=int, default=40)
    parser.add_argument("--months", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--month", default="2026-10")
    parser.add_argument("--scale", default=None, help="comma-separated account counts, e.g. 10000,100000,1000000")
    parser.add_argument("--respond-only", action="store_true", help="only report and respond (no DuckDB)")
    parser.add_argument("--respond-sizes", default="100000,1000000", help="account counts for --respond-only")
    parser.add_argument("--hours", type=int, default=3, help="hours of data arriving between two respond runs")
    parser.add_argument("--respond-verify", action="store_true", help="respond and its report verify every signature")
    parser.add_argument("--publish-only", action="store_true", help="only report and publish (SQLite, PostgreSQL)")
    parser.add_argument("--allocation-only", action="store_true", help="only a FOCUS bill over usage beside the same rows")
    parser.add_argument("--fetch-customers", default=None, help="only fetch, for these numbers of customers (e.g. 1000,10000)")
    parser.add_argument("--spark-only", action="store_true", help="only the App Store step on Spark, local[1] and local[2]")
    parser.add_argument("--account-groups", type=int, default=0,
                        help="account groups of --scaleout-only's partials (default: the driver's, from the accounts)")
    parser.add_argument("--piece-bytes", type=int, default=0,
                        help="--scaleout-only's largest piece of a cost file (default: the driver's, 64 MiB)")
    parser.add_argument("--scaleout-only", action="store_true",
                        help="only a distributed report on Spark local[2], every refund-cost process's peak memory")
    options = parser.parse_args()
    if not os.path.exists(TOOL):
        sys.exit("build first: make build")
    os.makedirs(DATA, exist_ok=True)
    if options.fetch_customers:
        lines, ok = main_fetch(options), True
    elif options.respond_only:
        lines, ok = main_respond(options), True
    elif options.publish_only:
        lines, ok = main_publish(options), True
    elif options.allocation_only:
        lines, ok = main_allocation(options)
    elif options.spark_only:
        lines, ok = main_spark(options)
    elif options.scaleout_only:
        lines, ok = main_scaleout(options)
    else:
        lines, ok = main_scale(options) if options.scale else main_bench(options)
    text = "\n".join(lines)
    print(text)
    os.makedirs(os.path.join(ROOT, "bench", "results"), exist_ok=True)
    path = os.path.join(ROOT, "bench", "results", f"bench-{datetime.datetime.now():%Y%m%dT%H%M%S}.txt")
    with open(path, "w") as handle:
        handle.write(text + "\n")
    print(f"written to {path}")
    if not ok:
        sys.exit(1)


if __name__ == "__main__":
    main()
