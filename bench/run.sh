#!/usr/bin/env bash
# loadprof benchmarks. Results are written down in bench/RESULTS.md.
#   bench/run.sh stages        per-stage records/s of the plain-Java cores (one thread)
#   bench/run.sh dwarf [ROUNDS] [ITERS]  analyze of a --call-graph dwarf recording (perf script)
#                              against a -g one (native) of `mixed ITERS 2`; see dwarf-cost.sh
#   bench/run.sh same-trace [ROUNDS] [MB]  what finding the same trace under two run ids costs:
#                              two MB-sized files of different sizes, two copies of one, and the
#                              archive's fingerprint of a ~100 MB .gz text (medians)
#   bench/run.sh archive-sizes archive size per Avro codec vs gzip text, and read time, of the
#                              example and the mixed fixture
#   bench/run.sh fleet [N]     end to end over an N-run synthetic fleet: DirectRunner, and
#                              embedded Flink at parallelism 1 and 2 (3 rounds, medians)
#   bench/run.sh scale [N]     N copies of one 64-CPU trace: parallelism 1 vs 2 (3 rounds, medians)
#   bench/run.sh big [GB]      one trace several times the JVM heap (-Xmx512m) on embedded Flink,
#                              checked against the generator's known answers
#   bench/run.sh stores [N]    archive and analyze of N 64-CPU runs, on local disk and on a local
#                              S3 server (S3Mock), in one run: records/s per core, bytes/record
#   bench/run.sh decode [ITERS] perf.data decoding: one perf script vs time slices vs CPU pieces
#                              in parallel, on a recording of `mixed ITERS` at 20 kHz (root, perf)
#   bench/run.sh gzip [ROUNDS] [FILE.gz]  parsing a .gz trace (default: a synthetic one) with
#                              decompression on the parsing thread vs on a read-ahead thread
#                              (plain Java), then analyze end to end both ways
#   bench/run.sh cliff [GB] [gz] the memory cliff: one GB-sized trace with the launcher's choice, on
#                              the DirectRunner and on embedded Flink, wall and max RSS, and
#                              the time to read the file (cat | wc -l) for scale
#   bench/run.sh split [GB] [ROUNDS] [gz]  one big trace on embedded Flink with parallelism 1 vs
#                              2 (parse threads and --parallelism), C2's default thresholds and
#                              the launcher's; wall, CPU and what the CPU bounds the ratio to
#   bench/run.sh huge [GB]      a trace far bigger than the heap (default 10 GB) on the default path
#   bench/run.sh startup [ROUNDS] wall time of ./loadprof on --help, a bad option, a missing file,
#                              garbage (binary and text) and the shipped example (medians), then
#                              where the example's start-up goes (class-load timeline, CPU by thread)
#   bench/run.sh cds [ROUNDS]   the example with and without its class-data archive (interleaved,
#                              medians), and how long a build's training runs take
#   bench/run.sh curve [ROUNDS] [SIZES] the cost curve: wall and max RSS of analyze at about 10 MB,
#                              100 MB, 1 GB and 5 GB of text, by the launcher's choice, on
#                              embedded Flink and (up to 1 GB) the DirectRunner; plots
#                              bench/cost-curve.png (ROUNDS default 3; 5 GB: CURVE_BIG_ROUNDS, 1)
#   bench/run.sh symbols [ROUNDS] [ITERS] the native reader's symbolizer: frames/s cold and with
#                              a warm cache vs perf script -F ip,sym,dso, on a system-wide
#                              recording of `mixed ITERS` (root, perf; frames checked against perf's)
#   bench/run.sh perfdata [ROUNDS] [ITERS] perf.data end to end: perf script alone vs analyze
#                              X.data (default pieces, and --decode-split cpu), ratios within
#                              each round, outputs checked against analyze of the same text (root)
#   bench/run.sh native [ROUNDS] [ITERS] the native perf.data reader: perf script > /dev/null vs
#                              the reader alone vs analyze (native, and --perf-data-reader
#                              perf-script), on a system-wide recording of `mixed ITERS` at 20 kHz
#                              and of bench/deep.c (48-deep stacks); ratios within each round, medians
#                              (root, perf; run `mvn -o -q -pl transforms,pipelines -am test-compile` first)
#   bench/run.sh e2e [ROUNDS] [BEFORE] perf.data end to end as a user runs it: perf script vs
#                              ./loadprof analyze X.data at BEFORE and now (and --runner direct),
#                              a mixed and a deep-stack recording, the example; see perfdata-e2e.sh
#   bench/run.sh files [ROUNDS] [BEFORE] X.data...  perf.data end to end on recordings you give:
#                              perf script vs ./loadprof analyze at BEFORE (default ed44df9) and
#                              now, interleaved rounds, ratios within a round, outputs compared;
#                              see perfdata-e2e.sh
#   bench/run.sh parse-ab [ROUNDS] REV...  the text parser's CPU time (ParseCpuTime) at each git
#                              revision (HEAD: the working tree), rounds interleaving the revisions;
#                              PARSE_FILE=X.txt parses that plain text instead of the synthetic trace
#   bench/run.sh wall-cost [ROUNDS] [GB] [BEFORE] [AFTER] [plain|switches]  keeping switch
#                              records whole: archive size, archive and analyze time of the GB
#                              synthetic trace (switches: a switch and a wakeup per 4 samples) at
#                              two revisions (default 60bc932, before they were kept, and HEAD's
#                              commit), interleaved rounds, medians and ratios
#   bench/run.sh text-ab [ROUNDS] [BEFORE] [TRACE...]  text traces end to end: zcat | wc -l vs
#                              ./loadprof analyze at BEFORE (a revision, default ed44df9, or a
#                              built tree's directory) vs this tree, interleaved rounds, ratios
#                              within each round, medians, outputs compared (default traces: the
#                              deep recording's text /tmp/speed/deep5.txt.gz and cliff-2g.txt.gz)
#   bench/run.sh local [ROUNDS] [TRACE...]  big text traces in the CLI's JVM (windows joined as the trace is
#                              read) against embedded Flink, the launcher's choice for them
#                              before: the 2 GB synthetic trace gzipped (gzip's default level)
#                              against zcat | wc -l, and the 2.2 GB one with switch records
#                              against cat | wc -l; interleaved rounds, ratios within a round
#   bench/run.sh pairs [N] [BEFORE]  how close the interval repairs come: N executions each
#                              recorded per process and system-wide at once, the system-wide
#                              load shares of this tree and of BEFORE against the exact per-process
#                              ones (root, perf, cc, user nobody); see repair-pairs.sh
#   bench/run.sh local-compare [ROUNDS] [DIRECT_ROUNDS]  compare of 3 + 3 two-second perf.data
#                              recordings and nightly of 12 against analyze of each file alone,
#                              interleaved rounds, ratios within a round, medians; the first
#                              rounds also on --runner direct, outputs compared (root, perf);
#                              see judged-local.sh
# Inputs are generated under $BENCH_DIR (default /tmp/loadprof-bench), never in the repo.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="${BENCH_DIR:-/tmp/loadprof-bench}"
mkdir -p "$work"
# The inputs stay for the next run (making the big ones takes minutes); say how much they hold.
trap 'echo "bench: $(du -sh "$work" 2>/dev/null | cut -f1) kept in $work for the next run; rm -rf $work frees it" >&2' EXIT
cd "$home"

classpath() {
  if [ ! -f "$work/test-classpath.txt" ] || [ pipelines/pom.xml -nt "$work/test-classpath.txt" ]; then
    (cd pipelines && mvn -q -o -B dependency:build-classpath -Dmdep.includeScope=test \
      -Dmdep.outputFile="$work/test-classpath.txt" >/dev/null)
  fi
  # This worktree's modules first: ~/.m2 may hold another branch's snapshot.
  echo "pipelines/target/test-classes:pipelines/target/classes:transforms/target/classes:schemas/target/classes:$(cat "$work/test-classpath.txt")"
}

build() {
  [ -f pipelines/target/loadprof.jar ] && [ -d pipelines/target/test-classes/dev/loadprof/bench ] \
    || mvn -q -o -B install -DskipTests
  mvn -q -o -B -pl pipelines test-compile
}

# Wall seconds of one command (stdout/stderr to a log).
timed() {
  local log="$1"; shift
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >"$log" 2>&1
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

records_of() { # sample + switch + wakeup + task records read, from summary.json
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sum(r['records']['read'] for r in d['runs']))" "$1"
}

stages() {
  build
  java -Xmx2g -cp "$(classpath)" dev.loadprof.bench.StageThroughput "${1:-32}" "${2:-4}" "${3:-5}"
}

