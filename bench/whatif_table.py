"""The table of bench/whatif.sh: each what-if prediction beside the change measured by re-runs.

Usage: whatif_table.py WORK RUNS PRIORITY PROGRAM:FUNCTION:PERCENT...
Reads WORK/PROGRAM/before-R/summary.json and WORK/PROGRAM/FUNCTION-PERCENT-R/summary.json
(R = 1..RUNS; the subject's real time: thread_states.span_s) and the predictions from
WORK/PROGRAM/whatif/summary.json (analyze --what-if of the before recordings) or, without it,
from the before runs' own summary.json: the subject's critical_path.what_if entry of FUNCTION
(or a regex matching it) at PERCENT. Cases of programs that were not run are left out.
"""
import datetime
import json
import os
import re
import statistics
import subprocess
import sys

TARGET_SHARE = 0.20  # of the measured change
TARGET_FLOOR_S = 0.010


def subject(run):
    for p in run.get("processes", []):
        if p.get("subject"):
            return p
    return None


def runs_of(summary_path):
    with open(summary_path) as f:
        return json.load(f).get("runs", [])


def span_s(summary_path):
    """The subject's real time in seconds, or None when the summary has no subject."""
    for run in runs_of(summary_path):
        p = subject(run)
        if p is not None:
            return p.get("thread_states", {}).get("span_s", p.get("wall_ns", 0) / 1e9)
    return None


def names_function(entry_function, function):
    if entry_function in (function, "^" + function + "$"):
        return True
    try:
        return re.fullmatch(entry_function, function) is not None
    except re.error:
        return False


def prediction_s(run, function, percent):
    """change_ns / 1e9 of the subject's what-if for function at percent, or None."""
    p = subject(run)
    if p is None:
        return None
    for w in p.get("critical_path", {}).get("what_if", []):
        if w.get("faster_percent") == percent and names_function(w.get("function", ""), function):
            return w.get("change_ns", 0) / 1e9
    return None


def predictions(work, prog, runs, function, percent):
    """(median predicted change in s or None, how many before runs had one, where from)."""
    combined = os.path.join(work, prog, "whatif", "summary.json")
    if os.path.exists(combined):
        found = [prediction_s(r, function, percent) for r in runs_of(combined)]
        source = "analyze of the before runs"
    else:
        found = []
        for r in range(1, runs + 1):
            path = os.path.join(work, prog, "before-%d" % r, "summary.json")
            found += [prediction_s(run, function, percent) for run in runs_of(path)]
        source = "record's top functions"
    found = [x for x in found if x is not None]
    return (statistics.median(found) if found else None), len(found), source


def spans(work, prog, stem, runs):
    out = []
    for r in range(1, runs + 1):
        path = os.path.join(work, prog, "%s-%d" % (stem, r), "summary.json")
        if os.path.exists(path):
            s = span_s(path)
            if s is not None:
                out.append(s)
    return out


def ms(seconds):
    return "%+.1f ms" % (seconds * 1e3)


def side(values):
    return "%.1f [%.1f-%.1f]" % (statistics.median(values) * 1e3, min(values) * 1e3,
                                 max(values) * 1e3)


def main(argv):
    work, runs, priority = argv[1], int(argv[2]), argv[3]
    cases = [c.split(":") for c in argv[4:]]
    rows, by_prog = [], {}
    for prog, function, pct in cases:
        percent = int(pct)
        before = spans(work, prog, "before", runs)
        after = spans(work, prog, "%s-%d" % (function, percent), runs)
        if not before or not after:
            continue
        measured = statistics.median(after) - statistics.median(before)
        predicted, n, source = predictions(work, prog, runs, function, percent)
        if predicted is None:
            within = "no prediction"
        else:
            ok = abs(predicted - measured) <= max(TARGET_SHARE * abs(measured), TARGET_FLOOR_S)
            within = ("yes" if ok else "**no**") + " (off by %.1f ms)" % (
                abs(predicted - measured) * 1e3)
        rows.append([prog, function, percent, predicted, n, measured, before, after, within])
        by_prog.setdefault(prog, []).append((function, percent, predicted, measured))
    largest = {}
    for prog, entries in by_prog.items():
        if any(e[2] is None for e in entries):
            largest[prog] = "n/a (a prediction is missing)"
            continue
        best_predicted = min(entries, key=lambda e: e[2])
        best_measured = min(entries, key=lambda e: e[3])
        largest[prog] = ("yes" if best_predicted is best_measured else "**no**") + (
            " (%s %d %%)" % (best_measured[0], best_measured[1]))
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, check=False).stdout.strip()
    except OSError:
        rev = "?"
    with open("/proc/loadavg") as f:
        load = f.read().split()[0]
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    print("### What-if predictions against re-runs (`bench/whatif.sh %d`, %s, at %s)" % (
        runs, now, rev))
    print()
    print("%d runs a side, alternating; workloads at priority %s; load average at the end %s."
          " Predicted: median over the before runs of critical_path.what_if change (source in"
          " brackets, with how many runs had it). Measured: median after - median before of"
          " the subject's real time; before and after as median [min-max] ms." % (
              runs, "SCHED_FIFO " + priority if priority != "normal" else "normal", load))
    print()
    print("| case | function | faster | predicted change | measured change | before ms |"
          " after ms | within 20 % or 10 ms | largest predicted gain = largest measured |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |")
    for prog, function, percent, predicted, n, measured, before, after, within in rows:
        pred = "n/a" if predicted is None else "%s (%d/%d)" % (ms(predicted), n, runs)
        print("| %s | `%s` | %d %% | %s | %s | %s | %s | %s | %s |" % (
            prog, function, percent, pred, ms(measured), side(before), side(after), within,
            largest[prog]))
    sources = sorted({predictions(work, r[0], runs, r[1], r[2])[2] for r in rows})
    print()
    print("Predictions from: %s." % ", ".join(sources))


if __name__ == "__main__":
    main(sys.argv)
