#!/usr/bin/env python3
"""decode (whole files, and JSON-lines files in pieces) -> snapshot -> partials (in another order,
one per cost file, or one per piece of each) -> settle (in three parts of the request ids) -> merge,
without Spark, gives the bytes of `refund-cost report`; a partial computed
twice gives the same content, and the merge refuses partials whose duplicates were not settled, or whose
settlement records are stale or missing a part.

usage: test_steps.py BINARY
"""
import base64
import csv
import json
import os
import random
import secrets
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import dataset  # noqa: E402


def run(command, **kwargs):
    return subprocess.run(command, check=True, capture_output=True, text=True, **kwargs)


def rewrite_transactions(data, transaction_id, token):
    """Every copy of the transaction `transaction_id` in the data's history and notifications
    given the appAccountToken `token` (the signatures then no longer hold: run with --no-verify).
    Returns how many copies changed."""
    def decode(jws):
        header, payload, signature = jws.split(".")
        return header, json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))), signature

    def encode(header, payload, signature):
        text = base64.urlsafe_b64encode(json.dumps(payload, separators=(",", ":")).encode()).decode().rstrip("=")
        return header + "." + text + "." + signature

    changed = [0]

    def fix(jws):
        header, transaction, signature = decode(jws)
        if transaction.get("transactionId") != transaction_id:
            return jws
        transaction["appAccountToken"] = token
        changed[0] += 1
        return encode(header, transaction, signature)

    def fix_notification(jws):
        header, notification, signature = decode(jws)
        info = notification.get("data", {}).get("signedTransactionInfo")
        if info:
            notification["data"]["signedTransactionInfo"] = fix(info)
        return encode(header, notification, signature)

    history = os.path.join(data, "transactions", "history.jsonl")
    lines = []
    for line in open(history, encoding="utf-8"):
        if not line.strip():
            lines.append(line)
            continue
        page = json.loads(line)
        page["signedTransactions"] = [fix(jws) for jws in page.get("signedTransactions", [])]
        lines.append(json.dumps(page, separators=(",", ":")) + "\n")
    open(history, "w", encoding="utf-8").writelines(lines)
    folder = os.path.join(data, "notifications")
    for name in os.listdir(folder):
        path = os.path.join(folder, name)
        if name.endswith(".jsonl"):
            lines = []
            for line in open(path, encoding="utf-8"):
                body = json.loads(line) if line.strip() else None
                if not body or "signedPayload" not in body:
                    lines.append(line)
                    continue
                body["signedPayload"] = fix_notification(body["signedPayload"])
                lines.append(json.dumps(body, separators=(",", ":")) + "\n")
            open(path, "w", encoding="utf-8").writelines(lines)
        elif name.endswith(".csv"):
            rows = list(csv.DictReader(open(path, encoding="utf-8")))
            for row in rows:
                row["signed_payload"] = fix_notification(row["signed_payload"])
            with open(path, "w", newline="", encoding="utf-8") as handle:
                writer = csv.DictWriter(handle, fieldnames=list(rows[0].keys()), lineterminator="\n")
                writer.writeheader()
                writer.writerows(rows)
    return changed[0]