# What finding one trace under two run ids costs (beam.TraceRuns): two files of MB (default
# 100) of different sizes, two copies of one, and the archive's fingerprint of a ~100 MB .gz text
# for comparison; medians of ROUNDS (default 5).
same_trace() {
  build
  local gz="$work/same-trace-text.txt.gz"
  if [ ! -f "$gz" ]; then
    zcat transforms/src/test/resources/traces/stalls.txt.gz > "$work/stalls.txt"
    for _ in $(seq 1 265); do cat "$work/stalls.txt"; done | gzip -1 > "$gz"
    rm -f "$work/stalls.txt"
  fi
  java -cp "$(classpath)" dev.loadprof.bench.SameTraceCost "$work" "${2:-100}" "${1:-5}" "$gz"
}

archive_sizes() {
  build
  java -cp "$(classpath)" dev.loadprof.bench.ArchiveSizes examples/phases.txt.gz \
    transforms/src/test/resources/traces/mixed.txt.gz
}

# Runs `analyze` 3 rounds per runner setting over the given traces; prints medians and
# records/s, and checks that the runners' outputs are byte-identical.
compare_runners() {
  local tag="$1"; shift
  declare -A times
  for round in 1 2 3; do
    for cfg in "direct" "flink --parallelism=1" "flink --parallelism=2"; do
      local name="${cfg// /_}"
      # shellcheck disable=SC2086
      t=$(timed "$work/$tag-$name.log" ./loadprof analyze --out "$work/$tag-out-$name" --runner $cfg "$@")
      times[$name]+="$t "
      echo "round $round $cfg: $t s"
    done
  done
  local records; records=$(records_of "$work/$tag-out-direct/summary.json")
  echo "records read: $records"
  for name in "${!times[@]}"; do
    local m; m=$(echo "${times[$name]}" | tr ' ' '\n' | grep . | median)
    printf "%-28s median %6.1f s  %10.0f records/s\n" "$name" "$m" "$(echo "$records / $m" | bc -l)"
  done
  for f in profile.pb.gz histogram.txt functions.txt runs.txt groups.txt summary.json; do
    cmp -s "$work/$tag-out-direct/$f" "$work/$tag-out-flink_--parallelism=2/$f" \
      && echo "identical across runners: $f" || echo "DIFFERS: $f"
  done
}

fleet() {
  local runs="${1:-100}" dir="$work/fleet-${1:-100}"
  build
  [ -f "$dir/expected.tsv" ] || java -cp "$(classpath)" dev.loadprof.bench.GenerateFleet "$dir" "$runs" 1
  echo "fleet: $runs runs, $(du -sh "$dir" | cut -f1) gzip"
  compare_runners fleet "$dir"/run-*.txt.gz
}

# Sets traces=(N hard links of one generated 64-CPU trace) under $work/scale.
scale_traces() {
  local dir="$work/scale"
  mkdir -p "$dir"
  [ -f "$dir/base.txt" ] || java -Xmx2g -cp "$(classpath)" dev.loadprof.bench.GenerateBigTrace "$dir/base.txt" 64 3
  traces=()
  for i in $(seq -w 1 "$1"); do
    [ -f "$dir/run-$i.txt" ] || ln "$dir/base.txt" "$dir/run-$i.txt"
    traces+=("$dir/run-$i.txt")
  done
}

# Parallelism 1 vs 2 on runs large enough that JVM and Flink start-up do not dominate.
scale() {
  local runs="${1:-8}" dir="$work/scale"
  build
  scale_traces "$runs"
  echo "scale: $runs runs of $(du -h "$dir/base.txt" | cut -f1) text each"
  compare_runners scale "${traces[@]}"
}

big() {
  local gb="${1:-3}" cpus=64
  build
  # About 0.88 GB of text per 16 s of 64 CPUs busy.
  local seconds=$(( gb * 18 ))
  local file="$work/big-${gb}g.txt"
  [ -f "$file" ] || java -Xmx2g -cp "$(classpath)" dev.loadprof.bench.GenerateBigTrace "$file" "$cpus" "$seconds"
  ls -l "$file"; cat "$file.expected"
  local out="$work/out-big-${gb}g"
  rm -rf "$out"
  local t0 t1
  t0=$(date +%s.%N)
  LOADPROF_JAVA_OPTS="-Xmx512m" /usr/bin/time -v ./loadprof analyze --runner flink --parallelism=2 \
    --out "$out" "$file" >"$work/big.log" 2>"$work/big.time"
  t1=$(date +%s.%N)
  grep -E "Maximum resident|Elapsed" "$work/big.time"
  echo "wall: $(echo "$t1 - $t0" | bc) s"
  python3 - "$out/summary.json" "$file.expected" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
exp = dict(l.strip().split("=", 1) for l in open(sys.argv[2]) if "=" in l)
run = s["runs"][0]
p = next(p for p in run["processes"] if p["pid"] == 7000)
t = {int(k): v for k, v in p["time_at_load_ns"].items()}
k_max = max(k for k in t if t[k] > 0)
print("records read", run["records"]["read"], "balanced", run["records"]["balanced"])
print("samples", p["samples"], "expected", exp["samples"])
print("time at load 1", t.get(1), "expected", exp["wall_load1_ns"])
print("time at load", k_max, t[k_max], "expected", exp.get("wall_load%d_ns" % k_max))
serial = sum(f["flat_real_pct"] for f in p["top_functions"] if f["name"].startswith("serial_"))
print("serial real share %.4f%%, expected %.4f%%" % (serial, 100 * float(exp["serial_real_share"])))
PY
}

# Archive and analyze (DirectRunner, 2 worker threads on 2 cores) into/from a local archive and
# an archive on S3Mock; the same traces, one run of this script. Checks the outputs agree.
stores() {
  local runs="${1:-4}" dir="$work/scale" s3dir="$work/s3mock" port=19391
  build
  scale_traces "$runs"
  rm -rf "$s3dir" "$work"/stores-*
  mkdir -p "$s3dir"
  java -Xmx384m -jar stores/target/s3mock/s3mock.jar --server.port=0 --server.address=127.0.0.1 \
    --com.adobe.testing.s3mock.httpPort=$port --com.adobe.testing.s3mock.store.root="$s3dir/data" \
    >"$s3dir/log" 2>&1 &
  local s3pid=$!
  trap 'kill $s3pid 2>/dev/null || true' RETURN
  until curl -fs -X PUT "http://127.0.0.1:$port/loadprof" >/dev/null 2>&1; do sleep 1; done
  export AWS_ENDPOINT_URL="http://127.0.0.1:$port" AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench AWS_REGION=us-east-1
  local records bytes cores=2
  echo "stores: $runs runs of $(du -h "$dir/base.txt" | cut -f1) text each; DirectRunner, $cores cores"
  for store in local s3; do
    local archive="$work/stores-archive" out="$work/stores-out-$store"
    [ "$store" = s3 ] && archive="s3://loadprof/bench/archive"
    local ta tn
    ta=$(timed "$work/stores-archive-$store.log" ./loadprof archive --out "$archive" "${traces[@]}")
    tn=$(timed "$work/stores-analyze-$store.log" ./loadprof analyze --out "$out" "$archive")
    records=$(records_of "$out/summary.json")
    if [ "$store" = local ]; then
      bytes=$(du -sb "$archive" | cut -f1)
    else
      bytes=$(du -sb "$s3dir/data" | cut -f1) # S3Mock's files: the objects plus its metadata
    fi
    printf '%-5s archive %6.1f s  %8.0f records/s/core | analyze %6.1f s  %8.0f records/s/core | %d records, %.2f bytes/record\n' \
      "$store" "$ta" "$(echo "$records / $ta / $cores" | bc -l)" "$tn" "$(echo "$records / $tn / $cores" | bc -l)" \
      "$records" "$(echo "$bytes / $records" | bc -l)"
  done
  for f in profile.pb.gz histogram.txt functions.txt flame.folded; do
    cmp -s "$work/stores-out-local/$f" "$work/stores-out-s3/$f" || echo "OUTPUTS DIFFER: $f"
  done
}

# Records `mixed ITERS 2` system-wide at 20 kHz (>= 1M records for ITERS=4000), then times the
# decoder on it (3 rounds, medians) and loadprof analyze end to end with 1 piece vs the default.
decode() {
  build
  local iters="${1:-4000}" data="$work/decode-mixed.data"
  local wl="$work/workloads"
  if [ ! -x "$wl/mixed" ]; then
    cp -r "$home/../shared/workloads" "$wl" && make -s -C "$wl"
  fi
  if [ ! -f "$data" ]; then
    perf record -q -k mono -a -g -e cpu-clock/freq=20000/ -e sched:sched_switch -o "$data" \
      -- "$wl/mixed" "$iters" 2 2>/dev/null
  fi
  perf script -f -i "$data" --ns --show-task-events -F comm,pid,tid,cpu,time,event 2>/dev/null \
    | wc -l | awk '{print "records:", $1}'
  java -Xmx1g -cp "$(classpath)" dev.loadprof.bench.DecodeThroughput "$data" "$(nproc)" 3
  for pieces in 1 "$(nproc)"; do
    t=$(timed "$work/decode-e2e-$pieces.log" ./loadprof analyze -o "$work/decode-out-$pieces" \
      --decode-pieces "$pieces" "$data")
    echo "analyze end to end, --decode-pieces $pieces: $t s"
  done
  cmp "$work/decode-out-1/functions.txt" "$work/decode-out-$(nproc)/functions.txt" \
    && echo "outputs identical"
}

