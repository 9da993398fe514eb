#!/usr/bin/env bash
# bench/critical-cost.sh [ROUNDS] [GB] [BEFORE] [AFTER]: what the critical path (issue 33) costs
# analyze on the switch-heavy synthetic text of RESULTS.md section 17 (GenerateBigTrace FILE 64
# GB*12 switches: a switch record and a wakeup per 4 samples, 2.2 GB for GB=2). BEFORE (default
# 8ec6efb, main before the critical path) and AFTER (default HEAD) are exported with git archive
# and built under $BENCH_DIR; then ROUNDS rounds (default 3) analyze the text once per revision,
# the order alternating. Wall, CPU (user + sys) and peak RSS from /usr/bin/time; medians and the
# ratios of the medians. The default heap (the launcher's -Xmx2g) for both. AFTER's summary.json
# is checked for a critical_path whose path_ns equals its span_ns.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="${BENCH_DIR:-/tmp/loadprof-bench}"
rounds="${1:-3}" gb="${2:-2}" before="${3:-8ec6efb}" after="${4:-HEAD}"
mkdir -p "$work"
cd "$home"
before=$(git rev-parse --short "$before")
after=$(git rev-parse --short "$after")
for rev in "$before" "$after"; do
  d="$work/cc-$rev"
  if [ ! -f "$d/pipelines/target/loadprof.jar" ]; then
    mkdir -p "$d" && git archive "$rev" | tar -x -C "$d"
    (cd "$d" && mvn -q -o -B package -DskipTests -Dloadprof.cds.skip=true >"$d/build.log" 2>&1)
  fi
done
file="$work/switches-${gb}g.txt"
if [ ! -f "$file" ]; then
  a="$work/cc-$after"
  (cd "$a" && mvn -q -o -B -pl pipelines -am test-compile -Dloadprof.cds.skip=true >/dev/null)
  (cd "$a/pipelines" && mvn -q -o -B dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile="$work/cc-classpath.txt" >/dev/null)
  java -Xmx8g -cp "$a/pipelines/target/test-classes:$a/transforms/target/test-classes:$a/transforms/target/classes:$a/schemas/target/classes:$(cat "$work/cc-classpath.txt")" \
    dev.loadprof.bench.GenerateBigTrace "$file" 64 $(( gb * 12 )) switches
fi
ls -l "$file"
tsv="$work/critical-cost.tsv"
: >"$tsv"
step() { # round revision
  local r="$1" rev="$2" out="$work/cc-out-$2"
  rm -rf "$out"
  /usr/bin/time -f '%e %U %S %M' -o "$work/cc-time" "$work/cc-$rev/loadprof" analyze -o "$out" \
    "$file" >"$work/cc-$rev-$r.log" 2>&1 || echo "$rev: exit $? (log $work/cc-$rev-$r.log)"
  local t
  t=$(tail -1 "$work/cc-time")
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$r" "$rev" "$(echo "$t" | cut -d' ' -f1)" \
    "$(echo "$t" | awk '{print $2 + $3}')" "$(echo "$t" | cut -d' ' -f4)" \
    "$(cut -d' ' -f1 /proc/loadavg)" >>"$tsv"
  tail -1 "$tsv"
}
for ((r = 1; r <= rounds; r++)); do
  order=("$before" "$after")
  ((r % 2)) || order=("$after" "$before")
  for rev in "${order[@]}"; do
    step "$r" "$rev"
  done
done
python3 - "$work/cc-out-$after/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
for run in s["runs"]:
    for p in run["processes"]:
        c = p.get("critical_path")
        if c:
            print("critical path of pid %d (%s): span %d ns, path %d ns, on CPU %d ns, blocked %s"
                  % (p["pid"], p["comm"], c["span_ns"], c["path_ns"], c["oncpu_ns"], c["blocked_ns"]))
            assert abs(c["path_ns"] - c["span_ns"]) <= 0.01 * c["span_ns"], "path != span"
PY
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf 'revision\twall_s\tcpu_s\tmaxrss_kb\n'
for rev in "$before" "$after"; do
  printf '%s\t%s\t%s\t%s\n' "$rev" "$(awk -v r="$rev" '$2 == r {print $3}' "$tsv" | median)" \
    "$(awk -v r="$rev" '$2 == r {print $4}' "$tsv" | median)" \
    "$(awk -v r="$rev" '$2 == r {print $5}' "$tsv" | median)"
done
echo "per-round ratios (after / before), wall and CPU:"
awk -v b="$before" -v a="$after" '$2 == b {wb[$1] = $3; cb[$1] = $4} $2 == a {wa[$1] = $3; ca[$1] = $4}
  END {for (r in wb) printf "  round %s: wall %.3f cpu %.3f\n", r, wa[r] / wb[r], ca[r] / cb[r]}' "$tsv"
