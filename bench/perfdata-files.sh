#!/usr/bin/env bash
# perf.data end to end on recordings you give (bench/run.sh files [ROUNDS] [BEFORE] X.data...;
# root, perf): per round and file, interleaved,
#   (a) perf script -F comm,pid,tid,cpu,time,period,event,trace,ip,sym,dso --ns
#       --show-task-events > /dev/null
#   (b) ./loadprof analyze X.data of revision BEFORE (default ed44df9, exported with git archive
#       and built under $BENCH_DIR; nothing installed into ~/.m2)
#   (c) ./loadprof analyze X.data of this worktree
# wall, CPU (user+sys) and max RSS by /usr/bin/time, the load average before each run; then
# medians and the wall ratios to (a) within each round (median of the rounds' ratios), and the
# nine outputs of (b) and (c) compared file by file. Record the files outside the repo, e.g.
#   perf record -k mono -a -g -e cpu-clock/freq=20000/ -e sched:sched_switch -o mixed.data \
#     -- mixed 3300 2          (82 MB on a quiet 2-vCPU VM)
#   perf record -k mono -a -g -e cpu-clock -e sched:sched_switch -o deep.data \
#     -- deep 175000 48        (bench/deep.c; 91 MB)
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="${BENCH_DIR:-/tmp/loadprof-bench}"
rounds="${1:-3}"
before="$(git -C "$home" rev-parse --short "${2:-ed44df9}")"
shift 2 || true
[ "$#" -gt 0 ] || { echo "usage: bench/run.sh files [ROUNDS] [BEFORE] X.data..." >&2; exit 2; }
mkdir -p "$work"
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

old="$work/files-$before"
if [ ! -f "$old/pipelines/target/loadprof.jar" ]; then
  rm -rf "$old" && mkdir -p "$old"
  git -C "$home" archive "$before" | tar -x -C "$old"
  (cd "$old" && nice -n 5 mvn -q -o -B package -DskipTests >/dev/null)
fi
[ -f "$home/pipelines/target/loadprof.jar" ] || (cd "$home" && mvn -q -o -B install -DskipTests)

tsv="$work/files.tsv"
: >"$tsv"
one() { # NAME INPUT COMMAND...: one timed run, a row in $tsv
  local name="$1" input="$2"; shift 2
  local t="$work/files-$name.time" load
  load="$(cut -d' ' -f1 /proc/loadavg)"
  /usr/bin/time -f '%e %U %S %M' -o "$t" "$@" >"$work/files-$name.log" 2>&1 \
    || { echo "$name failed:"; tail -5 "$work/files-$name.log"; exit 1; }
  local e u s m
  read -r e u s m <"$t"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$input" "$name" "$e" \
    "$(echo "$u + $s" | bc)" "$m" "$load" >>"$tsv"
  printf 'round %s %-10s %-14s wall %6.2f s  cpu %6.2f s  max RSS %5.0f MB  load %s\n' "$round" \
    "$input" "$name" "$e" "$(echo "$u + $s" | bc)" "$(echo "$m / 1024" | bc -l)" "$load"
}

for round in $(seq "$rounds"); do
  for data in "$@"; do
    input="$(basename "$data" .data)"
    one a-perf-script "$input" sh -c 'exec perf script -F \
      comm,pid,tid,cpu,time,period,event,trace,ip,sym,dso --ns --show-task-events -i "$1" \
      >/dev/null' perf-script "$data"
    one b-before "$input" "$old/loadprof" analyze -o "$work/files-out-b-$input" "$data"
    one c-after "$input" "$home/loadprof" analyze -o "$work/files-out-c-$input" "$data"
  done
done

echo "medians (wall s, cpu s, max RSS MB, load), and wall ratios to perf script"
for data in "$@"; do
  input="$(basename "$data" .data)"
  for name in a-perf-script b-before c-after; do
    rows="$(awk -F'\t' -v i="$input" -v n="$name" '$2 == i && $3 == n' "$tsv")"
    ratios=""
    for round in $(seq "$rounds"); do
      w="$(awk -F'\t' -v i="$input" -v n="$name" -v r="$round" \
        '$1 == r && $2 == i && $3 == n {print $4}' "$tsv")"
      b="$(awk -F'\t' -v i="$input" -v r="$round" \
        '$1 == r && $2 == i && $3 == "a-perf-script" {print $4}' "$tsv")"
      ratios+="$(echo "$w / $b" | bc -l | xargs printf '%.2f') "
    done
    printf '%-10s %-14s wall %6.2f  cpu %6.2f  rss %5.0f  load %5s  ratio %5s  (%s)\n' \
      "$input" "$name" "$(cut -f4 <<<"$rows" | median)" "$(cut -f5 <<<"$rows" | median)" \
      "$(cut -f6 <<<"$rows" | median | xargs -I{} echo "{} / 1024" | bc)" \
      "$(cut -f7 <<<"$rows" | median)" "$(tr ' ' '\n' <<<"$ratios" | grep . | median)" \
      "$ratios"
  done
done

for data in "$@"; do
  input="$(basename "$data" .data)"
  for f in histogram.txt functions.txt flame.folded summary.json summary.txt offcpu.folded \
      offcpu.pb.gz report.html profile.pb.gz; do
    if cmp -s "$work/files-out-b-$input/$f" "$work/files-out-c-$input/$f"; then
      echo "$input $f: b = c"
    else
      echo "$input $f: b DIFFERS from c"
    fi
  done
done