symbols() {
  build
  local rounds="${1:-3}" iters="${2:-300}" data="$work/symbols-mixed.data"
  local wl="$work/workloads"
  if [ ! -x "$wl/mixed" ]; then
    cp -r "$home/../shared/workloads" "$wl" && make -s -C "$wl"
  fi
  if [ ! -f "$data" ]; then
    perf record -q -a -g -e cpu-clock -o "$data" -- "$wl/mixed" "$iters" 2 2>/dev/null
  fi
  # transforms test classes first: PerfTruth, the dump parser, is there
  java -Xmx1g -cp "transforms/target/test-classes:$(classpath)" \
    dev.loadprof.bench.SymbolizeThroughput "$data" "$rounds"
}

# Wall seconds of ./loadprof for each case; the cases interleaved, ROUNDS rounds, medians.
startup_cases() {
  local rounds="$1" garbage="$work/startup-garbage.bin" text="$work/startup-garbage.txt.gz"
  [ -f "$garbage" ] || head -c 200000 /dev/urandom >"$garbage"
  [ -f "$text" ] || seq -f 'this is not a perf script record %g' 2000 | gzip >"$text"
  local -a names=(help bad-option missing garbage-binary garbage-text example)
  local -a cmds=("--help" "analyze --nosuch examples/phases.txt.gz"
    "analyze $work/startup-missing.txt.gz" "analyze -o $work/startup-out $garbage"
    "analyze -o $work/startup-out $text" "analyze -o $work/startup-out examples/phases.txt.gz")
  declare -A times codes
  for round in $(seq "$rounds"); do
    for k in "${!names[@]}"; do
      local t0 t1 rc=0
      t0=$(date +%s.%N)
      # shellcheck disable=SC2086
      ./loadprof ${cmds[$k]} >"$work/startup-${names[$k]}.log" 2>&1 || rc=$?
      t1=$(date +%s.%N)
      times[${names[$k]}]+="$(echo "$t1 - $t0" | bc) "
      codes[${names[$k]}]=$rc
    done
  done
  for name in "${names[@]}"; do
    printf '%-15s exit %s  median %5.2f s  (rounds: %s)\n' "$name" "${codes[$name]}" \
      "$(echo "${times[$name]}" | tr ' ' '\n' | grep . | median)" "${times[$name]% }"
  done
  echo "uptime: $(uptime)"
}

# One run of the example with the class-load timeline: when each phase's first class loads.
startup_timeline() {
  local log="$work/startup-classes.txt"
  LOADPROF_JAVA_OPTS="${LOADPROF_JAVA_OPTS:--Xmx2g} -Xlog:class+load:file=$log:uptime" \
    ./loadprof analyze -o "$work/startup-out" examples/phases.txt.gz >/dev/null 2>&1
  echo "class-load timeline of one example run ($(grep -c . "$log") classes loaded):"
  local phase class
  while IFS='|' read -r phase class; do
    printf '  %-52s %ss\n' "$phase" "$(grep -m1 "\] $class " "$log" | sed 's/^\[\([0-9.]*\)s\].*/\1/')"
  done <<'PHASES'
JVM up, main class loaded|dev.loadprof.cli.LoadprofCli
picocli command tree built, analyze chosen|dev.loadprof.cli.PipelineOptionArgs
Beam options registry (PipelineOptionsFactory) starts|org.apache.beam.sdk.options.PipelineOptionsFactory
options done, output directory checked|dev.loadprof.cli.OutputDir
pipeline construction starts|dev.loadprof.pipelines.AnalyzePipeline
job running: the trace is opened|dev.loadprof.beam.ParseTraces$ParseFn$ProgressStream
job ended, outcome reported|dev.loadprof.cli.JobOutcome
PHASES
  echo "  last class loaded                                    $(tail -1 "$log" | sed 's/^\[\([0-9.]*\)s\].*/\1/')s"
}

# CPU samples (1 ms) of one example run by async-profiler (its agent ships in lib/), by thread kind.
startup_cpu() {
  local so="$work/libasyncProfiler.so" out="$work/startup-cpu.collapsed"
  [ -f "$so" ] || unzip -q -o -j pipelines/target/lib/async-profiler-*.jar linux-x64/libasyncProfiler.so -d "$work"
  LOADPROF_JAVA_OPTS="${LOADPROF_JAVA_OPTS:--Xmx2g} -agentpath:$so=start,event=cpu,interval=1ms,threads,file=$out,collapsed" \
    ./loadprof analyze -o "$work/startup-out" examples/phases.txt.gz >/dev/null 2>&1
  python3 - "$out" <<'PY'
import collections, sys
kinds = collections.Counter()
for line in open(sys.argv[1]):
    stack, n = line.rsplit(" ", 1)
    thread = stack.split(";", 1)[0].strip("[]")
    if "C2 Compiler" in thread or "C1 Compiler" in thread: k = "JIT compiler threads"
    elif thread.startswith("main"): k = "main thread (CLI, options, pipeline construction)"
    elif "GC" in thread or "G1" in thread: k = "GC threads"
    elif "direct-runner" in thread or "pool" in thread: k = "DirectRunner worker threads"
    else: k = "other (" + thread.split("-")[0][:20] + ")"
    kinds[k] += int(n)
total = sum(kinds.values())
print("CPU samples of one example run: %.2f CPU-s" % (total / 1000))
for k, n in kinds.most_common(8):
    print("  %-52s %5.2f s  %3.0f %%" % (k, n / 1000, 100 * n / total))
PY
}

# The example with the launcher's start-up settings off and on, interleaved in one run (medians):
# the ratios hold even when other jobs load the machine.
startup_settings() {
  local rounds="$1"
  local -a names=("no CDS, C2, G1 (as before)" "CDS archive" "C1 + serial GC" "CDS + C1 + serial GC (default)")
  local -a envs=("LOADPROF_CDS=off LOADPROF_C1_BELOW_MB=0" "LOADPROF_C1_BELOW_MB=0"
    "LOADPROF_CDS=off" "LOADPROF_CDS=on")
  declare -A times
  for round in $(seq "$rounds"); do
    for k in "${!names[@]}"; do
      local t0 t1
      t0=$(date +%s.%N)
      env ${envs[$k]} ./loadprof analyze -o "$work/startup-out-$k" examples/phases.txt.gz \
        >"$work/startup-settings-$k.log" 2>&1
      t1=$(date +%s.%N)
      times[$k]+="$(echo "$t1 - $t0" | bc) "
    done
  done
  local base; base=$(echo "${times[0]}" | tr ' ' '\n' | grep . | median)
  for k in "${!names[@]}"; do
    local m; m=$(echo "${times[$k]}" | tr ' ' '\n' | grep . | median)
    printf '%-28s median %5.2f s  %4.2fx of before  (rounds: %s)\n' "${names[$k]}" "$m" \
      "$(echo "$m / $base" | bc -l)" "${times[$k]% }"
    for f in profile.pb.gz histogram.txt functions.txt flame.folded summary.json report.html; do
      cmp -s "$work/startup-out-0/$f" "$work/startup-out-$k/$f" || echo "  OUTPUT DIFFERS: $f"
    done
  done
  echo "uptime: $(uptime)"
}

# A 64-CPU 3 s trace (165 MB of text) gzipped; the parse step's plain-Java work on it with
# and without the read-ahead thread, then ./loadprof analyze both ways (interleaved, medians).
gzip_read_ahead() {
  local rounds="${1:-3}" dir="$work/gzip" file="${2:-}"
  build
  if [ -z "$file" ]; then
    mkdir -p "$dir"
    [ -f "$dir/base.txt" ] || java -Xmx2g -cp "$(classpath)" dev.loadprof.bench.GenerateBigTrace "$dir/base.txt" 64 3
    [ -f "$dir/base.txt.gz" ] || gzip -k "$dir/base.txt"
    file="$dir/base.txt.gz"
  fi
  ls -l "$file"
  java -Xmx1g -cp "$(classpath)" dev.loadprof.bench.GzipReadAhead "$file" "$rounds"
  declare -A times
  for round in $(seq "$rounds"); do
    for ahead in false true; do
      t=$(LOADPROF_JAVA_OPTS="-Xmx2g -Dloadprof.readAhead=$ahead" timed "$work/gzip-$ahead.log" \
        ./loadprof analyze -o "$work/gzip-out-$ahead" "$file")
      times[$ahead]+="$t "
    done
  done
  for ahead in false true; do
    echo "analyze end to end, read-ahead $ahead: median $(echo "${times[$ahead]}" | tr ' ' '\n' | grep . | median) s (rounds: ${times[$ahead]% })"
  done
  for f in profile.pb.gz histogram.txt functions.txt flame.folded summary.json; do
    cmp -s "$work/gzip-out-false/$f" "$work/gzip-out-true/$f" || echo "OUTPUT DIFFERS: $f"
  done
  echo "uptime: $(uptime)"
}

