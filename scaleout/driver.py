#!/usr/bin/env python3
"""Runs `refund-cost report` on Apache Spark and writes the same files, byte for byte.

The rules live in the refund-cost binary; this program only plans and ships work:

  1. on the driver: `refund-cost snapshot` reads and verifies the App Store side once;
  2. on the executors: `refund-cost partial` for each group of whole cost files, against the
     snapshot (the binary and the snapshot are shipped with SparkContext.addFile; the cost
     files are read at the same --data path, so executors must see it: a shared mount);
  3. on the driver: `refund-cost settle`; the partials that claimed a request id another
     partial claimed earlier are computed again on the executors with their seeds;
  4. on the driver: `refund-cost merge` writes OUT/LABEL/.

A task returns its partial's bytes to the driver and writes nothing else, so a task that runs
twice (a retry, a speculative copy) changes nothing.

usage: driver.py --binary PATH --work DIR [--master URL] [--groups N] -- REPORT_ARGS...
       REPORT_ARGS are `refund-cost report`'s: --data DIR --month YYYY-MM --out DIR [options]
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time


def run_local(command):
    """Runs a refund-cost step on the driver; its output goes to our stdout and stderr."""
    result = subprocess.run(command)
    if result.returncode != 0:
        sys.exit("refund-cost %s failed (exit %d)" % (command[1], result.returncode))


def plan_groups(files, groups):
    """Whole files into at most `groups` groups of about equal bytes, largest files first."""
    sized = sorted(((os.path.getsize(path), name) for name, path in files), reverse=True)
    buckets = [[0, []] for _ in range(max(1, min(groups, len(sized))))]
    for size, name in sized:
        bucket = min(buckets, key=lambda b: (b[0], len(b[1])))
        bucket[0] += size
        bucket[1].append(name)
    return [sorted(names) for _, names in buckets if names]


def partial_task(binary_name, snapshot_name, report_args, fail_marker):
    """What an executor runs for each (group id, files, seeds) it is given."""

    def run(items):
        from pyspark import SparkFiles

        binary = SparkFiles.get(binary_name)
        snapshot = SparkFiles.get(snapshot_name)
        os.chmod(binary, 0o755)
        for group_id, names, seeds in items:
            if fail_marker and group_id == 0 and not os.path.exists(fail_marker):
                # A test asks for one failure: the task dies once, Spark runs it again.
                open(fail_marker, "w").close()
                raise RuntimeError("injected failure of the task for group 0")
            with tempfile.TemporaryDirectory() as scratch:
                out = os.path.join(scratch, "part.partial")
                command = [binary, "partial", "--snapshot", snapshot, "--partial", out, "--quiet"]
                for name in names:
                    command += ["--file", name]
                if seeds is not None:
                    seeds_path = os.path.join(scratch, "part.seeds")
                    with open(seeds_path, "wb") as handle:
                        handle.write(seeds)
                    command += ["--seeds", seeds_path]
                result = subprocess.run(command + report_args, capture_output=True)
                if result.returncode != 0:
                    raise RuntimeError("refund-cost partial %s failed: %s" % (names, result.stderr.decode(errors="replace")))
                with open(out, "rb") as handle:
                    yield group_id, handle.read()

    return run


def cost_files(listing):
    with open(listing, encoding="utf-8") as handle:
        return [line.rstrip("\n") for line in handle if line.strip()]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", required=True, help="refund-cost built with a static Swift standard library")
    parser.add_argument("--work", required=True, help="a folder on the driver for the snapshot and the partials")
    parser.add_argument("--master", default=None, help="Spark master (default: spark-submit's, else local[2])")
    parser.add_argument("--groups", type=int, default=0, help="cost file groups (default: twice the parallelism)")
    parser.add_argument("--fail-once", default=None, help=argparse.SUPPRESS)
    parser.add_argument("report_args", nargs=argparse.REMAINDER)
    options = parser.parse_args()
    report_args = [a for a in options.report_args if a != "--"]
    if "--data" not in report_args:
        sys.exit("give refund-cost report's options after --, at least --data DIR --month YYYY-MM --out DIR")
    binary = os.path.abspath(options.binary)
    work = os.path.abspath(options.work)
    parts = os.path.join(work, "parts")
    os.makedirs(parts, exist_ok=True)
    for stale in os.listdir(parts):
        os.remove(os.path.join(parts, stale))
    snapshot = os.path.join(work, "ledger.snapshot")
    listing = os.path.join(work, "cost-files.txt")
    started = time.monotonic()

    run_local([binary, "snapshot", "--snapshot", snapshot, "--cost-files", listing] + report_args)
    data = report_args[report_args.index("--data") + 1]
    files = [(path, path) for path in cost_files(listing)]
    snapshot_seconds = time.monotonic() - started

    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("refund-cost")
    if options.master:
        builder = builder.master(options.master)
    elif not os.environ.get("SPARK_HOME") and "spark.master" not in os.environ.get("PYSPARK_SUBMIT_ARGS", ""):
        builder = builder.master("local[2]")
    spark = builder.config("spark.ui.enabled", "false").getOrCreate()
    context = spark.sparkContext
    context.setLogLevel("ERROR")
    context.addFile(binary)
    context.addFile(snapshot)
    groups = plan_groups(files, options.groups or 2 * context.defaultParallelism)
    task = partial_task(os.path.basename(binary), os.path.basename(snapshot), report_args, options.fail_once)

    def compute(work_items):
        rdd = context.parallelize(work_items, numSlices=max(1, len(work_items)))
        for group_id, content in sorted(rdd.mapPartitions(task).collect()):
            with open(os.path.join(parts, "part-%05d.partial" % group_id), "wb") as handle:
                handle.write(content)

    partial_started = time.monotonic()
    compute([(index, names, None) for index, names in enumerate(groups)])
    # Request ids claimed in two partials: the later claimants are computed again with seeds.
    settle = subprocess.run(
        [binary, "settle", "--snapshot", snapshot, "--partials", parts], capture_output=True, text=True, check=True)
    again = []
    for line in settle.stdout.splitlines():
        partial, seeds = line.split("\t")
        group_id = int(os.path.basename(partial)[len("part-"):-len(".partial")])
        with open(seeds, "rb") as handle:
            again.append((group_id, groups[group_id], handle.read()))
        os.remove(seeds)
    if again:
        compute(again)
    partial_seconds = time.monotonic() - partial_started
    spark.stop()

    run_local([binary, "merge", "--snapshot", snapshot, "--partials", parts] + report_args)
    rows = None
    print(
        "spark: %d cost files in %d groups (%d computed again for request ids), snapshot %.1f MB in %.2f s, partials %.2f s, total %.2f s"
        % (len(files), len(groups), len(again), os.path.getsize(snapshot) / 1e6, snapshot_seconds, partial_seconds,
           time.monotonic() - started),
        file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
