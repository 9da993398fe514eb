#!/usr/bin/env bash
# perf.data end to end, as a user runs it; root, perf. Two forms:
#   bench/run.sh e2e [ROUNDS] [BEFORE]             on a system-wide recording of `mixed 1000 2`
#       at cpu-clock/freq=20000/ with sched_switch and one of bench/deep.c (48-deep stacks,
#       40000 iterations), each recorded once under $BENCH_DIR; then the shipped example
#       against --help
#   bench/run.sh files [ROUNDS] [BEFORE] X.data...  on recordings you give, e.g.
#       perf record -k mono -a -g -e cpu-clock/freq=20000/ -e sched:sched_switch -o mixed.data \
#         -- mixed 3300 2          (82 MB on a quiet 2-vCPU VM)
#       perf record -k mono -a -g -e cpu-clock -e sched:sched_switch -o deep.data \
#         -- deep 175000 48        (bench/deep.c; 91 MB)
# Per round and input, interleaved:
#   (a) perf script -F comm,pid,tid,cpu,time,period,event,trace,ip,sym,dso --ns
#       --show-task-events > /dev/null
#   (b) ./loadprof analyze X.data of revision BEFORE (default: e2e d8145ae, files ed44df9;
#       exported with git archive and built under $BENCH_DIR; nothing installed into ~/.m2)
#   (c) ./loadprof analyze X.data of this worktree (its default: in this JVM, no Beam runner)
#   (d) e2e only: ./loadprof analyze --runner direct X.data of this worktree (Beam's DirectRunner)
# wall, CPU (user+sys) and max RSS by /usr/bin/time, the load average before each run; then
# medians and the wall ratios to (a) within each round (median of the rounds' ratios), and the
# nine outputs of (b) compared file by file with (c) and (d).
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="${BENCH_DIR:-/tmp/loadprof-bench}"
kind=e2e
if [ "${1:-}" = --files ]; then
  kind=files
  shift
fi
rounds="${1:-3}"
default_before=d8145ae
[ "$kind" = files ] && default_before=ed44df9
before="$(git -C "$home" rev-parse --short "${2:-$default_before}")"
shift 2 || true
mkdir -p "$work"
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

old="$work/$kind-$before"
if [ ! -f "$old/pipelines/target/loadprof.jar" ]; then
  rm -rf "$old" && mkdir -p "$old"
  git -C "$home" archive "$before" | tar -x -C "$old"
  (cd "$old" && nice -n 5 mvn -q -o -B package -DskipTests >/dev/null)
fi
[ -f "$home/pipelines/target/loadprof.jar" ] || (cd "$home" && mvn -q -o -B install -DskipTests)

declare -A data_of # input name -> perf.data
if [ "$kind" = files ]; then
  [ "$#" -gt 0 ] || { echo "usage: bench/run.sh files [ROUNDS] [BEFORE] X.data..." >&2; exit 2; }
  inputs=()
  for data in "$@"; do
    inputs+=("$(basename "$data" .data)")
    data_of["${inputs[-1]}"]="$data"
  done
else
  wl="$work/workloads"
  if [ ! -x "$wl/mixed" ]; then
    sources="$home/../shared/workloads"
    [ -d "$sources" ] || sources=/work/shared/workloads # from a worktree under /work/wt
    rm -rf "$wl" && cp -r "$sources" "$wl" && make -s -C "$wl"
  fi
  gcc -O1 -fno-omit-frame-pointer -fno-optimize-sibling-calls -pthread -o "$wl/deep" \
    "$home/bench/deep.c"
  data_of[mixed]="$work/e2e-mixed.data" data_of[deep]="$work/e2e-deep.data"
  [ -f "${data_of[mixed]}" ] || perf record -q -k mono -a -g -e cpu-clock/freq=20000/ \
    -e sched:sched_switch -o "${data_of[mixed]}" -- "$wl/mixed" 1000 2 >/dev/null 2>&1
  [ -f "${data_of[deep]}" ] || perf record -q -k mono -a -g -e cpu-clock -e sched:sched_switch \
    -o "${data_of[deep]}" -- "$wl/deep" 40000 48 >/dev/null 2>&1
  inputs=(mixed deep)
fi

