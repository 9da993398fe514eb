#!/usr/bin/env bash
# What-if speed-ups checked against re-runs (issue 33 item 6). Root, perf.
#   bench/whatif.sh [RUNS] [PROGRAM...]      (RUNS default 5; PROGRAM: forkjoin convoy pipeline
#                                             sleeper mixed, default all)
# For each program of bench/workloads/ (built into the work directory), records the unchanged
# program ("before") RUNS times and, for each case below, the program with one function made
# P % cheaper through its knob (FUNCTION=100-P, see knobs.h) RUNS times, each with
# `./loadprof record` (system mode: root), in rounds that alternate before and after. Then:
#   predicted: `./loadprof analyze --what-if '^FUNCTION$=P%' ...` of the before recordings
#              (summary.json critical_path.what_if, change_ns of that function and percent;
#              when analyze has no --what-if, its top functions' what-ifs); median of the runs
#   measured:  median after - median before of the subject's real time (summary.json
#              thread_states.span_s: its first event to its last), with each side's range
# and prints a table: within target is |predicted - measured| <= max(20 % of |measured|, 10 ms);
# "largest" says whether, per program, the case with the largest predicted gain is the one with
# the largest measured gain. The table is appended to bench/RESULTS.md unless WHATIF_APPEND=0.
# WHATIF_FIFO (default 10; empty: normal priority) runs the workloads SCHED_FIFO: on this shared
# 2-CPU machine a normal-priority run gets a random share of the CPUs (1.2-1.8 s for 0.57 s of
# work), which no one-recording prediction can know. Work directory: WHATIF_DIR (default
# /tmp/loadprof-whatif), emptied first.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${1:-5}"
shift || true
programs=("$@")
[ ${#programs[@]} -gt 0 ] || programs=(forkjoin convoy pipeline sleeper mixed)
work="${WHATIF_DIR:-/tmp/loadprof-whatif}"
export WHATIF_FIFO="${WHATIF_FIFO-10}"
# PROGRAM:FUNCTION:PERCENT_FASTER. The 50 % cases of branch_long, critical_section and
# produce_item cross over: the other branch, the threads' own work outside the lock, or the
# consumer becomes about as long, so a model that only shortens the path overshoots.
# WHATIF_CASES (space-separated) replaces the list.
cases=(forkjoin:serial_part:50 forkjoin:branch_long:25 forkjoin:branch_long:50
  forkjoin:branch_short:50
  convoy:critical_section:25 convoy:critical_section:50 convoy:outside_work:50
  pipeline:produce_item:25 pipeline:produce_item:50 pipeline:consume_item:50
  sleeper:tick_work:50 sleeper:side_work:50
  mixed:serial_section:25 mixed:serial_section:50)
[ -z "${WHATIF_CASES:-}" ] || read -r -a cases <<<"$WHATIF_CASES"
[ "$(id -u)" = 0 ] || { echo "bench/whatif.sh: needs root (loadprof record in system mode)" >&2; exit 2; }
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "bench/whatif.sh: RUNS is a number, got '$runs'" >&2; exit 2; }
rm -rf "$work"
mkdir -p "$work/bin"
make -s -C "$home/bench/workloads" OUT="$work/bin"
# mixed: ../shared/workloads' program, which the model was not tuned on (workloads/mixed-knob.sh).
if [[ " ${programs[*]} " == *" mixed "* ]]; then
  shared="$home/../shared/workloads"
  [ -f "$shared/mixed.c" ] || { echo "bench/whatif.sh: mixed needs $shared/mixed.c" >&2; exit 2; }
  cc -O1 -fno-omit-frame-pointer -g -Wall -pthread -o "$work/bin/mixed-program" "$shared/mixed.c" -pthread
  export MIXED="$work/bin/mixed-program"
  cp "$home/bench/workloads/mixed-knob.sh" "$work/bin/mixed"
fi
cd "$home"
./loadprof --help >/dev/null # builds this tree if needed

record() { # DIR ARGS...: one recording with its outputs in DIR
  local dir="$1"; shift
  mkdir -p "$(dirname "$dir")"
  ./loadprof record --mode system -o "$dir" --name run -- "$@" >"$dir.log" 2>&1 \
    || { echo "bench/whatif.sh: loadprof record failed, see $dir.log" >&2; tail -3 "$dir.log" >&2; exit 1; }
}

for prog in "${programs[@]}"; do
  mine=()
  for c in "${cases[@]}"; do [ "${c%%:*}" = "$prog" ] && mine+=("$c"); done
  [ ${#mine[@]} -gt 0 ] || { echo "bench/whatif.sh: no case for '$prog'" >&2; exit 2; }
  for r in $(seq 1 "$runs"); do
    echo "$prog round $r/$runs" >&2
    record "$work/$prog/before-$r" "$work/bin/$prog"
    for c in "${mine[@]}"; do
      IFS=: read -r _ fn pct <<<"$c"
      record "$work/$prog/$fn-$pct-$r" "$work/bin/$prog" "$fn=$((100 - pct))"
    done
  done
  whatif=()
  for c in "${mine[@]}"; do
    IFS=: read -r _ fn pct <<<"$c"
    whatif+=(--what-if "^$fn\$=$pct%")
  done
  befores=()
  for r in $(seq 1 "$runs"); do befores+=("$work/$prog/before-$r/run.data"); done
  if ./loadprof analyze -o "$work/$prog/whatif" "${whatif[@]}" "${befores[@]}" \
      >"$work/$prog/whatif.log" 2>&1; then
    echo "$prog: predictions from analyze ${whatif[*]}" >&2
  elif ./loadprof analyze -o "$work/$prog/whatif" "${befores[@]}" >>"$work/$prog/whatif.log" 2>&1
  then
    echo "$prog: analyze --what-if failed (see $work/$prog/whatif.log); only the top" \
      "functions' what-ifs of analyze are used" >&2
  else
    echo "$prog: analyze failed (see $work/$prog/whatif.log); the records' own what-ifs are" \
      "used" >&2
    rm -rf "$work/$prog/whatif"
  fi
done

table="$(python3 "$home/bench/whatif_table.py" "$work" "$runs" "${WHATIF_FIFO:-normal}" "${cases[@]}")"
echo "$table"
if [ "${WHATIF_APPEND:-1}" != 0 ]; then
  printf '\n%s\n' "$table" >>"$home/bench/RESULTS.md"
  echo "appended to bench/RESULTS.md" >&2
fi
