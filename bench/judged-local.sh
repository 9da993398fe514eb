#!/usr/bin/env bash
# compare and nightly where analyze runs, against analyzing their files one by one. Root, perf.
#   bench/run.sh local-compare [ROUNDS] [DIRECT_ROUNDS]
# Records once (kept under $BENCH_DIR/judged-local/ for the next run) 3 + 3 system-wide
# recordings of about 2 s each, `mixed 330 2` (2 ms serial + 4 ms on 2 workers, 330 times) as
# the baseline and `mixed 330 2 3` (a 3 ms serial section) as the candidate, and 12 nights of
# `mixed 330 2` (mixed-2026-11-01.data ... -12.data; the last two nights the candidate's),
# as RECORDING.md says: perf record -k mono -a -g -e cpu-clock -e sched:sched_switch.
# Each round runs, in an order that turns each round, `./loadprof compare` of the 3 + 3 files,
# `./loadprof analyze` of each of the six alone, `./loadprof nightly` of the 12 and `analyze` of
# each of the 12 alone; wall, CPU and max RSS from /usr/bin/time. Prints per round and as
# medians: compare / (sum of the six analyses) and nightly / (sum of the twelve), the targets
# being <= 1.3. The first DIRECT_ROUNDS rounds (default 1) also run compare and nightly with
# --runner direct (Beam's DirectRunner, the path before) and check that their outputs are the
# same bytes as the CLI JVM's.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="${BENCH_DIR:-/tmp/loadprof-bench}/judged-local"
rounds="${1:-3}"
direct_rounds="${2:-1}"
workloads="${LOADPROF_WORKLOADS:-$home/../shared/workloads}"
[ -x "$workloads/mixed" ] || workloads="$home/../../shared/workloads" # a worktree one deeper
[ "$(id -u)" = 0 ] || { echo "bench local-compare: needs root (a system-wide perf record)" >&2; exit 2; }
mkdir -p "$work/rec"
cd "$home"
./loadprof --help >/dev/null # builds this tree if needed

record() { # NAME ARGS...: one recording, kept for the next run
  local name="$1"; shift
  [ -s "$work/rec/$name.data" ] && return 0
  perf record -q -k mono -a -g -e cpu-clock -e sched:sched_switch -o "$work/rec/$name.data" \
    -- "$work/mixed" "$@" >/dev/null 2>&1
}
cp "$workloads/mixed" "$work/mixed"
for i in 1 2 3; do
  record "base-$i" 330 2
  record "cand-$i" 330 2 3
done
for d in 01 02 03 04 05 06 07 08 09 10 11 12; do
  if [ "$d" -le 10 ]; then record "mixed-2026-11-$d" 330 2; else record "mixed-2026-11-$d" 330 2 3; fi
done
sides=("$work"/rec/base-*.data "$work"/rec/cand-*.data)
nights=("$work"/rec/mixed-2026-11-*.data)

tsv="$work/times.tsv"
: >"$tsv"
step() { # ROUND NAME COMMAND...: one timed run, a row of the TSV
  local r="$1" name="$2"; shift 2
  /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" >"$work/$name.log" 2>&1 || {
    local status=$?
    # compare and nightly exit 3 or 4 for a finding; anything else is a failed run
    [ "$status" = 3 ] || [ "$status" = 4 ] \
      || { echo "$name: exit $status (log $work/$name.log)" >&2; exit 1; }
  }
  local t
  t=$(tail -1 "$work/time")
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$r" "$name" "$(echo "$t" | cut -d' ' -f1)" \
    "$(echo "$t" | awk '{print $2 + $3}')" "$(echo "$t" | cut -d' ' -f4)" \
    "$(cut -d' ' -f1 /proc/loadavg)" >>"$tsv"
}
analyze_each() { # ROUND PREFIX FILE...
  local r="$1" prefix="$2" f; shift 2
  for f in "$@"; do
    rm -rf "$work/out-analyze"
    step "$r" "$prefix:$(basename "$f" .data)" ./loadprof analyze --quiet -o "$work/out-analyze" "$f"
  done
}
compare_cmd() { # OUT [RUNNER...]: the compare command line
  local out="$1"; shift
  rm -rf "$out"
  cmd=(./loadprof compare --quiet "$@" -o "$out" --baseline "$work"/rec/base-*.data
    --candidate "$work"/rec/cand-*.data)
}
nightly_cmd() { # OUT [RUNNER...]: the nightly command line
  local out="$1"; shift
  rm -rf "$out"
  cmd=(./loadprof nightly --quiet "$@" -o "$out" "${nights[@]}")
}
compare() { compare_cmd "$@" && step "$r" "$job" "${cmd[@]}"; }
nightly() { nightly_cmd "$@" && step "$r" "$job" "${cmd[@]}"; }