cliff() {
  local gb="${1:-1}" file
  build
  file="$work/cliff-${gb}g.txt"
  [ -f "$file" ] || java -Xmx2g -cp "$(classpath)" dev.loadprof.bench.GenerateBigTrace "$file" 64 $(( gb * 18 ))
  local t0 t1
  if [ "${2:-}" = gz ]; then # the issue's setting: a gzipped trace, against zcat | wc -l
    [ -f "$file.gz" ] || gzip -1 -k "$file"
    file="$file.gz"
    t0=$(date +%s.%N); zcat "$file" | wc -l >/dev/null; t1=$(date +%s.%N)
    echo "zcat | wc -l: $(echo "$t1 - $t0" | bc) s"
  else
    t0=$(date +%s.%N); wc -l <"$file" >/dev/null; t1=$(date +%s.%N)
    echo "wc -l: $(echo "$t1 - $t0" | bc) s"
  fi
  ls -lL "$file"
  for runner in default direct flink; do
    local choice=(--runner "$runner")
    [ "$runner" = default ] && choice=() # what the launcher chooses by size
    rm -rf "$work/cliff-out-$runner"
    t0=$(date +%s.%N)
    /usr/bin/time -v ./loadprof analyze "${choice[@]}" -o "$work/cliff-out-$runner" "$file" \
      >"$work/cliff-$runner.log" 2>"$work/cliff-$runner.time" || echo "$runner: exit $?"
    t1=$(date +%s.%N)
    echo "$runner: wall $(echo "$t1 - $t0" | bc) s, $(grep -E 'Maximum resident' "$work/cliff-$runner.time" | sed 's/^\s*//')"
    grep -h "running on embedded Flink" "$work/cliff-$runner.time" || true
  done
  for f in profile.pb.gz histogram.txt functions.txt flame.folded summary.json; do
    for runner in default flink; do
      cmp -s "$work/cliff-out-direct/$f" "$work/cliff-out-$runner/$f" || echo "OUTPUT DIFFERS: $runner $f"
    done
  done
  echo "uptime: $(uptime)"
}

# One big trace on all cores: ./loadprof analyze with parallelism 1 (one parse
# thread, --parallelism=1) against parallelism 2, each with the JVM's default C2 thresholds and
# with the launcher's (C2 compiles only what stays hot), interleaved; ratios within a round.
# Each run's CPU (user + sys) is kept too, for the bound below: parallelism 1 is not one core
# (the JIT, the collector and Flink's pipelined stages use the other), so parallelism 2 cannot
# take less than its CPU spread over both cores, and 2 x (p1 wall) / (p2 CPU) is the most its
# ratio could reach with the work it did.
split() {
  local gb="${1:-2}" rounds="${2:-3}" file
  build
  file="$work/cliff-${gb}g.txt"
  [ -f "$file" ] || java -Xmx2g -cp "$(classpath)" dev.loadprof.bench.GenerateBigTrace "$file" 64 $(( gb * 18 ))
  if [ "${3:-}" = gz ]; then
    [ -f "$file.gz" ] || gzip -1 -k "$file"
    file="$file.gz"
  fi
  ls -lL "$file"
  # c2-default: the JVM's own C2 thresholds (naming one at its default value keeps the
  # launcher's out); launcher: what ./loadprof picks for a trace this big.
  local -A jit=([c2-default]="-XX:Tier4InvocationThreshold=5000" [launcher]="")
  declare -A times cpus
  local t0 t1 ref
  # Untimed: the launcher's first run of a kind writes its class-data archive, and the trace
  # comes into the page cache.
  ./loadprof analyze --runner flink -o "$work/split-warm" "$file" >/dev/null 2>&1
  for round in $(seq "$rounds"); do
    t0=$(date +%s.%N)
    if [ "${3:-}" = gz ]; then zcat "$file" | wc -l >/dev/null; else wc -l <"$file" >/dev/null; fi
    t1=$(date +%s.%N)
    ref=$(echo "$t1 - $t0" | bc)
    times[reference]+="$ref "
    for j in c2-default launcher; do
      for p in 1 2; do
        LOADPROF_JAVA_OPTS="-Xmx2g ${jit[$j]}" /usr/bin/time -f '%e %U %S' -o "$work/split.time" \
          ./loadprof analyze --runner flink --parallelism=$p --parse-threads $p \
          -o "$work/split-out-$j-$p" "$file" >"$work/split-$j-$p.log" 2>&1 \
          || echo "$j parallelism $p: exit $?"
        times[$j-$p]+="$(awk '{print $1}' "$work/split.time") "
        cpus[$j-$p]+="$(awk '{print $2 + $3}' "$work/split.time") "
      done
      local w1 w2 c1 c2
      w1=$(echo "${times[$j-1]}" | awk '{print $NF}'); w2=$(echo "${times[$j-2]}" | awk '{print $NF}')
      c1=$(echo "${cpus[$j-1]}" | awk '{print $NF}'); c2=$(echo "${cpus[$j-2]}" | awk '{print $NF}')
      echo "round $round, $j: parallelism 1 $w1 s ($c1 CPU-s, $(echo "scale=2; $c1 / $w1" | bc) cores)," \
        "2 $w2 s ($c2 CPU-s, $(echo "scale=2; $c2 / $w2" | bc) cores); ratio $(echo "scale=2; $w1 / $w2" | bc)," \
        "bound 2 x $w1 / $c2 = $(echo "scale=2; 2 * $w1 / $c2" | bc); reference (wc -l) $ref s;" \
        "$(uptime | sed 's/.*load/load/')"
    done
  done
  for j in c2-default launcher; do
    local r1 r2 bounds
    r1=$(echo "${times[$j-1]}" | tr ' ' '\n' | grep . | median)
    r2=$(echo "${times[$j-2]}" | tr ' ' '\n' | grep . | median)
    bounds=$(paste -d' ' <(echo "${times[$j-1]}" | tr ' ' '\n' | grep .) \
      <(echo "${cpus[$j-2]}" | tr ' ' '\n' | grep .) | awk '{printf "%.2f ", 2 * $1 / $2}')
    echo "$j: medians parallelism 1 $r1 s ($(echo "${cpus[$j-1]}" | tr ' ' '\n' | grep . | median) CPU-s)," \
      "2 $r2 s ($(echo "${cpus[$j-2]}" | tr ' ' '\n' | grep . | median) CPU-s), ratio $(echo "scale=2; $r1 / $r2" | bc);" \
      "per-round ratios: $(paste -d/ <(echo "${times[$j-1]}" | tr ' ' '\n' | grep .) <(echo "${times[$j-2]}" | tr ' ' '\n' | grep .) | bc -l | xargs printf '%.2f ')" \
      "bounds (2 x p1 wall / p2 CPU): $bounds"
  done
  echo "reference median $(echo "${times[reference]}" | tr ' ' '\n' | grep . | median) s"
  for f in profile.pb.gz histogram.txt functions.txt flame.folded summary.json; do
    for o in c2-default-2 launcher-1 launcher-2; do
      cmp -s "$work/split-out-c2-default-1/$f" "$work/split-out-$o/$f" || echo "OUTPUT DIFFERS: $o $f"
    done
  done
}

# A trace far bigger than the heap (10 GB): the default path once, wall and max
# RSS, and the samples and serial share against the generator's known answers.
huge() {
  local gb="${1:-10}" file
  build
  file="$work/huge-${gb}g.txt"
  [ -f "$file" ] || java -Xmx2g -cp "$(classpath)" dev.loadprof.bench.GenerateBigTrace "$file" 64 $(( gb * 18 ))
  ls -l "$file"
  cat "$file.expected"
  rm -rf "$work/huge-out"
  /usr/bin/time -v ./loadprof analyze -o "$work/huge-out" "$file" >"$work/huge.log" 2>"$work/huge.time" \
    || echo "exit $?"
  grep -E "Elapsed|Maximum resident" "$work/huge.time"
  python3 - "$work/huge-out/summary.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
p = max((p for r in d["runs"] for p in r["processes"]), key=lambda p: p["samples"])
serial = sum(f["flat_real_pct"] for f in p["top_functions"] if f["name"].startswith("serial"))
print("samples=%d serial_real_share=%.6f" % (p["samples"], serial / 100))
PY
  echo "uptime: $(uptime)"
  [ -n "${KEEP:-}" ] || rm -f "$file"
}

