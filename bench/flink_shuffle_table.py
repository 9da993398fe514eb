#!/usr/bin/env python3
"""Bytes a Flink job moved between tasks, per input record (bench/flink-shuffle.sh).

Usage: flink_shuffle_table.py METRICS.tsv SUMMARY.json LABEL

METRICS.tsv: ShuffleBytesReporter's lines (task, subtask, operator, metric, value); only the
task-level counters (empty operator) are used: numBytesOut is what a task wrote into its result
partitions (serialized records, every consumer's copy), numBytesIn what it read from its input
channels (broadcast side inputs once per receiving subtask). SUMMARY.json: the analyze of the
same trace; records.read summed over its runs is the divisor.

Prints, as Markdown, each task's bytes out and in summed over its subtasks (named by the Beam
transform of the task's last operator), then the bytes out per stage boundary: the boundaries are
recognised by that transform's name (BOUNDARIES); the rest (trace paths, perf.data pieces, run
infos, side inputs, the writers' tails) is "other".
"""
import json
import re
import sys
from collections import defaultdict

# (pattern on the last Beam transform of the producing task, boundary) -- first match wins.
BOUNDARIES = [
    (r"Parse perf script into blocks$",
     "parse -> its outputs (blocks and run infos; every consumer reads both)"),
    (r"Group CPUs of a window$",
     "blocks with run intervals -> group by (run, window) [hash]"),
    (r"Weigh samples by load$",
     "join -> its outputs (process sums and run health; every consumer reads both)"),
    (r"^GroupCombine: Aggregate profiles/",
     "partial sums -> sum per (run, process) and per run [hash]"),
    (r"^Aggregate profiles/",
     "sums per (run, process) and per run -> the report writer's side inputs"),
    (r"^Write reports/Collect |Parse perf script into blocks\.runs$",
     "run infos and sums -> the report writer [broadcast side inputs]"),
    (r"^ExplodeWindows: Write archive/",
     "blocks -> archive's grouping [hash]"),
    (r"^Write archive/",
     "archive's writer steps"),
    (r"^Read archive",
     "archive's reader steps"),
]

TRANSFORM = re.compile(r" at ((?:[^()]|\([^()]*\))+)\)")


def last_transform(task):
    found = TRANSFORM.findall(task)
    return found[-1].strip() if found else task.split(" (")[0]


def boundary(transform):
    for pattern, name in BOUNDARIES:
        if re.search(pattern, transform):
            return name
    return "other (paths, pieces, run infos, side inputs, small)"


def records_read(summary_path):
    with open(summary_path) as f:
        summary = json.load(f)
    return sum(run["records"]["read"] for run in summary["runs"])


def main():
    metrics, summary, label = sys.argv[1], sys.argv[2], sys.argv[3]
    out = defaultdict(int)
    into = defaultdict(int)
    with open(metrics) as f:
        for line in f:
            task, _subtask, operator, metric, value = line.rstrip("\n").split("\t")
            if operator:
                continue
            if metric == "numBytesOut":
                out[task] += int(value)
            elif metric == "numBytesIn":
                into[task] += int(value)
    records = records_read(summary)
    total_out = sum(out.values())
    print(f"\n### {label}: {records:,} records read, {total_out:,} bytes out of all tasks"
          f" = {total_out / records:.1f} B/record\n")
    print("| task (its last Beam transform) | bytes out | B/record out | bytes in |")
    print("| --- | ---: | ---: | ---: |")
    for task in sorted(out, key=lambda t: -out[t]):
        if out[task] == 0 and into[task] == 0:
            continue
        print(f"| {last_transform(task)} | {out[task]:,} | {out[task] / records:.2f} |"
              f" {into[task]:,} |")
    per_boundary = defaultdict(int)
    for task, n in out.items():
        per_boundary[boundary(last_transform(task))] += n
    print("\n| stage boundary (bytes out of the producing tasks) | bytes | B/record | share |")
    print("| --- | ---: | ---: | ---: |")
    for name, n in sorted(per_boundary.items(), key=lambda kv: -kv[1]):
        print(f"| {name} | {n:,} | {n / records:.2f} | {100 * n / max(total_out, 1):.1f} % |")
    print(f"| **total** | {total_out:,} | **{total_out / records:.2f}** | 100 % |")


if __name__ == "__main__":
    main()
