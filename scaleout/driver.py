#!/usr/bin/env python3
"""Runs `refund-cost report` on Apache Spark and writes the same files, byte for byte.

The rules live in the refund-cost binary; this program only plans and ships work:

  0. on the executors: `refund-cost split` for each App Store JSON-lines file larger than
     --app-store-piece-bytes (cut at line feeds), then `refund-cost decode` for each piece of
     such a file and for each group of the other whole App Store files (of about equal bytes):
     the notifications and transactions decoded and verified;
  1. on the driver: `refund-cost snapshot --decoded` keeps the groups' pieces, with the
     accounts, products and rates it reads itself, without reading Apple's data again;
  2. on the executors: `refund-cost split` for each cost file larger than --piece-bytes (it
     finds where each piece starts and the file's checksum), then `refund-cost partial` for each
     piece of such a file and for each group of the other whole cost files, against the
     snapshot (the binary and the snapshot are shipped with SparkContext.addFile; the cost
     files are read at the same --data path, so executors must see it: a shared mount). With
     the accounts cut in groups (as many as hold --accounts-per-group accounts each, or
     --account-groups G), each partial reads its rows once and routes each to its account's
     group (`partial --route`): the rows go through Spark's shuffle, partitioned by the group's
     number, to one task a group, which attributes them against that group's part of the
     snapshot alone (`partial --group K`), after the request ids are settled;
  3. on the executors: `refund-cost settle --part K/N` for each hash partition of the request
     ids (each task reads every partial and keeps its partition's ids alone, so no process holds
     every id); the partials that claimed an id another partial claimed earlier are computed
     again on the executors with their seeds, and settled again;
  4. on the driver: `refund-cost merge` writes OUT/LABEL/.

A task returns its output's bytes to the driver, or to Spark's shuffle, and writes nothing
else, so a task that runs twice (a retry, a speculative copy) changes nothing.

Every file one step hands another carries a MAC under a secret drawn here for the run, handed
to the steps as Spark hands its own secret: in the environment (REFUND_COST_STEP_SECRET, set for
the driver's steps and, through spark.executorEnv, for the executors'; Spark redacts a setting
named like a secret), never on a command line, never in the shared folder.

usage: driver.py --binary PATH --work DIR [--master URL] [--groups N] [--app-store-groups N] [--request-parts N]
                 [--account-groups G | --accounts-per-group N] [--piece-bytes B] [--app-store-piece-bytes B]
                 -- REPORT_ARGS...
       REPORT_ARGS are `refund-cost report`'s: --data DIR --month YYYY-MM --out DIR [options]
"""
import argparse
import os
import resource
import secrets
import shutil
import subprocess
import sys
import tempfile
import time


SECRET_VARIABLE = "REFUND_COST_STEP_SECRET"
# Accounts of a group, by default: a group's task holds their ledger, about 3 to 4 KB each, so it
# stays near 100 MB whatever the number of accounts.
ACCOUNTS_PER_GROUP = 25000
# Bytes of cost rows a partial reads at most, by default, when a file is larger: what a task
# holds for its request ids and claims follows its rows, whatever the file's size.
PIECE_BYTES = 64 << 20
# Bytes of signed App Store JSON a decode task reads at most, by default: a group of whole files,
# or a piece of a larger JSON-lines file.
APP_STORE_GROUP_BYTES = 1 << 30


