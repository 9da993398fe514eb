#!/usr/bin/env bash
# Memory of pipe mode (issue 32 item 2): records a large pipe-mode stream once (perf record -o -,
# saved by tee), then (1) reads it from stdin with the native reader alone (a counting sink,
# PipeStreamMemory) with a heap smaller than the stream, and (2) analyzes the same bytes with the
# CLI as a file and from stdin at one heap, for their max RSS side by side.
#   bench/pipe-memory.sh [ITERATIONS (busy loop, 9000000 ~ 190 MB)] [READER_HEAP] [CLI_HEAP]
# Needs root and perf; build first: mvn -q -B -o package -DskipTests, and test-compile transforms.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
iters="${1:-9000000}" reader_heap="${2:-128m}" cli_heap="${3:-256m}"
work="$(mktemp -d /tmp/pipe-memory.XXXXXX)"
trap 'rm -rf "$work"' EXIT
perf record -q -o - -k mono -a -g -e cpu-clock/freq=20000/ -e sched:sched_switch -- \
  sh -c "i=0; while [ \$i -lt $iters ]; do i=\$((i+1)); done" > "$work/pipe.data"
echo "stream: $(stat -c %s "$work/pipe.data") bytes"
(cd "$root" && mvn -q -B -o dependency:build-classpath -pl transforms \
  -Dmdep.outputFile="$work/cp.txt" -Dmdep.includeScope=test >/dev/null)
cp="$root/transforms/target/classes:$root/transforms/target/test-classes:$root/schemas/target/classes:$(cat "$work/cp.txt")"
/usr/bin/time -f "reader alone, -Xmx$reader_heap: %e s, max RSS %M KB" \
  java -Xmx"$reader_heap" -cp "$cp" dev.loadprof.perfdata.reader.PipeStreamMemory \
  < "$work/pipe.data" 2>&1 | grep -v "^\s*at " || true
# The packaged CLI as the launcher runs it, without the launcher (which may build).
cli="$(LOADPROF_DRY_RUN=1 "$root/loadprof" analyze x | sed 's/^java -Xmx2g//; s/ dev.loadprof.cli.LoadprofCli analyze x$//')"
for input in file stdin; do
  if [ "$input" = file ]; then src=("$work/pipe.data"); else src=(-); fi
  /usr/bin/time -f "CLI analyze from $input, -Xmx$cli_heap: exit %x, %e s, max RSS %M KB" \
    java -Xmx"$cli_heap" $cli dev.loadprof.cli.LoadprofCli analyze -q -o "$work/out-$input" \
    "${src[@]}" < "$work/pipe.data" 2>&1 | grep -v '^\[INFO\]' | tail -2 || true
done
