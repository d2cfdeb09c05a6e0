"""A generated month whose request ids repeat across cost files, and byte comparison of reports.

Shared by the step test and the Spark test: both must give what `refund-cost report` gives.
"""
import csv
import os
import subprocess

MONTH = "2026-10"


def make_dataset(binary, root):
    """Generates 300 accounts of both stores (the App Store's and 75 Google Play ones, with
    refunds, partial refunds and chargebacks), then adds two cost files that repeat request ids
    of the others: one with the same rows (columns in another order), one with the same ids but
    other costs (conflicts: the first row in file order must count)."""
    data = os.path.join(root, "data")
    subprocess.run(
        [binary, "generate", "--out", data, "--accounts", "300", "--seed", "11", "--stores", "apple,play", "--quiet"],
        check=True,
        stdout=subprocess.DEVNULL)
    costs = os.path.join(data, "costs")
    names = sorted(os.listdir(costs))
    with open(os.path.join(costs, names[-1]), newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    with_ids = [row for row in rows if row.get("request_id")]
    assert len(with_ids) > 40, "the generated cost files should carry request ids"
    # Same events, logged again by another service with its columns in another order.
    again = with_ids[:25]
    order = ["request_id", "cost", "account_id", "timestamp", "category", "currency", "quantity", "unit"]
    with open(os.path.join(costs, "zz-replayed.csv"), "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=order, extrasaction="ignore", lineterminator="\n")
        writer.writeheader()
        writer.writerows(again)
    # Same ids, other costs: conflicts, which a reading in file order settles for the first.
    conflicting = [dict(row, cost="%.6f" % (float(row["cost"]) + 1.0)) for row in with_ids[25:35]]
    with open(os.path.join(costs, "aa-early-conflicts.csv"), "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0].keys()), lineterminator="\n")
        writer.writeheader()
        writer.writerows(conflicting)
    return data


def report_args(data, out):
    return [
        "--data", data, "--month", MONTH, "--out", out, "--trust-root", os.path.join(data, "test-root.der"),
        "--verified-files", "none", "--quiet",
    ]


def without_timings(text):
    """run.json with the lines that are timings (they differ on every run) left out."""
    return "\n".join(line for line in text.splitlines() if "_seconds" not in line)


def compare(expected_folder, actual_folder):
    """Every file of the two report folders, byte for byte (run.json without its timings)."""
    expected = sorted(os.listdir(expected_folder))
    actual = sorted(os.listdir(actual_folder))
    problems = [] if expected == actual else ["files differ: %s vs %s" % (expected, actual)]
    for name in expected:
        if name not in actual:
            continue
        with open(os.path.join(expected_folder, name), "rb") as a, open(os.path.join(actual_folder, name), "rb") as b:
            left, right = a.read(), b.read()
        if name == "run.json":
            left, right = without_timings(left.decode()), without_timings(right.decode())
        if left != right:
            problems.append("%s differs" % name)
    return problems