for ((r = 1; r <= rounds; r++)); do
  echo "round $r (load average $(cut -d' ' -f1 /proc/loadavg))" >&2
  if ((r % 2)); then
    job=compare compare "$work/out-compare"
    analyze_each "$r" six "${sides[@]}"
    analyze_each "$r" twelve "${nights[@]}"
    job=nightly nightly "$work/out-nightly"
  else
    analyze_each "$r" twelve "${nights[@]}"
    job=nightly nightly "$work/out-nightly"
    analyze_each "$r" six "${sides[@]}"
    job=compare compare "$work/out-compare"
  fi
  if ((r <= direct_rounds)); then
    job=compare-direct compare "$work/out-compare-direct" --runner direct
    job=nightly-direct nightly "$work/out-nightly-direct" --runner direct
    for f in compare.txt compare.json baseline.pb.gz candidate.pb.gz diff.folded compare.html \
        summary.txt; do
      cmp -s "$work/out-compare/$f" "$work/out-compare-direct/$f" \
        || echo "compare: $f differs from --runner direct's" >&2
    done
    for f in nightly.json history.csv nightly.html summary.txt; do
      cmp -s "$work/out-nightly/$f" "$work/out-nightly-direct/$f" \
        || echo "nightly: $f differs from --runner direct's" >&2
    done
  fi
done

python3 - "$tsv" <<'PY'
import statistics, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
print("load average (1 min) during the runs: %s-%s"
      % (min(float(r[5]) for r in rows), max(float(r[5]) for r in rows)))
rounds = sorted({r[0] for r in rows}, key=int)
def one(rnd, name, col):
    v = [float(r[col]) for r in rows if r[0] == rnd and r[1] == name]
    return v[0] if v else None
def total(rnd, prefix, col):
    return sum(float(r[col]) for r in rows if r[0] == rnd and r[1].startswith(prefix + ":"))
def peak(rnd, prefix):
    return max(float(r[4]) for r in rows if r[0] == rnd and r[1].startswith(prefix + ":"))
for job, prefix, n in (("compare", "six", 6), ("nightly", "twelve", 12)):
    ratios, cpu_ratios = [], []
    print("%s of %d runs against analyze of each alone" % (job, n))
    for rnd in rounds:
        wall, cpu, rss = one(rnd, job, 2), one(rnd, job, 3), one(rnd, job, 4)
        s_wall, s_cpu = total(rnd, prefix, 2), total(rnd, prefix, 3)
        ratios.append(wall / s_wall)
        cpu_ratios.append(cpu / s_cpu)
        line = ("  round %s: %s %.2f s (cpu %.2f s, max rss %.0f MB); the %d analyses %.2f s"
                " (cpu %.2f s, largest max rss %.0f MB); ratio %.2f (cpu %.2f)"
                % (rnd, job, wall, cpu, rss / 1024, n, s_wall, s_cpu, peak(rnd, prefix) / 1024,
                   ratios[-1], cpu_ratios[-1]))
        direct = one(rnd, job + "-direct", 2)
        if direct is not None:
            line += "; --runner direct %.2f s (max rss %.0f MB), %.1fx this" % (
                direct, one(rnd, job + "-direct", 4) / 1024, direct / wall)
        print(line)
    print("  median: %s %.2f s, the %d analyses %.2f s, ratio %.2f (%s), cpu ratio %.2f; target <= 1.3: %s"
          % (job, statistics.median(one(r, job, 2) for r in rounds), n,
             statistics.median(total(r, prefix, 2) for r in rounds), statistics.median(ratios),
             " ".join("%.2f" % x for x in ratios), statistics.median(cpu_ratios),
             "met" if statistics.median(ratios) <= 1.3 else "NOT met"))
PY