tsv="$work/$kind.tsv"
: >"$tsv"
one() { # NAME INPUT COMMAND...: one timed run, a row in $tsv
  local name="$1" input="$2"; shift 2
  local t="$work/$kind-$name.time" load
  load="$(cut -d' ' -f1 /proc/loadavg)"
  /usr/bin/time -f '%e %U %S %M' -o "$t" "$@" >"$work/$kind-$name.log" 2>&1 \
    || { echo "$name failed:"; tail -5 "$work/$kind-$name.log"; exit 1; }
  local e u s m
  read -r e u s m <"$t"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$input" "$name" "$e" \
    "$(echo "$u + $s" | bc)" "$m" "$load" >>"$tsv"
  printf 'round %s %-10s %-14s wall %6.2f s  cpu %6.2f s  max RSS %5.0f MB  load %s\n' "$round" \
    "$input" "$name" "$e" "$(echo "$u + $s" | bc)" "$(echo "$m / 1024" | bc -l)" "$load"
}

for round in $(seq "$rounds"); do
  for input in "${inputs[@]}"; do
    data="${data_of[$input]}"
    one a-perf-script "$input" sh -c 'exec perf script -F \
      comm,pid,tid,cpu,time,period,event,trace,ip,sym,dso --ns --show-task-events -i "$1" \
      >/dev/null' perf-script "$data"
    one b-before "$input" "$old/loadprof" analyze -o "$work/$kind-out-b-$input" "$data"
    one c-after "$input" "$home/loadprof" analyze -o "$work/$kind-out-c-$input" "$data"
    [ "$kind" = files ] || one d-direct "$input" "$home/loadprof" analyze --runner direct \
      -o "$work/$kind-out-d-$input" "$data"
  done
  [ "$kind" = e2e ] || continue
  input=example
  one help example "$home/loadprof" --help
  one b-before example "$old/loadprof" analyze -o "$work/e2e-out-b-example" \
    "$home/examples/phases.txt.gz"
  one c-after example "$home/loadprof" analyze -o "$work/e2e-out-c-example" \
    "$home/examples/phases.txt.gz"
done

[ "$kind" = e2e ] && inputs+=(example)
echo "medians (wall s, cpu s, max RSS MB, load), and wall ratios to perf script (or --help)"
for input in "${inputs[@]}"; do
  base=a-perf-script
  [ "$input" = example ] && base=help
  for name in a-perf-script help b-before c-after d-direct; do
    rows="$(awk -F'\t' -v i="$input" -v n="$name" '$2 == i && $3 == n' "$tsv")"
    [ -n "$rows" ] || continue
    ratios=""
    for round in $(seq "$rounds"); do
      w="$(awk -F'\t' -v i="$input" -v n="$name" -v r="$round" \
        '$1 == r && $2 == i && $3 == n {print $4}' "$tsv")"
      b="$(awk -F'\t' -v i="$input" -v n="$base" -v r="$round" \
        '$1 == r && $2 == i && $3 == n {print $4}' "$tsv")"
      ratios+="$(echo "$w / $b" | bc -l | xargs printf '%.2f') "
    done
    printf '%-10s %-14s wall %6.2f  cpu %6.2f  rss %5.0f  load %5s  ratio %5s  (%s)\n' \
      "$input" "$name" "$(cut -f4 <<<"$rows" | median)" "$(cut -f5 <<<"$rows" | median)" \
      "$(cut -f6 <<<"$rows" | median | xargs -I{} echo "{} / 1024" | bc)" \
      "$(cut -f7 <<<"$rows" | median)" "$(tr ' ' '\n' <<<"$ratios" | grep . | median)" \
      "$ratios"
  done
done

for input in "${inputs[@]}"; do
  for f in histogram.txt functions.txt flame.folded summary.json summary.txt offcpu.folded \
      report.html profile.pb.gz offcpu.pb.gz; do
    for other in c d; do
      [ -d "$work/$kind-out-$other-$input" ] || continue
      if cmp -s "$work/$kind-out-b-$input/$f" "$work/$kind-out-$other-$input/$f"; then
        echo "$input $f: b = $other"
      else
        echo "$input $f: b DIFFERS from $other"
      fi
    done
  done
done
