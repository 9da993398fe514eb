#!/usr/bin/env python3
"""Bytes a Flink job moved between tasks, per input record (bench/flink-shuffle.sh).

Usage: flink_shuffle_table.py METRICS.tsv SUMMARY.json LABEL [PLAN.json]

METRICS.tsv: ShuffleBytesReporter's lines (task, subtask, operator, metric, value); only the
task-level counters (empty operator) are used: numBytesOut is what a task wrote into its result
partitions (serialized records, every consumer's copy), numBytesIn what it read from its input
channels (broadcast side inputs once per receiving subtask). SUMMARY.json: the analyze of the
same trace; records.read summed over its runs is the divisor. PLAN.json (the job's plan from
Flink's REST API, /jobs/ID/plan), when there, names each task's consumers with the ship strategy
of the edge (Hash Partition, Forward, Broadcast) and the exchange (pipelined, blocking).

Prints, as Markdown, each task's bytes out and in summed over its subtasks (named by the Beam
transform of the task's last operator), then the bytes out per stage boundary: the boundaries are
recognised by that transform's name (BOUNDARIES); the rest (trace paths, perf.data pieces, run
infos, side inputs, the writers' tails) is "other".
"""
import html
import json
import os
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


def consumers(plan_path):
    """Task name -> its output edges as (consumer's last transform, ship strategy, exchange,
    copies): a task writes its whole output once per edge, and once per receiving subtask on a
    broadcast edge."""
    if not plan_path or not os.path.exists(plan_path) or os.path.getsize(plan_path) == 0:
        return {}
    with open(plan_path) as f:
        nodes = json.load(f)["plan"].get("nodes", [])
    names = {n["id"]: html.unescape(n["description"].replace("<br/>", "")) for n in nodes}
    sent = defaultdict(list)
    for n in nodes:
        for i in n.get("inputs", []):
            ship = i.get("ship_strategy", "?").split(" on ")[0]
            copies = n["parallelism"] if ship == "Broadcast" else 1
            sent[names[i["id"]]].append((last_transform(names[n["id"]]), ship,
                                         i.get("exchange", "?"), copies))
    return sent


def edge_text(edges):
    return "; ".join(f"{short(t)} [{ship}{' x' + str(c) if c > 1 else ''}, {ex}]"
                     for t, ship, ex, c in edges) or "-"


def short(transform):
    return transform if len(transform) < 60 else transform[:57] + "..."


def records_read(summary_path):
    with open(summary_path) as f:
        summary = json.load(f)
    return sum(run["records"]["read"] for run in summary["runs"])


def main():
    metrics, summary, label = sys.argv[1], sys.argv[2], sys.argv[3]
    sends = consumers(sys.argv[4] if len(sys.argv) > 4 else None)
    out = defaultdict(int)
    into = defaultdict(int)
    with open(metrics) as f:
        for line in f:
            task, _subtask, operator, metric, value = line.rstrip("\n").split("\t")
            task = task.removeprefix("CHAIN ")
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
    print("| task (its last Beam transform) | bytes out | B/record out | bytes in | sends to |")
    print("| --- | ---: | ---: | ---: | --- |")
    for task in sorted(out, key=lambda t: -out[t]):
        if out[task] == 0 and into[task] == 0:
            continue
        print(f"| {last_transform(task)} | {out[task]:,} | {out[task] / records:.2f} |"
              f" {into[task]:,} | {edge_text(sends.get(task, []))} |")
    per_boundary = defaultdict(int)
    for task, n in out.items():
        per_boundary[boundary(last_transform(task))] += n
    print("\n| stage boundary (bytes out of the producing tasks) | bytes | B/record | share |")
    print("| --- | ---: | ---: | ---: |")
    for name, n in sorted(per_boundary.items(), key=lambda kv: -kv[1]):
        print(f"| {name} | {n:,} | {n / records:.2f} | {100 * n / max(total_out, 1):.1f} % |")
    print(f"| **total** | {total_out:,} | **{total_out / records:.2f}** | 100 % |")
    if not sends:
        return
    # Each task's bytes out split over its edges by copies (exact when every edge carries the
    # task's whole output, as Flink's result partitions do).
    per_kind = defaultdict(float)
    for task, n in out.items():
        edges = sends.get(task, [])
        copies = sum(c for *_, c in edges)
        for _t, ship, exchange, c in edges:
            per_kind[f"{ship}, {exchange}"] += n * c / copies
        if not edges and n:
            per_kind["(task not in the plan)"] += n
    print("\n| edge kind | bytes | B/record | share |")
    print("| --- | ---: | ---: | ---: |")
    for kind, n in sorted(per_kind.items(), key=lambda kv: -kv[1]):
        print(f"| {kind} | {n:,.0f} | {n / records:.2f} | {100 * n / max(total_out, 1):.1f} % |")


if __name__ == "__main__":
    main()