# Seconds of 64 CPUs busy per size label (GenerateBigTrace: ~55 MB of text per second).
curve_seconds() {
  case "$1" in 10m) echo 0.15 ;; 100m) echo 1.75 ;; 1g) echo 18 ;; 5g) echo 92 ;;
    *) echo "unknown size $1 (10m, 100m, 1g, 5g)" >&2; return 2 ;; esac
}

# The cost curve: ./loadprof analyze at each size by the launcher's choice (no --runner), on
# embedded Flink, and on the DirectRunner up to 1 GB (above, its bundles outgrow the 2 GB heap:
# section 8). /usr/bin/time gives wall and max RSS; the runners interleaved within a round.
# Rows go to $work/curve.tsv (size bytes runner round wall_s rss_kb load1), medians to
# $work/curve-medians.tsv, the plot to bench/cost-curve.png.
curve() {
  local rounds="${1:-3}" sizes="${2:-10m 100m 1g 5g}" big_rounds="${CURVE_BIG_ROUNDS:-1}"
  build
  local tsv="$work/curve.tsv"
  : >"$tsv"
  # The launcher's first-use files (CDS archive) are made here, not in a timed run.
  ./loadprof analyze -o "$work/curve-warm-up" examples/phases.txt.gz >/dev/null 2>&1
  for size in $sizes; do
    local file="$work/curve-$size.txt" seconds
    seconds=$(curve_seconds "$size")
    if [ ! -f "$file" ]; then
      local need_kb=$(( $(echo "$seconds * 58000" | bc | cut -d. -f1) + 4000000 )) # + 4 GB headroom
      local free_kb; free_kb=$(df -k --output=avail "$work" | tail -1)
      [ "$free_kb" -gt "$need_kb" ] || { echo "not enough disk for $size: ${free_kb} kB free" >&2; return 1; }
      java -Xmx2g -cp "$(classpath)" dev.loadprof.bench.GenerateBigTrace "$file" 64 "$seconds"
    fi
    local bytes; bytes=$(stat -c %s "$file")
    local runners="default flink direct" n="$rounds"
    [ "$bytes" -gt $(( 1200 << 20 )) ] && { runners="default flink"; n="$big_rounds"; }
    echo "== $size: $bytes bytes of text; runners: $runners; rounds: $n"
    for round in $(seq "$n"); do
      for runner in $runners; do
        local choice=(--runner "$runner") out="$work/curve-out-$size-$runner"
        [ "$runner" = default ] && choice=()
        rm -rf "$out"
        /usr/bin/time -f '%e %M' -o "$work/curve.time" ./loadprof analyze "${choice[@]}" -o "$out" "$file" \
          >"$work/curve-$size-$runner.log" 2>&1 || echo "$size $runner: exit $?"
        local load; load=$(cut -d' ' -f1 /proc/loadavg)
        read -r wall rss <"$work/curve.time"
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$size" "$bytes" "$runner" "$round" "$wall" "$rss" "$load" >>"$tsv"
        printf '  round %s %-8s wall %7.2f s  max RSS %5.0f MB  load %s%s\n' "$round" "$runner" "$wall" \
          "$(echo "$rss / 1024" | bc -l)" "$load" \
          "$(grep -q 'running on embedded Flink' "$work/curve-$size-$runner.log" && echo '  (launcher: Flink)')"
      done
    done
    local ref=flink
    for runner in $runners; do
      for f in profile.pb.gz histogram.txt functions.txt flame.folded summary.json; do
        cmp -s "$work/curve-out-$size-$ref/$f" "$work/curve-out-$size-$runner/$f" \
          || echo "  OUTPUT DIFFERS: $size $runner $f"
      done
    done
    echo "  uptime: $(uptime)"
  done
  python3 - "$tsv" "$work/curve-medians.tsv" <<'PY'
import collections, statistics, sys
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    size, nbytes, runner, rnd, wall, rss, load = line.split("\t")
    rows[(int(nbytes), size, runner)].append((float(wall), int(rss)))
with open(sys.argv[2], "w") as out:
    print("| text | runner | runs | median wall s | median max RSS MB | walls |")
    print("| ---: | --- | ---: | ---: | ---: | --- |")
    for (nbytes, size, runner), v in sorted(rows.items()):
        wall = statistics.median_low([w for w, _ in v]); rss = statistics.median_low([r for _, r in v])
        out.write("%s\t%d\t%.2f\t%.0f\n" % (runner, nbytes, wall, rss / 1024))
        print("| %.0f MB | %s | %d | %.2f | %.0f | %s |" % (nbytes / 1e6, runner, len(v), wall, rss / 1024,
              ", ".join("%.2f" % w for w, _ in v)))
PY
  java -Djava.awt.headless=true -cp "$(classpath)" dev.loadprof.bench.CostCurvePlot \
    "$work/curve-medians.tsv" bench/cost-curve.png
  ls -l bench/cost-curve.png
}

# perf.data end to end. Records `mixed ITERS 2` system-wide at 20 kHz with
# sched_switch (>= 1 M records for ITERS=4000), then ROUNDS rounds of, interleaved: (a) perf
# script of the recommended fields to /dev/null alone, (b) ./loadprof analyze X.data (default
# pieces), (c) the same with --decode-split cpu; each as a ratio to (a) within its round
# (wall, and user+sys CPU of the command and its children from /usr/bin/time). Then checks that
# (b) and (c) give byte-identical outputs to analyze of the text of one perf script.
perfdata() {
  local rounds="${1:-3}" iters="${2:-4000}" data="$work/perfdata-mixed.data" wl="$work/workloads"
  build
  if [ ! -x "$wl/mixed" ]; then
    rm -rf "$wl" && cp -r "$home/../shared/workloads" "$wl" && make -s -C "$wl"
  fi
  if [ ! -f "$data" ]; then
    perf record -q -k mono -a -g -e cpu-clock/freq=20000/ -e sched:sched_switch -o "$data.tmp" \
      -- "$wl/mixed" "$iters" 2 >/dev/null 2>&1
    mv "$data.tmp" "$data"
  fi
  ls -l "$data"
  perf report --stats -i "$data" 2>/dev/null | grep -E 'TOTAL events|SAMPLE events|COMM events|FORK events|EXIT events' \
    | sed 's/^\s*/  /'
  # Warm-up: the launcher's first-use files (CDS archive) are not charged to a timed run.
  ./loadprof analyze -o "$work/perfdata-warm-up" examples/phases.txt.gz >/dev/null 2>&1
  local -a names=(a-perf-script b-analyze c-analyze-cpu)
  declare -A wall cpu
  for round in $(seq "$rounds"); do
    for name in "${names[@]}"; do
      local t="$work/perfdata-$name.time"
      case "$name" in
        a-perf-script) /usr/bin/time -f '%e %U %S %M' -o "$t" perf script -F \
          comm,pid,tid,cpu,time,period,event,trace,ip,sym,dso --ns --show-task-events -i "$data" \
          >/dev/null 2>"$work/perfdata-$name.log" ;;
        b-analyze) /usr/bin/time -f '%e %U %S %M' -o "$t" ./loadprof analyze \
          -o "$work/perfdata-out-b" "$data" >"$work/perfdata-$name.log" 2>&1 ;;
        c-analyze-cpu) /usr/bin/time -f '%e %U %S %M' -o "$t" ./loadprof analyze --decode-split cpu \
          -o "$work/perfdata-out-c" "$data" >"$work/perfdata-$name.log" 2>&1 ;;
      esac
      local e u s m
      read -r e u s m <"$t"
      wall[$name,$round]=$e
      cpu[$name,$round]=$(echo "$u + $s" | bc)
      printf 'round %s %-14s wall %6.2f s  cpu %6.2f s  max RSS %4.0f MB  load %s\n' "$round" "$name" \
        "$e" "${cpu[$name,$round]}" "$(echo "$m / 1024" | bc -l)" "$(cut -d' ' -f1 /proc/loadavg)"
    done
  done
  for name in "${names[@]}"; do
    local ratios="" walls="" cpus=""
    for round in $(seq "$rounds"); do
      ratios+="$(echo "${wall[$name,$round]} / ${wall[a-perf-script,$round]}" | bc -l) "
      walls+="${wall[$name,$round]} "
      cpus+="${cpu[$name,$round]} "
    done
    printf '%-14s median wall %6.2f s  cpu %6.2f s  ratio to (a) median %5.2f  (ratios: %s)\n' "$name" \
      "$(echo "$walls" | tr ' ' '\n' | grep . | median)" "$(echo "$cpus" | tr ' ' '\n' | grep . | median)" \
      "$(echo "$ratios" | tr ' ' '\n' | grep . | median)" \
      "$(for r in $ratios; do printf '%.2f ' "$r"; done)"
  done
  echo "records read: $(records_of "$work/perfdata-out-b/summary.json")"
  # The text loadprof's own decoder asks perf script for (PerfScriptDecoder.command, one piece),
  # decoded now, after the rounds: perf symbolizes with the files present when it runs (a
  # deleted DSO prints [unknown]), so a text decoded much earlier may differ from the pieces.
  local text="$work/perfdata-mixed.txt"
  perf script -f -i "$data" --ns --show-task-events --show-switch-events --show-lost-events \
    -F comm,pid,tid,cpu,time,period,event,trace,ip,sym,dso >"$text" 2>/dev/null
  echo "text of one perf script: $(stat -c %s "$text") bytes"
  ./loadprof analyze -o "$work/perfdata-out-text" "$text" >"$work/perfdata-text.log" 2>&1
  for out in b c; do
    # RecordIT's set: summary.json and report.html name the input file, and profile.pb.gz
    # carries perf.data's build ids, which a text trace does not have.
    for f in histogram.txt functions.txt flame.folded summary.txt; do
      cmp -s "$work/perfdata-out-text/$f" "$work/perfdata-out-$out/$f" \
        && echo "($out) identical to the text's: $f" || echo "($out) OUTPUT DIFFERS: $f"
    done
  done
  grep -h "embedded Flink" "$work"/perfdata-b-analyze.log "$work"/perfdata-c-analyze-cpu.log || true
  echo "uptime: $(uptime)"
}