def main():
    binary = os.path.abspath(sys.argv[1])
    failures = []
    # The run's secret, as the driver hands it to every step: in the environment.
    os.environ["REFUND_COST_STEP_SECRET"] = secrets.token_hex(32)
    with tempfile.TemporaryDirectory() as root:
        data = dataset.make_dataset(binary, root)
        one = os.path.join(root, "one")
        run([binary, "report"] + dataset.report_args(data, one))

        out = os.path.join(root, "steps")
        args = dataset.report_args(data, out)
        snapshot = os.path.join(root, "ledger.snapshot")
        listing = os.path.join(root, "cost-files.txt")
        parts = os.path.join(root, "parts")
        os.makedirs(parts)
        # Step 0: half the App Store files decoded whole in one group, the other half's JSON-lines
        # files each cut in 3 pieces decoded apart (in the other order), then the snapshot from
        # them; it must give the same report as the one that read the files itself.
        app_store = os.path.join(root, "app-store-files.txt")
        run([binary, "decode", "--list", app_store] + args)
        names = [line.rstrip("\n").split("\t", 1)[1] for line in open(app_store) if line.strip()]
        decoded = os.path.join(root, "decoded")
        os.makedirs(decoded)
        cut = [name for index, name in enumerate(names) if index % 2 == 0 and name.endswith(".jsonl")]
        if not cut:
            failures.append("no App Store JSON-lines file to decode in pieces: %s" % names)
        for index, name in reversed(list(enumerate(cut))):
            split_file = os.path.join(root, "a%02d.split" % index)
            run([binary, "split", "--file", name, "--pieces", "3", "--split", split_file] + args)
            for piece in (2, 1, 0):
                run([binary, "decode", "--decoded", os.path.join(decoded, "a%02d-%d.decoded" % (index, piece)),
                     "--split", split_file, "--piece", str(piece), "--threads", "1"] + args)
        chosen = [["--file", name] for name in names if name not in cut]
        run([binary, "decode", "--decoded", os.path.join(decoded, "whole.decoded"), "--threads", "1"]
            + [part for pair in chosen for part in pair] + args)
        run([binary, "snapshot", "--snapshot", snapshot, "--decoded", decoded, "--cost-files", listing] + args)
        files = [line.strip() for line in open(listing) if line.strip()]
        order = list(enumerate(files))
        random.Random(7).shuffle(order)
        for index, path in order:
            run([binary, "partial", "--snapshot", snapshot, "--file", path,
                 "--partial", os.path.join(parts, "p%02d.partial" % index)] + args)

        # Unsettled partials are refused, and the previous report (none) is not touched.
        refused = subprocess.run(
            [binary, "merge", "--snapshot", snapshot, "--partials", parts] + args, capture_output=True, text=True)
        if refused.returncode == 0 or "claimed in more than one partial" not in refused.stderr:
            failures.append("merge accepted unsettled partials: %r" % refused.stderr)

        # Request ids settled in three hash partitions, as the driver settles them on the executors.
        parts_count = 3

        def settle_all():
            lines = []
            for part in range(parts_count):
                lines += run([binary, "settle", "--snapshot", snapshot, "--partials", parts,
                              "--part", "%d/%d" % (part, parts_count)]).stdout.splitlines()
            return lines

        settled = settle_all()
        if not settled:
            failures.append("settle found no request id in two partials, but the dataset repeats them across files")
        # Seeds settled for one partial, taken by another (a file copied over another's in the
        # storage between the steps), are refused: they would drop a row nobody else counts.
        if settled:
            wrong_seeds = settled[0].split("\t")[1]
            wrong_index = (int(os.path.basename(settled[0].split("\t")[0])[1:3]) + 1) % len(files)
            taken = subprocess.run(
                [binary, "partial", "--snapshot", snapshot, "--file", files[wrong_index], "--partial",
                 os.path.join(root, "wrong.partial"), "--seeds", wrong_seeds] + args, capture_output=True, text=True)
            if taken.returncode == 0 or "settled for another partial" not in taken.stderr:
                failures.append("a partial took the seeds of another: %r" % taken.stderr)
        seeds_of = {}
        for line in settled:
            partial, seeds = line.split("\t")
            seeds_of.setdefault(partial, []).append(seeds)
        if not any(len(seeds) > 1 for seeds in seeds_of.values()):
            failures.append("no partial was given seeds by two parts: %r" % settled)
        # The claims of a partial before it was computed again, put back beside it later.
        first_seeded = sorted(seeds_of)[0] if seeds_of else None
        if first_seeded:
            shutil.copy(first_seeded + ".claims", os.path.join(root, "old.claims"))
        for partial, seeds in sorted(seeds_of.items()):
            index = int(os.path.basename(partial)[1:3])
            run([binary, "partial", "--snapshot", snapshot, "--file", files[index], "--partial", partial]
                + [part for path in seeds for part in ("--seeds", path)] + args)
        if first_seeded:
            shutil.copy(first_seeded + ".claims", os.path.join(root, "new.claims"))
            shutil.copy(os.path.join(root, "old.claims"), first_seeded + ".claims")
            stale_claims = subprocess.run(
                [binary, "settle", "--snapshot", snapshot, "--partials", parts], capture_output=True, text=True)
            if stale_claims.returncode == 0 or "compute the partial again" not in stale_claims.stderr:
                failures.append("settle read claims left from another computation of a partial: %r" % stale_claims.stderr)
            shutil.copy(os.path.join(root, "new.claims"), first_seeded + ".claims")
        if settle_all():
            failures.append("settle still finds ids claimed twice after the partials were computed again")
        # A part without its record is refused, named.
        record = os.path.join(parts, "request.1-of-%d.settled" % parts_count)
        os.rename(record, record + ".aside")
        missing = subprocess.run(
            [binary, "merge", "--snapshot", snapshot, "--partials", parts] + args, capture_output=True, text=True)
        if missing.returncode == 0 or "1/%d" % parts_count not in missing.stderr:
            failures.append("merge accepted a part without its settlement record: %r" % missing.stderr)
        os.rename(record + ".aside", record)

        run([binary, "merge", "--snapshot", snapshot, "--partials", parts] + args)
        failures += dataset.compare(os.path.join(one, dataset.MONTH), os.path.join(out, dataset.MONTH))

        # A seeded partial computed again without its seeds: the records no longer cover it.
        seeded, seeded_paths = sorted(seeds_of.items())[0]
        seeded_index = int(os.path.basename(seeded)[1:3])
        run([binary, "partial", "--snapshot", snapshot, "--file", files[seeded_index], "--partial", seeded] + args)
        stale = subprocess.run(
            [binary, "merge", "--snapshot", snapshot, "--partials", parts] + args, capture_output=True, text=True)
        if stale.returncode == 0 or "settled other partials" not in stale.stderr:
            failures.append("merge accepted settlement records of a partial computed again since: %r" % stale.stderr)

        # A partial computed twice (a retried task) holds the same totals: merged in place of
        # the first, the report is the same.
        run([binary, "partial", "--snapshot", snapshot, "--file", files[seeded_index], "--partial", seeded]
            + [part for path in seeded_paths for part in ("--seeds", path)] + args)
        out_again = os.path.join(root, "again")
        run([binary, "merge", "--snapshot", snapshot, "--partials", parts] + dataset.report_args(data, out_again))
        failures += ["after a retried partial: " + problem for problem in
                     dataset.compare(os.path.join(one, dataset.MONTH), os.path.join(out_again, dataset.MONTH))]

        # A cost file in two partials is refused by settle, named, not settled.
        twice = os.path.join(root, "twice")
        shutil.copytree(parts, twice)
        shutil.copy(os.path.join(parts, "p00.partial"), os.path.join(twice, "p99.partial"))
        shutil.copy(os.path.join(parts, "p00.partial.claims"), os.path.join(twice, "p99.partial.claims"))
        doubled = subprocess.run([binary, "settle", "--snapshot", snapshot, "--partials", twice], capture_output=True,
                                 text=True)
        if doubled.returncode != 1 or "is in two partials" not in doubled.stderr:
            failures.append("settle did not refuse a cost file in two partials: %r" % doubled.stderr)
        # A device named like a step's file is refused, not read without end.
        device = os.path.join(root, "device.snapshot")
        os.symlink("/dev/zero", device)
        endless = subprocess.run([binary, "partial", "--snapshot", device, "--file", files[0], "--partial",
                                  os.path.join(root, "device.partial")] + args, capture_output=True, text=True)
        if endless.returncode != 1 or "not a regular file" not in endless.stderr:
            failures.append("a step read a device as its snapshot: %r" % endless.stderr[-300:])
        empty = os.path.join(root, "empty")
        os.makedirs(empty)
        nothing = subprocess.run([binary, "settle", "--snapshot", snapshot, "--partials", empty], capture_output=True,
                                 text=True)
        if nothing.returncode != 1 or "no partials" not in nothing.stderr or os.listdir(empty):
            failures.append("settle settled an empty folder: %r" % nothing.stderr)

        # A snapshot made with other options is refused by the next step.
        other = args + ["--grace", "2h"]
        mismatch = subprocess.run(
            [binary, "merge", "--snapshot", snapshot, "--partials", parts] + other, capture_output=True, text=True)
        if mismatch.returncode == 0:
            failures.append("merge accepted partials computed with another --grace")

        # Files made under another run's secret are refused: no one without it can make a step's input.
        forged = subprocess.run(
            [binary, "merge", "--snapshot", snapshot, "--partials", parts] + args, capture_output=True, text=True,
            env=dict(os.environ, REFUND_COST_STEP_SECRET=secrets.token_hex(32)))
        if forged.returncode == 0 or "not authenticated" not in forged.stderr:
            failures.append("merge accepted a snapshot made under another secret: %r" % forged.stderr)
        # The ledger cut by account: the snapshot's groups, partials holding one group's ledger at
        # a time, settled and merged as any: the report's bytes, for 2 and 5 groups.
        for groups in (2, 5):
            grouped = os.path.join(root, "grouped-%d" % groups)
            os.makedirs(os.path.join(grouped, "parts"))
            grouped_out = os.path.join(grouped, "out")
            grouped_args = dataset.report_args(data, grouped_out)
            grouped_snapshot = os.path.join(grouped, "s.snapshot")
            run([binary, "snapshot", "--snapshot", grouped_snapshot, "--account-groups", str(groups)] + grouped_args)
            if os.path.exists(grouped_snapshot + ".group-%d-of-%d" % (groups - 1, groups)) is False:
                failures.append("snapshot --account-groups %d wrote no group snapshots" % groups)
            group_flags = ["--account-groups", str(groups)]
            grouped_parts = os.path.join(grouped, "parts")
            for index, path in enumerate(files):
                run([binary, "partial", "--snapshot", grouped_snapshot, "--file", path, "--partial",
                     os.path.join(grouped_parts, "p%02d.partial" % index)] + group_flags + grouped_args)
            again = run([binary, "settle", "--snapshot", grouped_snapshot, "--partials", grouped_parts]).stdout.splitlines()
            for line in again:
                partial, seeds = line.split("\t")
                index = int(os.path.basename(partial)[1:3])
                run([binary, "partial", "--snapshot", grouped_snapshot, "--file", files[index], "--partial", partial,
                     "--seeds", seeds] + group_flags + grouped_args)
            run([binary, "settle", "--snapshot", grouped_snapshot, "--partials", grouped_parts])
            run([binary, "merge", "--snapshot", grouped_snapshot, "--partials", grouped_parts] + grouped_args)
            failures += ["with %d account groups: %s" % (groups, problem) for problem in
                         dataset.compare(os.path.join(one, dataset.MONTH), os.path.join(grouped_out, dataset.MONTH))]

        # Every cost file cut in 4 pieces, a partial a piece (some against the account groups):
        # the pieces of a file read apart give the report's bytes, request ids repeated across
        # pieces settled as across files.
        pieced = os.path.join(root, "pieced")
        os.makedirs(os.path.join(pieced, "parts"))
        pieced_out = os.path.join(pieced, "out")
        pieced_args = dataset.report_args(data, pieced_out)
        pieced_snapshot = os.path.join(pieced, "s.snapshot")
        run([binary, "snapshot", "--snapshot", pieced_snapshot, "--account-groups", "2"] + pieced_args)
        pieced_parts = os.path.join(pieced, "parts")
        how = {}
        for index, path in enumerate(files):
            split_file = os.path.join(pieced, "f%02d.split" % index)
            run([binary, "split", "--file", path, "--pieces", "4", "--split", split_file] + pieced_args)
            for piece in range(4):
                partial = os.path.join(pieced_parts, "p%02d-%d.partial" % (index, piece))
                how[partial] = ["--split", split_file, "--piece", str(piece)] + (
                    ["--account-groups", "2"] if piece % 2 else [])
                run([binary, "partial", "--snapshot", pieced_snapshot, "--partial", partial] + how[partial] + pieced_args)
        pieced_again = run([binary, "settle", "--snapshot", pieced_snapshot, "--partials", pieced_parts]).stdout.splitlines()
        if not pieced_again:
            failures.append("settle found no request id in two pieces' partials, but the dataset repeats them")
        for line in pieced_again:
            partial, seeds = line.split("\t")
            run([binary, "partial", "--snapshot", pieced_snapshot, "--partial", partial, "--seeds", seeds] + how[partial]
                + pieced_args)
        run([binary, "settle", "--snapshot", pieced_snapshot, "--partials", pieced_parts])
        run([binary, "merge", "--snapshot", pieced_snapshot, "--partials", pieced_parts] + pieced_args)
        failures += ["with every cost file in 4 pieces: " + problem for problem in
                     dataset.compare(os.path.join(one, dataset.MONTH), os.path.join(pieced_out, dataset.MONTH))]

        # Rejected rows in files one partial holds apart (groups are planned by size, not by
        # order): rejects.csv lists them in file order, as report does.
        bad = os.path.join(root, "bad")
        shutil.copytree(data, os.path.join(bad, "data"))
        bad_files = sorted(os.listdir(os.path.join(bad, "data", "costs")))
        for name in (bad_files[0], bad_files[-1], bad_files[1]):
            with open(os.path.join(bad, "data", "costs", name), "a", encoding="utf-8") as handle:
                handle.write("not,a,valid,row\n")
        bad_data = os.path.join(bad, "data")
        bad_args = dataset.report_args(bad_data, os.path.join(bad, "steps")) + ["--max-rejects", "10"]
        run([binary, "report"] + dataset.report_args(bad_data, os.path.join(bad, "one")) + ["--max-rejects", "10"])
        bad_snapshot = os.path.join(bad, "s.snapshot")
        run([binary, "snapshot", "--snapshot", bad_snapshot] + bad_args)
        os.makedirs(os.path.join(bad, "parts"))
        apart = [bad_files[0], bad_files[-1]]
        for index, names in enumerate([apart, [name for name in bad_files if name not in apart]]):
            run([binary, "partial", "--snapshot", bad_snapshot, "--partial", os.path.join(bad, "parts", "g%d.partial" % index)]
                + [part for name in names for part in ("--file", name)] + bad_args)
        for line in run([binary, "settle", "--snapshot", bad_snapshot, "--partials", os.path.join(bad, "parts")]).stdout.splitlines():
            partial, seeds = line.split("\t")
            names = apart if partial.endswith("g0.partial") else [name for name in bad_files if name not in apart]
            run([binary, "partial", "--snapshot", bad_snapshot, "--partial", partial, "--seeds", seeds]
                + [part for name in names for part in ("--file", name)] + bad_args)
        run([binary, "settle", "--snapshot", bad_snapshot, "--partials", os.path.join(bad, "parts")])
        run([binary, "merge", "--snapshot", bad_snapshot, "--partials", os.path.join(bad, "parts")] + bad_args)
        failures += ["with rejects in files a partial holds apart: " + problem for problem in
                     dataset.compare(os.path.join(bad, "one", dataset.MONTH), os.path.join(bad, "steps", dataset.MONTH))]

        # A subscription whose renewal that ended its billing grace another account holds: each
        # group's part carries every transaction of its subscriptions, so the grace ends alike.
        split = os.path.join(root, "split")
        shutil.copytree(data, split)
        accounts = list(csv.DictReader(open(os.path.join(split, "accounts.csv"))))
        token = {row["account_id"]: row["app_account_token"] for row in accounts}
        for row in accounts:
            if row["account_id"] == "acct-000016":
                row["original_transaction_id"] = ""
        with open(os.path.join(split, "accounts.csv"), "w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(accounts[0].keys()), lineterminator="\n")
            writer.writeheader()
            writer.writerows(accounts)
        moved = rewrite_transactions(split, "2000000700000952", token["acct-000018"])
        if not moved:
            failures.append("the dataset no longer has the renewal the split subscription test moves")
        def unverified(out):
            # The moved copies' signatures no longer hold: read without checking them.
            listed = dataset.report_args(split, out)
            at = listed.index("--trust-root")
            return listed[:at] + listed[at + 2:] + ["--no-verify"]

        split_args = unverified(os.path.join(root, "split-one"))
        run([binary, "report"] + split_args)
        split_steps = unverified(os.path.join(root, "split-steps"))
        split_snapshot = os.path.join(root, "split.snapshot")
        run([binary, "snapshot", "--snapshot", split_snapshot, "--account-groups", "2"] + split_steps)
        split_parts = os.path.join(root, "split-parts")
        os.makedirs(split_parts)
        for index, path in enumerate(files):
            run([binary, "partial", "--snapshot", split_snapshot, "--file", os.path.basename(path), "--partial",
                 os.path.join(split_parts, "p%02d.partial" % index), "--account-groups", "2"] + split_steps)
        for line in run([binary, "settle", "--snapshot", split_snapshot, "--partials", split_parts]).stdout.splitlines():
            partial, seeds = line.split("\t")
            index = int(os.path.basename(partial)[1:3])
            run([binary, "partial", "--snapshot", split_snapshot, "--file", os.path.basename(files[index]), "--partial",
                 partial, "--seeds", seeds, "--account-groups", "2"] + split_steps)
        run([binary, "settle", "--snapshot", split_snapshot, "--partials", split_parts])
        run([binary, "merge", "--snapshot", split_snapshot, "--partials", split_parts] + split_steps)
        failures += ["with a subscription split across accounts: " + problem for problem in
                     dataset.compare(os.path.join(root, "split-one", dataset.MONTH),
                                         os.path.join(root, "split-steps", dataset.MONTH))]

        # Last, as it changes the data: a cost file changed after the snapshot (the file whose rows
        # kept the replayed ids loses them) is refused by the partial computed again from it and
        # by the merge, naming it, instead of leaving those rows counted by no one.
        replayed_ids = {row["request_id"] for row in csv.DictReader(open(os.path.join(data, "costs", "zz-replayed.csv")))}
        kept_by = [path for path in files if os.path.basename(path) not in ("zz-replayed.csv", "aa-early-conflicts.csv")][-1]
        with open(kept_by, newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
            header = list(rows[0].keys())
        left = [row for row in rows if row.get("request_id") not in replayed_ids]
        if len(rows) - len(left) != 25:
            failures.append("the dataset's last file should keep the 25 replayed ids, it keeps %d" % (len(rows) - len(left)))
        with open(kept_by, "w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=header, lineterminator="\n")
            writer.writeheader()
            writer.writerows(left)
        kept_partial = os.path.join(parts, "p%02d.partial" % files.index(kept_by))
        changed = subprocess.run(
            [binary, "partial", "--snapshot", snapshot, "--file", kept_by, "--partial", kept_partial]
            + [part for path in seeds_of.get(kept_partial, []) for part in ("--seeds", path)] + args,
            capture_output=True, text=True)
        if changed.returncode != 1 or "after the snapshot" not in changed.stderr or kept_by not in changed.stderr:
            failures.append("a partial read a cost file changed after the snapshot: %r" % changed.stderr)
        merged_changed = subprocess.run(
            [binary, "merge", "--snapshot", snapshot, "--partials", parts] + args, capture_output=True, text=True)
        if merged_changed.returncode != 1 or "after the snapshot" not in merged_changed.stderr:
            failures.append("the merge accepted a cost file changed after the snapshot: %r" % merged_changed.stderr)
    for failure in failures:
        print("test_steps: " + failure, file=sys.stderr)
    print("test_steps: %s" % ("FAILED" if failures else "the steps give the report's bytes"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
