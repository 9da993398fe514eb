#!/usr/bin/env bash
# What a --call-graph dwarf recording costs analyze, against a frame-pointer recording of the
# same workload. Root, perf, make, gcc.
#   bench/run.sh dwarf [ROUNDS] [ITERS]
# Records once (kept under $BENCH_DIR/dwarf/ for the next run) `mixed ITERS 2` (default 50)
# twice, as RECORDING.md says, once with -g (frame pointers, read by the native reader) and
# once with --call-graph dwarf (handed to perf script by the default reader). Each round, in an
# order that turns each round: ./loadprof analyze of each, and perf script alone on the DWARF
# one (loadprof's fields, with and without --no-inline); wall and CPU from /usr/bin/time.
# Prints per round and the medians, and dwarf/fp within each round.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="${BENCH_DIR:-/tmp/loadprof-bench}/dwarf"
rounds="${1:-3}"
iters="${2:-50}"
workloads="${LOADPROF_WORKLOADS:-$home/../shared/workloads}"
[ -f "$workloads/mixed.c" ] || workloads="$home/../../shared/workloads" # a worktree one deeper
[ "$(id -u)" = 0 ] || { echo "bench dwarf: needs root (a system-wide perf record)" >&2; exit 2; }
mkdir -p "$work/wl"
cp "$workloads"/*.c "$workloads"/*.h "$workloads/Makefile" "$work/wl/"
make -s -C "$work/wl" mixed
cd "$home"
./loadprof --help >/dev/null # builds this tree if needed

record() { # NAME CALL-GRAPH-OPTIONS...
  local name="$1"; shift
  [ -s "$work/$name.data" ] && return 0
  perf record -q -k mono -a "$@" -e cpu-clock -e sched:sched_switch -o "$work/$name.data" \
    -- "$work/wl/mixed" "$iters" 2 >/dev/null 2>&1
}
record fp -g
record dwarf --call-graph dwarf
ls -l "$work/fp.data" "$work/dwarf.data"

fields=comm,pid,tid,cpu,time,period,event,trace,ip,sym,dso
timed() { # LABEL COMMAND...: one line "LABEL wall cpu"
  local label="$1"; shift
  /usr/bin/time -f "%e %U %S" -o "$work/time" "$@" >/dev/null 2>&1 || { echo "$label failed" >&2; exit 1; }
  read -r wall user sys < "$work/time"
  echo "$label $wall $(echo "$user + $sys" | bc)"
}
steps=(fp dwarf script script-noinline)
run_step() {
  case "$1" in
    fp) timed fp ./loadprof analyze -q -o "$work/out-fp" "$work/fp.data" ;;
    dwarf) timed dwarf ./loadprof analyze -q -o "$work/out-dwarf" "$work/dwarf.data" ;;
    script) timed script perf script -f -i "$work/dwarf.data" --ns --show-task-events -F "$fields" ;;
    script-noinline) timed script-noinline perf script -f -i "$work/dwarf.data" --no-inline --ns \
        --show-task-events -F "$fields" ;;
  esac
}
: > "$work/rounds"
for ((r = 0; r < rounds; r++)); do
  for ((i = 0; i < ${#steps[@]}; i++)); do
    step="${steps[$(((i + r) % ${#steps[@]}))]}"
    line="$(run_step "$step")"
    echo "round $((r + 1)) $line (load $(cut -d' ' -f1 /proc/loadavg))" | tee -a "$work/rounds"
  done
done
echo "medians (wall s, cpu s) and dwarf/fp within each round:"
for step in "${steps[@]}"; do
  awk -v s="$step" '$3 == s {print $4, $5}' "$work/rounds" | sort -n | awk -v s="$step" \
    '{w[NR]=$1} END {printf "  %-16s wall %s s\n", s, w[int((NR+1)/2)]}'
done
awk '$3 == "fp" {fp[$2]=$4} $3 == "dwarf" {d[$2]=$4} END {for (r in d) print d[r]/fp[r]}' \
  "$work/rounds" | sort -n | awk '{v[NR]=$1} END {printf "  dwarf/fp median ratio %.1f\n", v[int((NR+1)/2)]}'