# The class-data archives: the example with and without its archive,
# interleaved in one run (medians, per-round ratios), outputs compared; then how long the
# training runs of a build take (LOADPROF_CDS=train, all classpaths).
cds() {
  local rounds="${1:-7}"
  ./loadprof analyze -o "$work/cds-out-on" examples/phases.txt.gz >/dev/null 2>&1 # builds if needed
  echo "uptime: $(uptime)"
  local on="" off="" ratios="" mode t0 t1 a b
  for round in $(seq "$rounds"); do
    for mode in on off; do
      t0=$(date +%s.%N)
      LOADPROF_CDS=$mode ./loadprof analyze -o "$work/cds-out-$mode" examples/phases.txt.gz \
        >"$work/cds-$mode.log" 2>&1
      t1=$(date +%s.%N)
      [ "$mode" = on ] && a=$(echo "$t1 - $t0" | bc) || b=$(echo "$t1 - $t0" | bc)
    done
    on+="$a "; off+="$b "; ratios+="$(echo "$a / $b" | bc -l | cut -c1-5) "
  done
  local m_on m_off
  m_on=$(echo "$on" | tr ' ' '\n' | grep . | median)
  m_off=$(echo "$off" | tr ' ' '\n' | grep . | median)
  printf 'with archive     median %5.2f s  (rounds: %s)\n' "$m_on" "${on% }"
  printf 'without archive  median %5.2f s  (rounds: %s)\n' "$m_off" "${off% }"
  printf 'ratio of medians %4.2f; per-round ratios median %s\n' "$(echo "$m_on / $m_off" | bc -l)" \
    "$(echo "$ratios" | tr ' ' '\n' | grep . | median)"
  for f in profile.pb.gz histogram.txt functions.txt flame.folded summary.json report.html; do
    cmp -s "$work/cds-out-on/$f" "$work/cds-out-off/$f" || echo "  OUTPUT DIFFERS: $f"
  done
  t0=$(date +%s.%N)
  LOADPROF_CDS=train ./loadprof
  t1=$(date +%s.%N)
  echo "training runs (all classpaths): $(echo "$t1 - $t0" | bc) s"
  echo "uptime: $(uptime)"
}

startup() {
  # Builds if needed and makes the launcher's first-use files, so that no timed run pays for them.
  ./loadprof analyze -o "$work/startup-out" examples/phases.txt.gz >/dev/null 2>&1
  startup_cases "${1:-3}"
  startup_settings "${1:-3}"
  startup_timeline
  startup_cpu
}

# The parser's CPU time at several revisions, interleaved: each revision is built in a worktree
# under $work (HEAD is this working tree), then every round runs ParseCpuTime once per revision.
parse_ab() {
  local rounds="${1:-5}"
  shift || true
  local revs=("$@")
  ((${#revs[@]})) || revs=(HEAD)
  local dirs=() rev d
  for rev in "${revs[@]}"; do
    if [ "$rev" = HEAD ]; then
      mvn -q -o -B -pl pipelines -am test-compile >/dev/null
      dirs+=("$home")
    else
      d="$work/rev-$(git rev-parse --short "$rev")"
      [ -d "$d" ] || git worktree add -q --detach "$d" "$rev"
      (cd "$d" && mvn -q -o -B -pl pipelines -am test-compile >/dev/null)
      dirs+=("$d")
    fi
  done
  local deps
  deps="$(classpath)"
  deps="${deps#*schemas/target/classes:}"
  for ((r = 1; r <= rounds; r++)); do
    for i in "${!revs[@]}"; do
      d="${dirs[$i]}"
      printf 'round %d %-10s ' "$r" "${revs[$i]}"
      # The revision's classes first; ParseCpuTime itself from this tree (older ones lack it).
      java -Xmx2g -cp "$d/transforms/target/test-classes:$d/transforms/target/classes:$d/schemas/target/classes:$home/pipelines/target/test-classes:$deps" \
        dev.loadprof.bench.ParseCpuTime 9 ${PARSE_FILE:-}
    done
  done
}

# The reactor's classpath (this worktree's modules' classes and every dependency, jelf included),
# without installing anything into ~/.m2.
reactor_classpath() {
  local file="$work/reactor-classpath.txt"
  if [ ! -f "$file" ] || [ transforms/pom.xml -nt "$file" ] || [ pipelines/pom.xml -nt "$file" ]; then
    mvn -q -o -B -pl transforms,pipelines -am dependency:build-classpath -Dmdep.includeScope=test \
      -Dmdep.outputFile="$file" >/dev/null
  fi
  echo "pipelines/target/test-classes:pipelines/target/classes:transforms/target/classes:schemas/target/classes:$(cat "$file")"
}

native_reader() {
  local rounds="${1:-3}" iters="${2:-200}" wl="$work/workloads" cp
  if [ ! -x "$wl/mixed" ]; then
    local sources="$home/../shared/workloads"
    [ -d "$sources" ] || sources=/work/shared/workloads # from a worktree under /work/wt
    rm -rf "$wl" && cp -r "$sources" "$wl" && make -s -C "$wl"
  fi
  gcc -O1 -fno-omit-frame-pointer -fno-optimize-sibling-calls -pthread -o "$wl/deep" bench/deep.c
  cp="$(reactor_classpath)"
  local mixed="$work/native-mixed.data" deep="$work/native-deep.data"
  [ -f "$mixed" ] || perf record -q -k mono -a -g -e cpu-clock/freq=20000/ -e sched:sched_switch \
    -o "$mixed" -- "$wl/mixed" "$iters" 2 >/dev/null 2>&1
  [ -f "$deep" ] || perf record -q -k mono -a -g -e cpu-clock -e sched:sched_switch \
    -o "$deep" -- "$wl/deep" 4000 48 >/dev/null 2>&1
  local -a names=(a-perf-script b-native-read c-analyze d-analyze-perf-script)
  for data in "$mixed" "$deep"; do
    ls -l "$data"
    declare -A wall=() rss=()
    for round in $(seq "$rounds"); do
      for name in "${names[@]}"; do
        local t="$work/native-$name.time" log="$work/native-$name.log"
        case "$name" in
          a-perf-script) /usr/bin/time -f '%e %M' -o "$t" perf script -F \
            comm,pid,tid,cpu,time,period,event,trace,ip,sym,dso --ns --show-task-events -i "$data" \
            >/dev/null 2>"$log" ;;
          b-native-read) /usr/bin/time -f '%e %M' -o "$t" java -cp "$cp" \
            dev.loadprof.bench.NativeReadTime "$data" >"$log" 2>&1 ;;
          c-analyze) /usr/bin/time -f '%e %M' -o "$t" java -Dloadprof.home="$home" -cp "$cp" \
            dev.loadprof.cli.LoadprofCli analyze -o "$work/native-out-c" "$data" >"$log" 2>&1 ;;
          d-analyze-perf-script) /usr/bin/time -f '%e %M' -o "$t" java -Dloadprof.home="$home" \
            -cp "$cp" dev.loadprof.cli.LoadprofCli analyze --perf-data-reader perf-script \
            -o "$work/native-out-d" "$data" >"$log" 2>&1 ;;
        esac
        local e m
        read -r e m <"$t"
        wall[$name,$round]=$e
        rss[$name,$round]=$m
        printf 'round %s %-22s wall %6.2f s  max RSS %5.0f MB  load %s\n' "$round" "$name" "$e" \
          "$(echo "$m / 1024" | bc -l)" "$(cut -d' ' -f1 /proc/loadavg)"
      done
    done
    for name in "${names[@]}"; do
      local ratios="" walls=""
      for round in $(seq "$rounds"); do
        ratios+="$(echo "${wall[$name,$round]} / ${wall[a-perf-script,$round]}" | bc -l) "
        walls+="${wall[$name,$round]} "
      done
      printf '%-22s median wall %6.2f s  ratio to perf script median %5.2f  (ratios: %s)\n' "$name" \
        "$(echo "$walls" | tr ' ' '\n' | grep . | median)" \
        "$(echo "$ratios" | tr ' ' '\n' | grep . | median)" \
        "$(for r in $ratios; do printf '%.2f ' "$r"; done)"
    done
    cat "$work/native-b-native-read.log"
    # The two analyze paths must agree: the same histogram, functions and profile.
    for f in histogram.txt functions.txt flame.folded profile.pb.gz; do
      if cmp -s "$work/native-out-c/$f" "$work/native-out-d/$f"; then
        echo "same $f"
      else
        echo "DIFFERENT $f"
      fi
    done
  done
}