def run_measured(command, capture=True):
    """Runs a refund-cost step and returns (exit status, stdout, stderr, its own peak memory in MB).

    The peak is the step's process alone (os.wait4's resource use of that child), not the Python
    worker's or the JVM's: what a task or a driver step costs in refund-cost itself."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen(command, stdout=out if capture else None, stderr=err if capture else None)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return process.returncode, out.read(), err.read(), usage.ru_maxrss / 1024


def run_local(command, peaks, step):
    """Runs a refund-cost step on the driver; its output goes to our stdout and stderr, its peak
    memory to peaks[step]."""
    status, _, _, peak = run_measured(command, capture=False)
    peaks.setdefault(step, []).append(peak)
    if status != 0:
        sys.exit("refund-cost %s failed (exit %d)" % (command[1], status))


def plan_groups(files, groups):
    """Whole files into at most `groups` groups of about equal bytes, largest files first."""
    return plan_sized([(os.path.getsize(path), name) for name, path in files], groups)


def plan_sized(files, groups):
    """(size, name) pairs into at most `groups` groups of about equal bytes, largest first."""
    sized = sorted(files, reverse=True)
    buckets = [[0, []] for _ in range(max(1, min(groups, len(sized))))]
    for size, name in sized:
        bucket = min(buckets, key=lambda b: (b[0], len(b[1])))
        bucket[0] += size
        bucket[1].append(name)
    return [sorted(names) for _, names in buckets if names]


def decode_task(binary_name, report_args, fail_marker):
    """What an executor runs for each (group id, App Store files, (split, piece) or None) it is
    given: one thread each, so that Spark's slots are the parallelism."""

    def run(items):
        from pyspark import SparkFiles

        binary = SparkFiles.get(binary_name)
        os.chmod(binary, 0o755)
        threads = [] if "--threads" in report_args else ["--threads", "1"]
        for group_id, names, piece in items:
            if fail_marker and group_id == 0 and not os.path.exists(fail_marker + ".decode"):
                open(fail_marker + ".decode", "w").close()
                raise RuntimeError("injected failure of the decode task for group 0")
            with tempfile.TemporaryDirectory() as scratch:
                out = os.path.join(scratch, "group.decoded")
                command = [binary, "decode", "--decoded", out, "--quiet"] + threads
                if piece is not None:
                    command += ["--split", SparkFiles.get(piece[0]), "--piece", str(piece[1])]
                for name in names:
                    command += ["--file", name]
                status, _, stderr, peak = run_measured(command + report_args)
                if status != 0:
                    raise RuntimeError("refund-cost decode %s failed: %s"
                                       % (names or piece, stderr.decode(errors="replace")))
                with open(out, "rb") as handle:
                    yield group_id, handle.read(), peak

    return run


def split_task(binary_name, report_args):
    """What an executor runs for each (file, pieces) it is given: the split of the file."""

    def run(items):
        from pyspark import SparkFiles

        binary = SparkFiles.get(binary_name)
        os.chmod(binary, 0o755)
        for name, pieces in items:
            with tempfile.TemporaryDirectory() as scratch:
                out = os.path.join(scratch, "file.split")
                command = [binary, "split", "--file", name, "--pieces", str(pieces), "--split", out, "--quiet"]
                status, _, stderr, peak = run_measured(command + report_args)
                if status != 0:
                    raise RuntimeError("refund-cost split %s failed: %s" % (name, stderr.decode(errors="replace")))
                with open(out, "rb") as handle:
                    yield name, handle.read(), peak

    return run


# Bytes of routed rows in one record of Spark's shuffle: a group's rows from a routing partial
# travel in pieces of at most this size.
ROWS_CHUNK_BYTES = 1 << 20


def partial_task(binary_name, snapshot_name, report_args, fail_marker, account_groups=1):
    """What an executor runs for each (id, files, (split, piece) or None, seeds) it is given:
    `refund-cost partial`. Yields ("partial", id, partial, claims, peak) for the driver; with
    account groups, `partial --route`, which reads the rows once and writes each group's beside
    the partial, and also yields ("rows", group, (id, seq, bytes)) for Spark's shuffle to the
    group's task."""

    def run(items):
        from pyspark import SparkFiles

        binary = SparkFiles.get(binary_name)
        snapshot = SparkFiles.get(snapshot_name)
        os.chmod(binary, 0o755)
        routing = ["--route", "--account-groups", str(account_groups)] if account_groups > 1 else []
        for item_id, names, piece, seeds in items:
            if fail_marker and item_id == 0 and not os.path.exists(fail_marker):
                # A test asks for one failure: the task dies once, Spark runs it again.
                open(fail_marker, "w").close()
                raise RuntimeError("injected failure of the task for group 0")
            with tempfile.TemporaryDirectory() as scratch:
                out = os.path.join(scratch, "part.partial")
                command = [binary, "partial", "--snapshot", snapshot, "--partial", out, "--quiet"] + routing
                if piece is not None:
                    command += ["--split", SparkFiles.get(piece[0]), "--piece", str(piece[1])]
                for name in names:
                    command += ["--file", name]
                for index, content in enumerate(seeds or []):
                    seeds_path = os.path.join(scratch, "part-%d.seeds" % index)
                    with open(seeds_path, "wb") as handle:
                        handle.write(content)
                    command += ["--seeds", seeds_path]
                status, _, stderr, peak = run_measured(command + report_args)
                if status != 0:
                    raise RuntimeError("refund-cost partial %s failed: %s"
                                       % (names or piece, stderr.decode(errors="replace")))
                # The partial, and beside it the request ids it claimed first (only settle reads them).
                with open(out, "rb") as handle, open(out + ".claims", "rb") as claims:
                    yield "partial", item_id, handle.read(), claims.read(), peak
                for group in range(account_groups if routing else 0):
                    with open("%s.rows-%d-of-%d" % (out, group, account_groups), "rb") as handle:
                        # Never empty (its header), so every group hears of every routing partial.
                        seq = 0
                        while True:
                            chunk = handle.read(ROWS_CHUNK_BYTES)
                            if not chunk:
                                break
                            yield "rows", group, (item_id, seq, chunk)
                            seq += 1

    return run


