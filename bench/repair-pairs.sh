#!/usr/bin/env bash
# How close the interval repairs come: one execution recorded twice at once. Root, perf, a C
# compiler, python3 and the user nobody.
#   bench/run.sh pairs [N] [BEFORE]
# Each of N executions runs as nobody under `loadprof record --mode process` (per-thread
# context-switch records: exact switch-ins and switch-outs) while a system-wide
# `perf record -a -e EV -e sched:sched_switch -e sched:sched_wakeup` runs as root, where this VM
# loses CPU 1's idle-to-task switches and loadprof repairs them. The workloads turn through
# `mixed 40 2`, `mixed 40 4`, `stalls 0.5` and `phases 0.4` (../shared/workloads, or
# $LOADPROF_WORKLOADS), the neighbours through none, two busy-and-sleep loops, and a storm of
# short processes, and EV between cpu-clock:u and cpu-clock. The system-wide recording is
# analyzed for the execution's pid by this tree and by BEFORE (a revision, default 5fd48d4,
# exported with git archive and built under $BENCH_DIR; nothing installed into ~/.m2).
# Prints per pair the share of time on CPU at load 1 per process and system-wide, the
# difference in points for each build, then per build the mean and largest difference and how
# many system-wide shares read more load. Recordings are deleted after each pair.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="${BENCH_DIR:-/tmp/loadprof-bench}"
n="${1:-24}"
before="$(git -C "$home" rev-parse --short "${2:-5fd48d4}")"
workloads="${LOADPROF_WORKLOADS:-$home/../shared/workloads}"
[ "$(id -u)" = 0 ] || { echo "bench pairs: needs root (a system-wide perf record)" >&2; exit 2; }
id nobody >/dev/null 2>&1 || { echo "bench pairs: needs the user nobody" >&2; exit 2; }
mkdir -p "$work"

old="$work/pairs-$before"
if [ ! -f "$old/pipelines/target/loadprof.jar" ]; then
  rm -rf "$old" && mkdir -p "$old"
  git -C "$home" archive "$before" | tar -x -C "$old"
  echo "bench pairs: building $before in $old" >&2
  (cd "$old" && mvn -q -o -B package -DskipTests >/dev/null)
fi
(cd "$home" && ./loadprof --help >/dev/null) # builds this tree if needed

# Workloads and the neighbour are built where nobody can run them.
bin="$work/pairs-bin"
rm -rf "$bin" && mkdir -p "$bin" && cp "$workloads"/*.c "$workloads"/*.h "$workloads"/Makefile "$bin"/
make -s -C "$bin" >/dev/null
cat >"$bin/neighbour.c" <<'EOF'
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
/* Busy for 0.1-3 ms, asleep for 0.1-3 ms, for ever: preempts the workload at random. */
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
int main(void) {
  srand(getpid());
  for (;;) {
    double end = now() + (rand() % 3000 + 100) * 1e-6;
    while (now() < end) {}
    usleep(rand() % 3000 + 100);
  }
}
EOF
cc -O2 -o "$bin/neighbour" "$bin/neighbour.c"
chmod -R a+rx "$bin"

cp_now="$home/pipelines/target/loadprof.jar:$home/pipelines/target/lib/*"
cp_old="$old/pipelines/target/loadprof.jar:$old/pipelines/target/lib/*"
works=("mixed 40 2" "mixed 40 4" "stalls 0.5" "phases 0.4")
tsv="$work/pairs.tsv"
printf 'pair\tevent\tneighbours\tworkload\tper_process\tsystem_before\tsystem_now\n' >"$tsv"
pair_dir="$work/pair"
neighbours=()
stop_neighbours() {
  local p
  for p in "${neighbours[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${neighbours[@]}"; do wait "$p" 2>/dev/null || true; done
  neighbours=()
}
trap stop_neighbours EXIT

for ((i = 1; i <= n; i++)); do
  work_args=(${works[$(((i - 1) / 3 % 4))]})
  event=cpu-clock:u
  ((i % 2)) || event=cpu-clock
  case $((i % 3)) in
    1) kind=none ;;
    2) kind=busy; "$bin/neighbour" & neighbours+=($!); "$bin/neighbour" & neighbours+=($!) ;;
    0) kind=forks
      (while :; do for j in 1 2 3 4 5 6 7 8; do /bin/true; done; sleep "0.00$RANDOM"; done) &
      neighbours+=($!) ;;
  esac
  rm -rf "$pair_dir" && mkdir -p "$pair_dir" && chmod 777 "$pair_dir"
  perf record -q -k mono -a -e "$event" -e sched:sched_switch -e sched:sched_wakeup \
    -o "$pair_dir/sys.data" -- sleep 300 >/dev/null 2>&1 &
  perf_pid=$!
  sleep 1.5 # perf is recording on every CPU before the workload starts
  runuser -u nobody -- java -cp "$cp_now" dev.loadprof.cli.LoadprofCli record --mode process \
    --out "$pair_dir/proc" -- "$bin/${work_args[0]}" "${work_args[@]:1}" \
    >"$pair_dir/proc.log" 2>&1 || true
  kill -INT "$perf_pid"
  wait "$perf_pid" || true
  stop_neighbours
  pid="$(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
print([p for r in s["runs"] for p in r["processes"] if p["comm"] == sys.argv[2]][0]["pid"])
' "$pair_dir/proc/summary.json" "${work_args[0]}")"
  for b in now old; do
    c="$cp_now"
    [ "$b" = old ] && c="$cp_old"
    java -cp "$c" dev.loadprof.cli.LoadprofCli analyze -q --event "$event" --pid "$pid" \
      -o "$pair_dir/sys-$b" "$pair_dir/sys.data" >"$pair_dir/sys-$b.log" 2>&1
  done
  python3 - "$pair_dir" "$pid" "$i" "$event" "$kind" "${work_args[*]}" >>"$tsv" <<'EOF'
import json, sys
d, pid = sys.argv[1], int(sys.argv[2])
def load1(summary):
    s = json.load(open(summary))
    p = [p for r in s["runs"] for p in r["processes"] if p["pid"] == pid][0]
    t = p["time_at_load_ns"]
    total = sum(v for k, v in t.items() if int(k) >= 1)
    return t.get("1", 0) / total
print("\t".join(sys.argv[3:7] + ["%.5f" % load1(f"{d}/{x}/summary.json") for x in ("proc", "sys-old", "sys-now")]))
EOF
  tail -1 "$tsv" >&2
  rm -f "$pair_dir"/*.data "$pair_dir"/proc/*.data
done

python3 - "$tsv" "$before" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
print(f"{len(rows)} executions recorded twice at once; load 1's share of the time on CPU,"
      " per process minus system-wide, in points:")
for col, name in (("system_before", sys.argv[2]), ("system_now", "now")):
    d = [100 * (float(r["per_process"]) - float(r[col])) for r in rows]
    mean = sum(abs(x) for x in d) / len(d)
    print(f"  {name:>8}: mean |diff| {mean:.3f}, largest {max(abs(x) for x in d):.3f},"
          f" {sum(1 for x in d if abs(x) >= 0.1)} of {len(d)} at 0.1 or more"
          f" ({sum(1 for x in d if x >= 0.1)} with more load system-wide)")
EOF
echo "bench pairs: per pair in $tsv" >&2