# The cost of keeping switch records whole (prev_state, switch-out stacks, wakers) on the 2 GB
# synthetic trace (GenerateBigTrace, as cliff and split; it has almost no switch records) or, with
# kind "switches", one with a switch and a wakeup per 4 samples: a revision before they were kept and
# one after, each exported with git archive under $work and built there (package, nothing
# installed into ~/.m2). Each revision archives the trace once (round 0); then each round analyzes
# the text and the archive once per revision, the revisions' order alternating. One row per step
# to $work/wall-cost-KIND.tsv (round rev step wall_s cpu_s maxrss_kb archive_bytes load1), then
# medians and ratios.
wall_cost() {
  local rounds="${1:-5}" gb="${2:-2}" before="${3:-60bc932}" after="${4:-HEAD}" kind="${5:-plain}"
  before=$(git rev-parse --short "$before")
  after=$(git rev-parse --short "$after")
  local rev d
  for rev in "$before" "$after"; do
    d="$work/wc-$rev"
    if [ ! -f "$d/pipelines/target/loadprof.jar" ]; then
      mkdir -p "$d" && git archive "$rev" | tar -x -C "$d"
      (cd "$d" && mvn -q -o -B package -DskipTests -Dloadprof.skipCluster=true >"$d/build.log" 2>&1)
    fi
  done
  local file="$work/cliff-${gb}g.txt" a="$work/wc-$after"
  if [ "$kind" = switches ]; then
    # A switch record (with its stack) and a wakeup per 4 samples: this tree's generator.
    file="$work/switches-${gb}g.txt"
    mvn -q -o -B -pl pipelines -am test-compile >/dev/null
    [ -f "$file" ] || java -Xmx8g -cp "transforms/target/test-classes:$(classpath)" dev.loadprof.bench.GenerateBigTrace "$file" 64 $(( gb * 12 )) switches
  fi
  [ -f "$file" ] || java -Xmx2g -cp "$a/pipelines/target/test-classes:$a/transforms/target/test-classes:$a/transforms/target/classes:$a/schemas/target/classes:$a/pipelines/target/lib/*" \
    dev.loadprof.bench.GenerateBigTrace "$file" 64 $(( gb * 18 ))
  ls -l "$file"
  local tsv="$work/wall-cost-$kind.tsv" order r step out t heap="${WALL_COST_ARCHIVE_HEAP:--Xmx6g}"
  : >"$tsv"
  # One step, timed: a row of the table.
  wall_cost_step() {
    local r="$1" rev="$2" step="$3" d="$work/wc-$2" out="$work/wc-out-$2-$3"
    rm -rf "$out"
    case "$step" in
      archive) rm -rf "$work/wc-archive-$rev"
        set -- env LOADPROF_JAVA_OPTS="$heap" "$d/loadprof" archive --out "$work/wc-archive-$rev" "$file" ;;
      analyze-text) set -- "$d/loadprof" analyze -o "$out" "$file" ;;
      analyze-archive) set -- "$d/loadprof" analyze -o "$out" "$work/wc-archive-$rev" ;;
    esac
    /usr/bin/time -f '%e %U %S %M' -o "$work/wc-time" "$@" >"$work/wc-$rev-$step-$r.log" 2>&1 \
      || echo "$rev $step: exit $? (log $work/wc-$rev-$step-$r.log)"
    t=$(tail -1 "$work/wc-time")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$r" "$rev" "$step" "$(echo "$t" | cut -d' ' -f1)" \
      "$(echo "$t" | awk '{print $2 + $3}')" "$(echo "$t" | cut -d' ' -f4)" \
      "$(du -sb "$work/wc-archive-$rev" 2>/dev/null | cut -f1)" "$(cut -d' ' -f1 /proc/loadavg)" >>"$tsv"
    tail -1 "$tsv"
  }
  # The archive once per revision, with a larger heap for both: at the default 2 GB the
  # DirectRunner's archive of this trace ran out of memory (exit 1 after, an OutOfMemoryError
  # in Beam's immutability check before).
  for rev in "$before" "$after"; do
    wall_cost_step 0 "$rev" archive
    "$work/wc-$rev/loadprof" analyze -o "$work/wc-out-$rev-warm" "$file" >/dev/null 2>&1 # untimed
  done
  for ((r = 1; r <= rounds; r++)); do
    order=("$before" "$after")
    ((r % 2)) || order=("$after" "$before")
    for rev in "${order[@]}"; do
      for step in analyze-text analyze-archive; do
        wall_cost_step "$r" "$rev" "$step"
      done
    done
  done
  python3 - "$tsv" "$before" "$after" <<'PY'
import statistics, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
before, after = sys.argv[2], sys.argv[3]
def med(rev, step, col):
    return statistics.median(float(r[col]) for r in rows if r[1] == rev and r[2] == step)
print("rounds:", len({r[0] for r in rows if r[0] != "0"}), " load average (1 min) during the runs: %s-%s"
      % (min(float(r[7]) for r in rows), max(float(r[7]) for r in rows)))
for step in ("archive", "analyze-text", "analyze-archive"):
    for col, name in ((3, "wall s"), (4, "cpu s")):
        b, a = med(before, step, col), med(after, step, col)
        if not any(r[1] == after and r[2] == step for r in rows):
            continue
        per = [float(x[col]) / float(y[col]) for x in rows for y in rows
               if x[0] == y[0] and x[2] == y[2] == step and x[1] == after and y[1] == before]
        print("%-16s %-6s median %s %.2f, %s %.2f, ratio %.3f; per-round ratios %s"
              % (step, name, before, b, after, a, a / b, " ".join("%.3f" % p for p in per)))
size = {rev: max(int(r[6] or 0) for r in rows if r[1] == rev) for rev in (before, after)}
print("archive bytes: %s %d, %s %d, ratio %.3f" % (before, size[before], after, size[after],
                                                  size[after] / size[before]))
PY
  for f in histogram.txt functions.txt flame.folded profile.pb.gz; do
    cmp -s "$work/wc-out-$before-analyze-text/$f" "$work/wc-out-$after-analyze-text/$f" \
      && echo "same $f" || echo "DIFFERENT $f"
  done
}

# One timed step of a text-trace bench (local, text-ab): COMMAND..., where an argument {out} is
# the step's output directory ($work/PREFIX-out-STEP-INPUT, emptied first), or for the step
# "read" `zcat | wc -l` (or `cat | wc -l`) of INPUT; the row "round input step wall cpu max-rss
# load" goes to TSV and the terminal.
text_step() { # PREFIX TSV ROUND INPUT STEP [COMMAND...]
  local prefix="$1" tsv="$2" r="$3" input="$4" step="$5" t a args=()
  local out="$work/$prefix-out-$step-$(basename "$input")"
  shift 5
  rm -rf "$out"
  for a in "$@"; do
    if [ "$a" = "{out}" ]; then args+=("$out"); else args+=("$a"); fi
  done
  set -- "${args[@]}"
  if [ "$step" = read ]; then
    if [[ "$input" == *.gz ]]; then set -- bash -c 'zcat "$1" | wc -l' _ "$input"
    else set -- bash -c 'cat "$1" | wc -l' _ "$input"; fi
  fi
  /usr/bin/time -f '%e %U %S %M' -o "$work/$prefix-time" "$@" >"$work/$prefix-$step.log" 2>&1 \
    || echo "$step $(basename "$input"): exit $? (log $work/$prefix-$step.log)"
  t=$(tail -1 "$work/$prefix-time")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$r" "$(basename "$input")" "$step" \
    "$(echo "$t" | cut -d' ' -f1)" "$(echo "$t" | awk '{print $2 + $3}')" \
    "$(echo "$t" | cut -d' ' -f4)" "$(cut -d' ' -f1 /proc/loadavg)" | tee -a "$tsv"
}