def group_task(binary_name, snapshot_name, report_args, account_groups):
    """What an executor runs for the rows Spark's shuffle brought to one group (its partition
    index): each routing partial's rows of the group put together again on local disk, then
    `partial --group K`, which attributes them against the group's part of the snapshot."""

    def run(group, records):
        from pyspark import SparkFiles

        binary = SparkFiles.get(binary_name)
        snapshot = SparkFiles.get(snapshot_name)
        os.chmod(binary, 0o755)
        with tempfile.TemporaryDirectory() as scratch:
            chunks = os.path.join(scratch, "chunks")
            routed = os.path.join(scratch, "routed")
            os.makedirs(chunks)
            os.makedirs(routed)
            # Each piece to a file of its own as it comes (a group's rows are never held whole).
            pieces = {}
            for key, (item_id, seq, chunk) in records:
                if key != group:
                    raise RuntimeError("rows of group %d reached the task of group %d" % (key, group))
                with open(os.path.join(chunks, "%d-%d" % (item_id, seq)), "wb") as handle:
                    handle.write(chunk)
                pieces[item_id] = max(pieces.get(item_id, 0), seq + 1)
            for item_id, count in sorted(pieces.items()):
                name = "part-%05d.partial.rows-%d-of-%d" % (item_id, group, account_groups)
                with open(os.path.join(routed, name), "wb") as handle:
                    for seq in range(count):
                        piece_path = os.path.join(chunks, "%d-%d" % (item_id, seq))
                        with open(piece_path, "rb") as chunk:
                            shutil.copyfileobj(chunk, handle)
                        os.remove(piece_path)
            out = os.path.join(scratch, "group.partial")
            command = [binary, "partial", "--snapshot", snapshot, "--group", str(group), "--account-groups",
                       str(account_groups), "--routed", routed, "--partial", out, "--quiet"]
            status, _, stderr, peak = run_measured(command + report_args)
            if status != 0:
                raise RuntimeError("refund-cost partial --group %d failed: %s" % (group, stderr.decode(errors="replace")))
            with open(out, "rb") as handle, open(out + ".claims", "rb") as claims:
                yield group, handle.read(), claims.read(), peak

    return run


def settlement_name(part, parts_count):
    """The name settle gives the record of a partition (RequestSettlement.path)."""
    return "request.settled" if parts_count == 1 else "request.%d-of-%d.settled" % (part, parts_count)


