#!/usr/bin/env bash
# bench/flink-shuffle.sh [INPUT...]: the bytes analyze, archive and analyze-of-an-archive move
# between tasks on embedded Flink (--runner flink), per input record, from Flink's own task I/O
# counters (numBytesOut / numBytesIn), for bench/RESULTS.md section 35 and README's sizing.
#
# Inputs (default: example synth): example = examples/phases.txt.gz (real, 2 CPUs); synth = a
# GenerateBigTrace 64-CPU text with switches and wakeups (64 CPUs x 2 s: 0.24 GB); real = a
# system-wide perf recording (cpu-clock + sched_switch, -g) of /work/shared/workloads/mixed.c
# (built here; `mixed MIXED_ITERS 2 2`: every process on the machine is in it), turned into text
# by perf script (root, perf); or a path to a trace file of your own.
# Each input: `analyze --runner flink` of the text, `archive --runner flink` of it, and
# `analyze --runner flink` of that archive, one Flink run at a time (runner-configs/flink-local:
# parallelism 2). FLINK_SHUFFLE_ARGS adds options to every run (e.g. --parallelism=1, with
# FLINK_SHUFFLE_LABEL=-p1 to keep its runs apart). Tables to stdout, runs under $BENCH_DIR/runs/.
#
# How the bytes are read: Flink finds metric reporters only as services, so a directory under
# $BENCH_DIR holds ShuffleBytesReporter (pipelines' test sources) and its META-INF/services
# file; a Flink config dir there (passed as --flinkConfDir, a FlinkRunner option) names that
# reporter; the CLI runs with that directory on its classpath (the launcher's own java command,
# LOADPROF_DRY_RUN=1, with the directory appended). runner-configs/ is not changed. The reporter
# writes each task's final counters when the task ends; flink_shuffle_table.py sums them per
# task and per stage boundary and divides by the records the job read (summary.json's
# records.read, summed over runs).
# Needs `mvn -q -B -o package -DskipTests -Dloadprof.cds.skip=true` first (jar, test classes).
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="${BENCH_DIR:-/tmp/flink-shuffle}"
rest_port="${FLINK_SHUFFLE_REST_PORT:-18431}" # the embedded cluster's REST API, on loopback
extra="${FLINK_SHUFFLE_ARGS:-}" # more options for every run, e.g. --parallelism=1
suffix="${FLINK_SHUFFLE_LABEL:-}" # appended to each input's name in runs/ and the tables
cd "$home"
[ $# -gt 0 ] || set -- example synth
mkdir -p "$work"
[ -f pipelines/target/loadprof.jar ] && [ -f pipelines/target/test-classes/dev/loadprof/bench/ShuffleBytesReporter.class ] \
  || { echo "build first: mvn -q -B -o package -DskipTests -Dloadprof.cds.skip=true" >&2; exit 2; }

# The reporter on a classpath directory of its own (not the whole test-classes: its resources
# would shadow the CLI's).
reporter="$work/reporter"
rm -rf "$reporter"
mkdir -p "$reporter/META-INF/services" "$reporter/dev/loadprof/bench"
cp pipelines/target/test-classes/dev/loadprof/bench/ShuffleBytesReporter*.class "$reporter/dev/loadprof/bench/"
echo 'dev.loadprof.bench.ShuffleBytesReporter$Factory' \
  >"$reporter/META-INF/services/org.apache.flink.metrics.reporter.MetricReporterFactory"

test_classpath() {
  if [ ! -f "$work/test-classpath.txt" ] || [ pipelines/pom.xml -nt "$work/test-classpath.txt" ]; then
    (cd pipelines && mvn -q -o -B dependency:build-classpath -Dmdep.includeScope=test \
      -Dmdep.outputFile="$work/test-classpath.txt" >/dev/null)
  fi
  echo "pipelines/target/test-classes:pipelines/target/classes:transforms/target/test-classes:transforms/target/classes:schemas/target/classes:$(cat "$work/test-classpath.txt")"
}

input_file() { # NAME -> path of the trace text (made if missing)
  case "$1" in
    example) echo "$home/examples/phases.txt.gz" ;;
    synth)
      local f="$work/synth-switches.txt"
      [ -f "$f" ] || java -Xmx2g -cp "$(test_classpath)" dev.loadprof.bench.GenerateBigTrace "$f" 64 2 switches >&2
      echo "$f" ;;
    real)
      local f="$work/real-mixed.txt"
      if [ ! -f "$f" ]; then
        cc -O1 -fno-omit-frame-pointer -g -pthread -I/work/shared/workloads -o "$work/mixed" \
          /work/shared/workloads/mixed.c
        # ~6 ms per iteration: MIXED_ITERS=3000 is ~18 s on idle CPUs (50 s at load 13, RESULTS 35)
        perf record -k mono -a -g -e cpu-clock -e sched:sched_switch -o "$work/real-mixed.data" \
          -- "$work/mixed" "${MIXED_ITERS:-3000}" 2 2 >/dev/null 2>"$work/real-record.log"
        perf script -i "$work/real-mixed.data" >"$f" 2>>"$work/real-record.log"
        rm -f "$work/real-mixed.data"
      fi
      echo "$f" ;;
    *) echo "$1" ;;
  esac
}