# The rows of text_step per input: each step's medians, then for each "a/b" of WALL (and of
# CPU) the ratio of a to b taken within each round, and the median of those.
text_summary() { # TSV "STEP..." "A/B..." ["A/B..." for CPU]
  python3 - "$@" <<'PY'
import statistics, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
steps = sys.argv[2].split()
pairs = {3: sys.argv[3].split(), 4: (sys.argv[4] if len(sys.argv) > 4 else "").split()}
print("load average (1 min) during the runs: %s-%s" % (min(float(r[6]) for r in rows),
                                                      max(float(r[6]) for r in rows)))
for inp in dict.fromkeys(r[1] for r in rows):
    def val(rnd, step, col):
        return [float(r[col]) for r in rows if r[0] == rnd and r[1] == inp and r[2] == step][0]
    rounds = sorted({r[0] for r in rows if r[1] == inp})
    print(inp)
    width = max(len(step) for step in steps)
    for step in steps:
        col = [r for r in rows if r[1] == inp and r[2] == step]
        print("  %-*s wall %.2f s, cpu %.2f s, max rss %.0f MB (medians)" % (width, step,
              statistics.median(float(r[3]) for r in col), statistics.median(float(r[4]) for r in col),
              statistics.median(float(r[5]) for r in col) / 1024))
    for c, what in ((3, "wall"), (4, "cpu")):
        for pair in pairs[c]:
            a, b = pair.split("/")
            per = [val(x, a, c) / val(x, b, c) for x in rounds]
            print("  %s %s / %s: median %.2f; per round %s" % (what, a, b, statistics.median(per),
                  " ".join("%.2f" % p for p in per)))
PY
}

# "same NAME FILE" or "DIFFERENT NAME FILE" for each FILE of two output directories.
same_outputs() { # DIR_A DIR_B NAME FILE...
  local a="$1" b="$2" name="$3" f
  shift 3
  for f in "$@"; do
    cmp -s "$a/$f" "$b/$f" && echo "same $name $f" || echo "DIFFERENT $name $f"
  done
}

# Big text traces in the CLI's JVM (LocalAnalysis, which joins each window as soon as the trace
# has passed it) against embedded Flink (the launcher's choice for them before), each round
# running: the time to read the file (zcat | wc -l, or cat | wc -l), analyze as the launcher
# runs it now, and analyze --runner flink; rows to $work/local-big.tsv, then medians and ratios
# within a round, and the outputs of the two compared.
local_big() {
  local rounds="${1:-3}" gz="$work/cliff-2g.txt.gz" sw="$work/switches-2g.txt"
  shift || true
  local inputs=("$@") # given traces instead of the two synthetic ones
  build
  if [ ${#inputs[@]} = 0 ]; then
    [ -f "$work/cliff-2g.txt" ] || java -Xmx2g -cp "$(classpath)" dev.loadprof.bench.GenerateBigTrace "$work/cliff-2g.txt" 64 36
    [ -f "$gz" ] || gzip -c "$work/cliff-2g.txt" >"$gz" # gzip's default level, as a user's
    [ -f "$sw" ] || java -Xmx8g -cp "$(classpath)" dev.loadprof.bench.GenerateBigTrace "$sw" 64 24 switches
    inputs=("$gz" "$sw")
  fi
  ls -l "${inputs[@]}"
  local tsv="$work/local-big.tsv" r input step runner=()
  : >"$tsv"
  for ((r = 1; r <= rounds; r++)); do
    for input in "${inputs[@]}"; do
      local steps=(read local flink)
      ((r % 2)) || steps=(read flink local)
      text_step local-big "$tsv" "$r" "$input" read
      for step in "${steps[@]:1}"; do
        runner=()
        [ "$step" = flink ] && runner=(--runner flink)
        text_step local-big "$tsv" "$r" "$input" "$step" \
          ./loadprof analyze --quiet "${runner[@]}" -o {out} "$input"
      done
    done
  done
  text_summary "$tsv" "read local flink" "local/read flink/read local/flink"
  local name
  for input in "${inputs[@]}"; do
    name=$(basename "$input")
    same_outputs "$work/local-big-out-local-$name" "$work/local-big-out-flink-$name" "$name" \
      profile.pb.gz histogram.txt functions.txt flame.folded summary.json offcpu.folded
  done
}

# Text traces end to end at two builds against reading the file: `zcat | wc -l` (or `cat | wc
# -l`), ./loadprof analyze of a BEFORE build, and of this tree, the order of the three turning
# each round; wall, CPU and max RSS from /usr/bin/time, the load average, ratios within each
# round and medians; then the nine outputs of the two builds compared byte for byte.
text_ab() {
  local rounds="${1:-3}" before="${2:-ed44df9}"
  shift 2 || true
  local inputs=("$@")
  ((${#inputs[@]})) || inputs=(/tmp/speed/deep5.txt.gz "$work/cliff-2g.txt.gz")
  local bdir="$before"
  if [ ! -d "$bdir" ]; then # a revision: built once from git archive, never installed
    bdir="$work/text-ab-$(git rev-parse --short "$before")"
    if [ ! -f "$bdir/pipelines/target/loadprof.jar" ]; then
      mkdir -p "$bdir" && git archive "$before" | tar -x -C "$bdir"
      (cd "$bdir" && mvn -q -o -B package -DskipTests >/dev/null)
    fi
  fi
  ./loadprof --help >/dev/null # builds this tree if needed
  local tsv="$work/text-ab.tsv" r input step order launcher
  : >"$tsv"
  for ((r = 1; r <= rounds; r++)); do
    for input in "${inputs[@]}"; do
      case $((r % 3)) in
        1) order=(read before now) ;;
        2) order=(now read before) ;;
        0) order=(before now read) ;;
      esac
      for step in "${order[@]}"; do
        launcher=./loadprof
        [ "$step" = before ] && launcher="$bdir/loadprof"
        # (for "read" text_step reads the file itself and leaves the command)
        text_step text-ab "$tsv" "$r" "$input" "$step" \
          "$launcher" analyze --quiet -o {out} "$input"
      done
    done
  done
  text_summary "$tsv" "read before now" "before/read now/read now/before" "now/before"
  local name
  for input in "${inputs[@]}"; do
    name=$(basename "$input")
    same_outputs "$work/text-ab-out-before-$name" "$work/text-ab-out-now-$name" "$name" \
      histogram.txt functions.txt flame.folded summary.json summary.txt offcpu.folded \
      report.html profile.pb.gz offcpu.pb.gz
  done
}

case "${1:-}" in
  text-ab) shift; text_ab "$@" ;;
  startup) shift; startup "$@" ;;
  cds) shift; cds "$@" ;;
  curve) shift; curve "$@" ;;
  perfdata) shift; perfdata "$@" ;;
  gzip) shift; gzip_read_ahead "$@" ;;
  cliff) shift; cliff "$@" ;;
  split) shift; split "$@" ;;
  huge) shift; huge "$@" ;;
  decode) shift; decode "$@" ;;
  symbols) shift; symbols "$@" ;;
  stages) shift; stages "$@" ;;
  parse-ab) shift; parse_ab "$@" ;;
  wall-cost) shift; wall_cost "$@" ;;
  local) shift; local_big "$@" ;;
  native) shift; native_reader "$@" ;;
  e2e) shift; exec bash "$home/bench/perfdata-e2e.sh" "$@" ;;
  files) shift; exec bash "$home/bench/perfdata-e2e.sh" --files "$@" ;;
  pairs) shift; exec bash "$home/bench/repair-pairs.sh" "$@" ;;
  local-compare) shift; exec bash "$home/bench/judged-local.sh" "$@" ;;
  dwarf) shift; exec bash "$home/bench/dwarf-cost.sh" "$@" ;;
  archive-sizes) archive_sizes ;;
  same-trace) shift; same_trace "$@" ;;
  fleet) shift; fleet "$@" ;;
  big) shift; big "$@" ;;
  scale) shift; scale "$@" ;;
  stores) shift; stores "$@" ;;
  *) sed -n "2,/^# Inputs/p" "$0"; exit 2 ;;
esac