def settle_task(binary_name, snapshot_name, shipped, parts_count):
    """What an executor runs for each request-id partition it is given: `settle --part K/N` over
    every partial and its claims (shipped with addFile under `shipped`: name -> shipped name).
    Returns the partition's record (None when some id of it was claimed twice) and its seeds by
    partial."""

    def run(items):
        from pyspark import SparkFiles

        binary = SparkFiles.get(binary_name)
        snapshot = SparkFiles.get(snapshot_name)
        os.chmod(binary, 0o755)
        for part in items:
            with tempfile.TemporaryDirectory() as scratch:
                folder = os.path.join(scratch, "parts")
                os.makedirs(folder)
                for name, shipped_name in shipped:
                    os.symlink(SparkFiles.get(shipped_name), os.path.join(folder, name))
                command = [binary, "settle", "--snapshot", snapshot, "--partials", folder,
                           "--part", "%d/%d" % (part, parts_count)]
                status, stdout, stderr, peak = run_measured(command)
                if status != 0:
                    raise RuntimeError("refund-cost settle --part %d/%d failed: %s"
                                       % (part, parts_count, stderr.decode(errors="replace")))
                seeds = []
                for line in stdout.decode().splitlines():
                    partial, seeds_path = line.split("\t")
                    with open(seeds_path, "rb") as handle:
                        seeds.append((os.path.basename(partial), os.path.basename(seeds_path), handle.read()))
                record_path = os.path.join(folder, settlement_name(part, parts_count))
                record = None
                if os.path.exists(record_path):
                    with open(record_path, "rb") as handle:
                        record = handle.read()
                yield part, record, seeds, peak

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
    parser.add_argument("--app-store-groups", type=int, default=0,
                        help="App Store file groups (default: one for every GiB of App Store files, at least the "
                             "parallelism)")
    parser.add_argument("--account-groups", type=int, default=0,
                        help="groups of accounts: each cost row is routed to its account's group, whose task "
                             "holds that group's ledger alone (default: from the accounts, --accounts-per-group)")
    parser.add_argument("--accounts-per-group", type=int, default=ACCOUNTS_PER_GROUP,
                        help="without --account-groups, as many groups as hold at most this many accounts each "
                             "(default %d)" % ACCOUNTS_PER_GROUP)
    parser.add_argument("--piece-bytes", type=int, default=PIECE_BYTES,
                        help="a cost file larger than this is read in pieces of about this many bytes, one partial "
                             "each (default %d MiB)" % (PIECE_BYTES >> 20))
    parser.add_argument("--app-store-piece-bytes", type=int, default=APP_STORE_GROUP_BYTES,
                        help="an App Store JSON-lines file larger than this is decoded in pieces of about this many "
                             "bytes, one task each; the other files in groups of about this many (default %d MiB)"
                             % (APP_STORE_GROUP_BYTES >> 20))
    parser.add_argument("--request-parts", type=int, default=0,
                        help="hash partitions the request ids are settled in (default: the parallelism)")
    parser.add_argument("--measure", default=None,
                        help="write every refund-cost process's peak memory (MB) by step to this JSON file")
    parser.add_argument("--fail-once", default=None, help=argparse.SUPPRESS)
    parser.add_argument("report_args", nargs=argparse.REMAINDER)
    options = parser.parse_args()
    report_args = [a for a in options.report_args if a != "--"]
    if "--data" not in report_args:
        sys.exit("give refund-cost report's options after --, at least --data DIR --month YYYY-MM --out DIR")
    binary = os.path.abspath(options.binary)
    work = os.path.abspath(options.work)
    parts = os.path.join(work, "parts")
    decoded = os.path.join(work, "decoded")
    splits = os.path.join(work, "splits")
    for folder in (parts, decoded, splits):
        os.makedirs(folder, exist_ok=True)
        for stale in os.listdir(folder):
            os.remove(os.path.join(folder, stale))
    for stale in os.listdir(work):
        if stale.startswith("ship-"):
            shutil.rmtree(os.path.join(work, stale))
    snapshot = os.path.join(work, "ledger.snapshot")
    listing = os.path.join(work, "cost-files.txt")
    app_store_listing = os.path.join(work, "app-store-files.txt")
    started = time.monotonic()
    # The run's secret: the steps here inherit it; the executors get it in their environment.
    step_secret = secrets.token_hex(32)
    os.environ[SECRET_VARIABLE] = step_secret

    from pyspark import StorageLevel
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("refund-cost").config("spark.executorEnv." + SECRET_VARIABLE, step_secret)
    if options.master:
        builder = builder.master(options.master)
    elif not os.environ.get("SPARK_HOME") and "spark.master" not in os.environ.get("PYSPARK_SUBMIT_ARGS", ""):
        builder = builder.master("local[2]")
    spark = builder.config("spark.ui.enabled", "false").getOrCreate()
    context = spark.sparkContext
    context.setLogLevel("ERROR")
    context.addFile(binary)

    # Every refund-cost process's own peak memory, by step (a task's, or a driver step's).
    peaks = {}
    # Step 0: the App Store files, in groups of whole files of about equal bytes, on the executors.
    run_local([binary, "decode", "--list", app_store_listing] + report_args, peaks, "decode --list")
    with open(app_store_listing, encoding="utf-8") as handle:
        sized = [line.rstrip("\n").split("\t", 1) for line in handle if line.strip()]
    # A decode task keeps what it decoded until it writes it: groups of at most
    # --app-store-piece-bytes of JSON (and at least one a slot), and a larger JSON-lines file cut
    # in pieces of about that size, keep it the same size at any scale. A gzip file and a
    # notification CSV export are decoded whole.
    app_store_piece_bytes = max(1, options.app_store_piece_bytes)
    app_store_large = [(path, min(4096, -(-int(size) // app_store_piece_bytes))) for size, path in sized
                       if int(size) > app_store_piece_bytes and path.lower().endswith(".jsonl")]
    app_store_pieced = dict(app_store_large)
    app_store_whole = [(int(size), path) for size, path in sized if path not in app_store_pieced]
    whole_bytes = sum(size for size, _ in app_store_whole)
    app_store_groups = plan_sized(app_store_whole,
                                  options.app_store_groups
                                  or max(context.defaultParallelism, -(-whole_bytes // app_store_piece_bytes)))
    split_started = time.monotonic()
    app_store_splits = {}
    if app_store_large:
        rdd = context.parallelize(app_store_large, numSlices=len(app_store_large))
        for index, (name, content, peak) in enumerate(sorted(rdd.mapPartitions(
                split_task(os.path.basename(binary), report_args)).collect())):
            peaks.setdefault("split", []).append(peak)
            path = os.path.join(splits, "app-store-%05d.split" % index)
            with open(path, "wb") as handle:
                handle.write(content)
            context.addFile(path)
            app_store_splits[name] = os.path.basename(path)
    split_seconds = time.monotonic() - split_started
    decode_items = [(names, None) for names in app_store_groups]
    decode_items += [([], (app_store_splits[name], piece)) for name in sorted(app_store_pieced)
                     for piece in range(app_store_pieced[name])]
    decode_started = time.monotonic()
    # In waves of as many groups as there are slots: the groups of a wave are decoded side by
    # side, and the driver holds one wave's bytes at a time (a local iterator would run the
    # groups one after the other; collecting every group at once would hold all of them).
    numbered = [(index, names, piece) for index, (names, piece) in enumerate(decode_items)]
    wave_size = max(1, context.defaultParallelism)
    for start in range(0, len(numbered), wave_size):
        wave = numbered[start:start + wave_size]
        rdd = context.parallelize(wave, numSlices=len(wave))
        for group_id, content, peak in rdd.mapPartitions(decode_task(os.path.basename(binary), report_args,
                                                                     options.fail_once)).collect():
            with open(os.path.join(decoded, "group-%05d.decoded" % group_id), "wb") as handle:
                handle.write(content)
            peaks.setdefault("decode", []).append(peak)
        del wave, rdd
    decode_seconds = time.monotonic() - decode_started
    # What the App Store step cost the driver itself: its own memory (the JVM's aside, which any run has).
    driver_peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    snapshot_started = time.monotonic()
    for stale in os.listdir(work):
        if stale.startswith(os.path.basename(snapshot) + ".group-"):
            os.remove(os.path.join(work, stale))
    cutting = (["--account-groups", str(max(1, min(4096, options.account_groups)))] if options.account_groups > 0
               else ["--accounts-per-group", str(max(1, options.accounts_per_group))])
    run_local([binary, "snapshot", "--snapshot", snapshot, "--decoded", decoded, "--cost-files", listing] + cutting
              + report_args, peaks, "snapshot")
    # The snapshot wrote SNAPSHOT.group-K-of-G for each group K when it cut the accounts in G > 1.
    account_groups = max([int(name.rsplit("-of-", 1)[1]) for name in os.listdir(work)
                          if name.startswith(os.path.basename(snapshot) + ".group-")] or [1])
    files = [(path, path) for path in cost_files(listing)]
    snapshot_seconds = time.monotonic() - snapshot_started
    context.addFile(snapshot)
    # With account groups, a partial reads the groups' parts of the snapshot, one at a time.
    for group in range(account_groups if account_groups > 1 else 0):
        context.addFile("%s.group-%d-of-%d" % (snapshot, group, account_groups))
    # A file larger than --piece-bytes is split on an executor (one reading of it, for where each
    # piece starts and its checksum), then each piece is a partial of its own. A gzip stream and
    # JSON lines are read whole by refund-cost (a split would give one piece and empty ones).
    piece_bytes = max(1, options.piece_bytes)
    large = [(name, min(4096, -(-os.path.getsize(path) // piece_bytes))) for name, path in files
             if os.path.getsize(path) > piece_bytes and not name.lower().endswith((".gz", ".jsonl"))]
    cost_split_started = time.monotonic()
    if large:
        rdd = context.parallelize(large, numSlices=len(large))
        for index, (name, content, peak) in enumerate(sorted(rdd.mapPartitions(
                split_task(os.path.basename(binary), report_args)).collect())):
            peaks.setdefault("split", []).append(peak)
            with open(os.path.join(splits, "file-%05d.split" % index), "wb") as handle:
                handle.write(content)
            context.addFile(os.path.join(splits, "file-%05d.split" % index))
    split_seconds += time.monotonic() - cost_split_started
    pieced = dict(large)
    split_names = {name: "file-%05d.split" % index for index, name in enumerate(sorted(pieced))}
    whole = [(name, path) for name, path in files if name not in pieced]
    # Work items: (id, whole files, (split, piece) or None).
    items = [(names, None) for names in plan_groups(whole, options.groups or 2 * context.defaultParallelism)]
    items += [([], (split_names[name], piece)) for name in sorted(pieced) for piece in range(pieced[name])]
    items = [(index, names, piece) for index, (names, piece) in enumerate(items)]
    # With account groups, each partial routes its rows to the groups' tasks (`partial --route`).
    task = partial_task(os.path.basename(binary), os.path.basename(snapshot), report_args, options.fail_once,
                        account_groups)
    # With account groups, each partial routes its rows to their groups: the routing partials'
    # outputs, by the ids of the items they computed (the last computation of an item counts).
    routings = []

    def write_partial(path, content, claims):
        with open(path, "wb") as handle:
            handle.write(content)
        with open(path + ".claims", "wb") as handle:
            handle.write(claims)

    def compute(work_items):
        if account_groups > 1:
            # Every routing partial side by side; what each wrote stays on its executor's disk
            # (the rows, for the shuffle to the groups), the partials come to the driver one
            # task's at a time.
            rdd = context.parallelize(work_items, numSlices=len(work_items)).mapPartitions(task)
            rdd = rdd.persist(StorageLevel.DISK_ONLY)
            rdd.count()
            for _, item_id, content, claims, peak in rdd.filter(lambda record: record[0] == "partial").toLocalIterator():
                peaks.setdefault("partial --route", []).append(peak)
                write_partial(os.path.join(parts, "part-%05d.partial" % item_id), content, claims)
            routings.append(({item[0] for item in work_items}, rdd))
            return
        # In waves of twice as many partials as there are slots: the driver holds one wave's
        # results at a time (every partial's at once passed Spark's 1 GB of task results, and
        # the driver's heap, at a million accounts).
        wave_size = max(1, 2 * context.defaultParallelism)
        for start in range(0, len(work_items), wave_size):
            wave = work_items[start:start + wave_size]
            rdd = context.parallelize(wave, numSlices=len(wave))
            for _, group_id, content, claims, peak in sorted(rdd.mapPartitions(task).collect()):
                peaks.setdefault("partial", []).append(peak)
                write_partial(os.path.join(parts, "part-%05d.partial" % group_id), content, claims)
            del wave, rdd

    partial_started = time.monotonic()
    compute([(index, names, piece, None) for index, names, piece in items])
    parallelism = context.defaultParallelism
    parts_count = max(1, min(4096, options.request_parts or parallelism))
    shipped_rounds = [0]

    def settle_round():
        """Every partial shipped to the executors, settled partition by partition there; the
        records and seeds written to the partials' folder. Returns the seeds by partial."""
        shipped_rounds[0] += 1
        ship = os.path.join(work, "ship-%d" % shipped_rounds[0])
        os.makedirs(ship, exist_ok=True)
        shipped = []
        for name in sorted(os.listdir(parts)):
            if name.endswith(".settled") or name.endswith(".seeds"):
                os.remove(os.path.join(parts, name))
            elif name.endswith(".partial") or name.endswith(".partial.claims"):
                # A name of its own each round: Spark ships a path once.
                shipped_name = "round%d-%s" % (shipped_rounds[0], name)
                os.link(os.path.join(parts, name), os.path.join(ship, shipped_name))
                context.addFile(os.path.join(ship, shipped_name))
                shipped.append((name, shipped_name))
        task = settle_task(os.path.basename(binary), os.path.basename(snapshot), shipped, parts_count)
        rdd = context.parallelize(list(range(parts_count)), numSlices=parts_count)
        seeds_by_partial = {}
        for part, record, seeds, peak in sorted(rdd.mapPartitions(task).collect(), key=lambda item: item[0]):
            peaks.setdefault("settle", []).append(peak)
            if record is not None:
                with open(os.path.join(parts, settlement_name(part, parts_count)), "wb") as handle:
                    handle.write(record)
            for partial, seeds_name, content in seeds:
                seeds_by_partial.setdefault(partial, []).append(content)
        return seeds_by_partial

    # Request ids claimed in two partials: the later claimants are computed again with seeds,
    # then settled again, so that every partition has its record for the merge.
    again = []
    seeds_by_partial = settle_round()
    if seeds_by_partial:
        for partial, contents in sorted(seeds_by_partial.items()):
            group_id = int(partial[len("part-"):-len(".partial")])
            again.append((group_id, items[group_id][1], items[group_id][2], contents))
        compute(again)
        if settle_round():
            sys.exit("refund-cost settle still finds request ids claimed twice after the partials were computed again")
    if account_groups > 1:
        # Each group's rows, from the last computation of every routing partial, shuffled to the
        # group's task by the group's number (a partitioner of our own: the same on every run).
        rows = None
        for index, (ids, rdd) in enumerate(routings):
            later = set().union(*[later_ids for later_ids, _ in routings[index + 1:]])
            kept = rdd.filter(lambda record, later=later: record[0] == "rows" and record[2][0] not in later)
            kept = kept.map(lambda record: (record[1], record[2]))
            rows = kept if rows is None else rows.union(kept)
        grouped = rows.partitionBy(account_groups, lambda group: group)
        group_partials = grouped.mapPartitionsWithIndex(
            group_task(os.path.basename(binary), os.path.basename(snapshot), report_args, account_groups))
        group_partials = group_partials.persist(StorageLevel.DISK_ONLY)
        group_partials.count()
        for group, content, claims, peak in group_partials.toLocalIterator():
            peaks.setdefault("partial --group", []).append(peak)
            write_partial(os.path.join(parts, "group-%05d.partial" % group), content, claims)
    partial_seconds = time.monotonic() - partial_started
    spark.stop()

    run_local([binary, "merge", "--snapshot", snapshot, "--partials", parts] + report_args, peaks, "merge")
    print(
        "spark: %d App Store files in %d decode tasks (%d of the files split in %d pieces) decoded in %.2f s (driver "
        "peak memory %.0f MB); %d cost files in %d "
        "partials, %d of the files split in %d pieces in %.2f s (%d partials computed again for request ids settled "
        "in %d parts), accounts in %d groups, snapshot %.1f MB in %.2f s, partials %.2f s, total %.2f s"
        % (len(sized), len(decode_items), len(app_store_pieced), sum(app_store_pieced.values()), decode_seconds,
           driver_peak_mb, len(files), len(items), len(pieced),
           sum(pieced.values()), split_seconds, len(again), parts_count, account_groups,
           os.path.getsize(snapshot) / 1e6, snapshot_seconds, partial_seconds, time.monotonic() - started),
        file=sys.stderr)
    print("spark: peak memory of each refund-cost process, MB: "
          + ", ".join("%s %.0f (%d)" % (step, max(values), len(values)) for step, values in peaks.items()),
          file=sys.stderr)
    if options.measure:
        import json

        with open(options.measure, "w", encoding="utf-8") as handle:
            json.dump({"peak_mb": peaks, "parallelism": parallelism, "partial_groups": len(items),
                       "split_files": len(pieced), "pieces": sum(pieced.values()),
                       "account_groups": account_groups,
                       "app_store_groups": len(app_store_groups), "app_store_split_files": len(app_store_pieced),
                       "app_store_pieces": sum(app_store_pieced.values()), "request_parts": parts_count}, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