run() { # NAME JOB LOADPROF-ARGS...: one Flink run with the reporter, its counters to NAME-JOB/
  local name="$1" job="$2" dir="$work/runs/$1-$2"
  shift 2
  rm -rf "$dir"
  mkdir -p "$dir/conf"
  printf '%s\n' "metrics.reporters: shuffle" \
    "metrics.reporter.shuffle.factory.class: dev.loadprof.bench.ShuffleBytesReporter\$Factory" \
    "metrics.reporter.shuffle.file: $dir/metrics.tsv" \
    "rest.bind-address: 127.0.0.1" "rest.address: 127.0.0.1" \
    "rest.bind-port: $rest_port" "rest.port: $rest_port" >"$dir/conf/config.yaml"
  local cmd
  read -r -a cmd <<<"$(LOADPROF_DRY_RUN=1 ./loadprof "$@" --runner flink --flinkConfDir="$dir/conf" $extra)"
  local i
  for i in "${!cmd[@]}"; do
    [ "${cmd[$i]}" = -cp ] && cmd[$((i + 1))]="${cmd[$((i + 1))]}:$reporter"
  done
  cmd=("${cmd[0]}" "-Dloadprof.home=$home" "${cmd[@]:1}")
  echo "$name $job: ./loadprof $* --runner flink --flinkConfDir=$dir/conf $extra" >&2
  /usr/bin/time -f '%e s wall, %M KB max RSS' -o "$dir/time" "${cmd[@]}" >"$dir/console.txt" 2>&1 &
  local pid=$! id=""
  # The job's plan (which edge is a hash shuffle, a forward or a broadcast) from the embedded
  # cluster's REST API while the job runs; the table prints each task's consumers with it.
  while kill -0 "$pid" 2>/dev/null && [ ! -s "$dir/plan.json" ]; do
    sleep 0.5
    id=$(curl -sf "http://127.0.0.1:$rest_port/jobs" 2>/dev/null \
      | python3 -c 'import json, sys; j = json.load(sys.stdin)["jobs"]; print(j[0]["id"] if j else "")' 2>/dev/null) || true
    # (a job still being set up answers with an empty plan: asked again)
    [ -n "$id" ] && curl -sf "http://127.0.0.1:$rest_port/jobs/$id/plan" 2>/dev/null \
      | grep -q '"nodes"' && curl -sf "http://127.0.0.1:$rest_port/jobs/$id/plan" >"$dir/plan.json" || true
  done
  wait "$pid" || { tail -20 "$dir/console.txt" >&2; exit 1; }
  [ -s "$dir/plan.json" ] || echo "  (no plan: the REST API on port $rest_port did not answer)" >&2
  echo "  $(cat "$dir/time"), $(wc -l <"$dir/metrics.tsv") counters" >&2
}

for name in "$@"; do
  file="$(input_file "$name")"
  label="$(basename "$name")$suffix"
  ls -l "$file" >&2
  run "$label" analyze analyze -o "$work/runs/$label-analyze/out" "$file"
  rm -rf "$work/archive-$label"
  run "$label" archive archive -o "$work/archive-$label" "$file"
  run "$label" analyze-archive analyze -o "$work/runs/$label-analyze-archive/out" "$work/archive-$label"
  for job in analyze archive analyze-archive; do
    python3 bench/flink_shuffle_table.py "$work/runs/$label-$job/metrics.tsv" \
      "$work/runs/$label-analyze/out/summary.json" "$label $job" "$work/runs/$label-$job/plan.json"
  done
done
