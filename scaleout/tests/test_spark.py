#!/usr/bin/env python3
"""The Spark driver in local mode (two executor threads, loopback only, UI off) gives the bytes
of `refund-cost report`, with the App Store JSON-lines files larger than 256 KB decoded in pieces
by tasks of their own, the ledger cut in groups of at most 60 accounts, the cost files larger
than 64 KB read in pieces by partials of their own that route each row to its account's group,
a task for each group attributing its rows, and the request ids settled in two parts,
also when a task fails once and Spark runs it again.

usage: test_spark.py BINARY   (run with the Python that has pyspark: scaleout/.venv)
"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import dataset  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def missing():
    """What this machine lacks to run Spark, in words that say how to get it."""
    problems = []
    if shutil.which("java") is None:
        problems.append("Java (apt-get install openjdk-17-jre-headless)")
    try:
        import pyspark  # noqa: F401
    except ImportError:
        problems.append("pyspark for %s (make spark-deps, then scaleout/.venv/bin/python)" % sys.executable)
    return problems


def main():
    lacking = missing()
    if lacking:
        print("test_spark: cannot run Spark here, missing: " + "; ".join(lacking), file=sys.stderr)
        return 1
    binary = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as root:
        data = dataset.make_dataset(binary, root)
        one = os.path.join(root, "one")
        subprocess.run([binary, "report"] + dataset.report_args(data, one), check=True, stdout=subprocess.DEVNULL)
        spark_out = os.path.join(root, "spark")
        environment = dict(os.environ, SPARK_LOCAL_IP="127.0.0.1", PYSPARK_PYTHON=sys.executable)
        # local[2,3]: two task threads, and a task may fail up to three times before the job does.
        result = subprocess.run(
            [sys.executable, os.path.join(HERE, "..", "driver.py"), "--binary", binary, "--work", os.path.join(root, "work"),
             "--master", "local[2,3]", "--fail-once", os.path.join(root, "failed-once"), "--accounts-per-group", "60", "--piece-bytes", "65536",
             "--app-store-piece-bytes", "262144", "--"]
            + dataset.report_args(data, spark_out),
            env=environment, capture_output=True, text=True)
        if result.returncode != 0:
            print(result.stdout + result.stderr, file=sys.stderr)
            print("test_spark: the driver failed", file=sys.stderr)
            return 1
        problems = []
        if not os.path.exists(os.path.join(root, "failed-once")):
            problems.append("the injected task failure did not happen")
        if not os.path.exists(os.path.join(root, "failed-once.decode")):
            problems.append("the injected failure of a decode task did not happen")
        if "App Store files in 1 decode tasks" in result.stderr or "App Store files in" not in result.stderr:
            problems.append("the App Store files were not decoded in several tasks: %s" % result.stderr)
        # Every JSON-lines App Store file over 256 KB decoded in pieces of at most about 256 KB.
        with open(os.path.join(root, "work", "app-store-files.txt"), encoding="utf-8") as handle:
            listed = [line.rstrip("\n").split("\t", 1) for line in handle if line.strip()]
        large_app_store = [int(size) for size, path in listed if int(size) > 262144 and path.endswith(".jsonl")]
        app_store_pieces = sum(-(-size // 262144) for size in large_app_store)
        said = "(%d of the files split in %d pieces)" % (len(large_app_store), app_store_pieces)
        if not large_app_store or app_store_pieces < 3 or said not in result.stderr:
            problems.append("the App Store files over 256 KB were not decoded in %d pieces: %s"
                            % (app_store_pieces, result.stderr))
        if "computed again for request ids" not in result.stderr or "(0 computed again" in result.stderr:
            problems.append("no partial was computed again, but the dataset repeats request ids across files")
        # The accounts holding a purchase, at most 60 a group: three groups at least.
        cut = sorted(name for name in os.listdir(os.path.join(root, "work")) if name.startswith("ledger.snapshot.group-"))
        groups = len(cut)
        if groups < 3 or any(not name.endswith("-of-%d" % groups) for name in cut):
            problems.append("the snapshot was not cut in groups of at most 60 accounts: %s" % cut)
        elif "accounts in %d groups" % groups not in result.stderr:
            problems.append("the driver did not say it cut the accounts in %d groups: %s" % (groups, result.stderr))
        # Each routing partial sent its rows to the groups' tasks: one group partial a group.
        parts = os.listdir(os.path.join(root, "work", "parts"))
        group_partials = sorted(name for name in parts if name.startswith("group-") and name.endswith(".partial"))
        if group_partials != ["group-%05d.partial" % group for group in range(groups)]:
            problems.append("the rows were not attributed by one partial a group of accounts: %s" % group_partials)
        if "partial --route" not in result.stderr or "partial --group" not in result.stderr:
            problems.append("the driver did not say it routed the rows: %s" % result.stderr)
        # Every file over 64 KB in pieces of at most about 64 KB: at least one file in three pieces.
        costs = os.path.join(data, "costs")
        large = [name for name in os.listdir(costs) if os.path.getsize(os.path.join(costs, name)) > 65536]
        pieces = sum(-(-os.path.getsize(os.path.join(costs, name)) // 65536) for name in large)
        if not large or pieces < 3 or "%d of the files split in %d pieces" % (len(large), pieces) not in result.stderr:
            problems.append("the cost files over 64 KB (%s) were not read in %d pieces: %s" % (large, pieces, result.stderr))
        if "request ids settled in 2 parts" not in result.stderr:
            problems.append("the request ids were not settled in two parts on the executors: %s" % result.stderr)
        problems += dataset.compare(os.path.join(one, dataset.MONTH), os.path.join(spark_out, dataset.MONTH))
    for problem in problems:
        print("test_spark: " + problem, file=sys.stderr)
    print("test_spark: %s" % ("FAILED" if problems else "Spark local mode gives the report's bytes, with a task retried"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
