#!/usr/bin/env bash
# Fleet-scale benches against a local S3 server with request latency (issue 35). Results are in
# bench/RESULTS.md. Needs the tree built (mvn -q -B -o package -DskipTests, then
# mvn -q -B -o test-compile -pl pipelines); never installs anything.
#
#   bench/fleet.sh store [LATENCY_MS]    starts S3Mock and the latency proxy (LatencyProxy: fixed
#                                        latency per request, default 10 ms, requests counted by
#                                        kind) if not running; prints the AWS_* to reach them
#   bench/fleet.sh throughput [ROUNDS] [CPUS] [SECONDS]  archive and analyze of one synthetic
#                                        CPUS-CPU trace (default 64 CPUs, 3 s) on local disk and on
#                                        S3 behind the proxy, rounds interleaved, medians, the
#                                        requests of each S3 step; outputs compared
#   bench/fleet.sh scale [NIGHTS] [RUNS_PER_NIGHT]  the synthetic fleet archive: one night archived
#                                        by loadprof archive, cloned into NIGHTS nights
#                                        (FleetArchive); then requests and time of the client
#                                        before the job (one night, all nights), a night's analyze,
#                                        and nightly on the last night
#   bench/fleet.sh tenk [ROUNDS] [all|client|nightly|local]  issue 35's targets at 10,000 runs
#                                        (see tenk_archives): the client before a job on a
#                                        10,000-run night (client), and analyze of night 30 vs
#                                        nightly with nights 1-29's figures stored, on S3 (nightly:
#                                        its nightly did not end in 33 min on the DirectRunner) or
#                                        on local copies (local: no server, fleet-b100 only; the
#                                        builds compared are FLEET_BUILDS); moto's S3 server by default
#   bench/fleet.sh counts | reset        the proxy's counts since the last reset
# Everything generated goes under $FLEET_DIR (default /tmp/fleet-bench), S3Mock's data included;
# S3Mock and the proxy keep running for the next call (bench/fleet.sh stop ends them).
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="${FLEET_DIR:-/tmp/fleet-bench}"
s3port="${FLEET_S3_PORT:-19481}"
# The S3 server behind the proxy: s3mock (S3Mock's jar, built by the stores module) or moto
# (moto's S3 in server mode: python3 -m moto.server, pip package moto[server]).
store_kind="${FLEET_STORE:-s3mock}"
port="${FLEET_PROXY_PORT:-$((s3port + 1))}" # the proxy's
proxy="http://127.0.0.1:$port"
mkdir -p "$work"
cd "$home"

classpath() {
  if [ ! -f "$work/test-classpath.txt" ] || [ pipelines/pom.xml -nt "$work/test-classpath.txt" ]; then
    (cd pipelines && mvn -q -o -B dependency:build-classpath -Dmdep.includeScope=test \
      -Dmdep.outputFile="$work/test-classpath.txt" >/dev/null)
  fi
  echo "pipelines/target/test-classes:pipelines/target/classes:transforms/target/classes:schemas/target/classes:stores/target/classes:$(cat "$work/test-classpath.txt")"
}

beam_args=(--endpoint="$proxy" --awsRegion=us-east-1
  --s3ClientFactoryClass=dev.loadprof.stores.PathStyleS3ClientBuilderFactory
  '--awsCredentialsProvider={"@type": "StaticCredentialsProvider", "accessKeyId": "bench", "secretAccessKey": "bench"}')

store() {
  local latency="${1:-10}"
  if [ "$store_kind" = moto ]; then
    if ! curl -s "http://127.0.0.1:$s3port/" -o /dev/null 2>/dev/null; then
      mkdir -p "$work/s3"
      # moto's S3 in server mode, in memory: its data goes when it stops
      nohup python3 -m moto.server -H 127.0.0.1 -p "$s3port" >"$work/s3/moto.log" 2>&1 &
      echo $! >"$work/s3/moto.pid"
      until curl -s "http://127.0.0.1:$s3port/" -o /dev/null 2>/dev/null; do sleep 0.5; done
    fi
    curl -fs -X PUT "http://127.0.0.1:$s3port/loadprof" -o /dev/null 2>/dev/null || true
  elif ! curl -fs "http://127.0.0.1:$s3port/loadprof" -o /dev/null 2>/dev/null; then
    mkdir -p "$work/s3"
    # retainFilesOnExit: the generated archive survives a restart of the server
    nohup java -Xmx768m -jar stores/target/s3mock/s3mock.jar --server.port=0 \
      --server.address=127.0.0.1 --com.adobe.testing.s3mock.httpPort="$s3port" \
      --com.adobe.testing.s3mock.store.root="$work/s3/data" \
      --com.adobe.testing.s3mock.store.retainFilesOnExit=true \
      >"$work/s3/s3mock.log" 2>&1 &
    echo $! >"$work/s3/s3mock.pid"
    # up once it makes the bucket, or has it already (retained from a run before: PUT says 409)
    until curl -fs -X PUT "http://127.0.0.1:$s3port/loadprof" -o /dev/null 2>/dev/null \
      || curl -fs "http://127.0.0.1:$s3port/loadprof" -o /dev/null 2>/dev/null; do sleep 1; done
  fi
  if ! curl -fs "$proxy/__proxy/counts" -o /dev/null 2>/dev/null; then
    nohup java -Xmx256m -cp pipelines/target/test-classes dev.loadprof.bench.LatencyProxy \
      "$port" "$s3port" "$latency" >"$work/s3/proxy.log" 2>&1 &
    echo $! >"$work/s3/proxy-$port.pid"
    until curl -fs "$proxy/__proxy/counts" -o /dev/null 2>/dev/null; do sleep 0.2; done
  fi
  curl -fs -X POST "$proxy/__proxy/latency?ms=$latency" >/dev/null
  export AWS_ENDPOINT_URL="$proxy" AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench AWS_REGION=us-east-1
}

stop() {
  for p in proxy-$port s3mock moto; do
    [ -f "$work/s3/$p.pid" ] && kill "$(cat "$work/s3/$p.pid")" 2>/dev/null || true
    rm -f "$work/s3/$p.pid"
  done
}

reset() { curl -fs -X POST "$proxy/__proxy/reset" >/dev/null; }
counts() { curl -fs "$proxy/__proxy/counts"; }
# The counts on one line: "GET=3 HEAD=4 ... total=12".
counts_line() { counts | grep -v "^bytes" | awk '{printf "%s=%s ", $1, $2}'; }

# Wall seconds of one command (its output to a log).
timed() {
  local log="$1"; shift
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >"$log" 2>&1 || { echo "FAILED ($?): $* (see $log)" >&2; tail -5 "$log" >&2; return 1; }
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

records_of() { # sample + switch + wakeup + task records read, from summary.json
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sum(r['records']['read'] for r in d['runs']))" "$1"
}

# Archive and analyze of one synthetic trace on local disk and on S3 behind the proxy; rounds
# interleave the stores; per core = records / wall / 2 cores.
throughput() {
  local rounds="${1:-3}" cpus="${2:-64}" seconds="${3:-3}" cores=2
  local trace="$work/tp-${cpus}x${seconds}.txt"
  [ -f "$trace" ] || java -Xmx2g -cp "$(classpath)" dev.loadprof.bench.GenerateBigTrace \
    "$trace" "$cpus" "$seconds" >/dev/null
  store 10
  echo "throughput: $(du -h "$trace" | cut -f1) trace, $cpus CPUs; DirectRunner, $cores cores;" \
    "S3: $store_kind behind $(curl -fs -X POST "$proxy/__proxy/latency?ms=10") per request"
  declare -A ta tn
  local r store archive out t
  for r in $(seq "$rounds"); do
    for store in local s3; do
      archive="$work/tp-archive-$r"; out="$work/tp-out-$store"
      [ "$store" = s3 ] && archive="s3://loadprof/tp/archive-$r-$$"
      rm -rf "$work/tp-archive-$r" "$out"
      reset
      t=$(timed "$work/tp-archive-$store.log" ./loadprof archive --out "$archive" "$trace")
      ta[$store]+="$t "
      [ "$store" = s3 ] && echo "round $r s3 archive $t s: $(counts_line)"
      reset
      t=$(timed "$work/tp-analyze-$store.log" ./loadprof analyze --out "$out" "$archive")
      tn[$store]+="$t "
      [ "$store" = s3 ] && echo "round $r s3 analyze $t s: $(counts_line)"
      [ "$store" = local ] && echo "round $r local archive ${ta[local]##* } analyze $t s" \
        | sed 's/  */ /g'
    done
  done
  local records; records=$(records_of "$work/tp-out-local/summary.json")
  local ma mn la ln
  la=$(echo "${ta[local]}" | tr ' ' '\n' | grep . | median)
  ln=$(echo "${tn[local]}" | tr ' ' '\n' | grep . | median)
  for store in local s3; do
    ma=$(echo "${ta[$store]}" | tr ' ' '\n' | grep . | median)
    mn=$(echo "${tn[$store]}" | tr ' ' '\n' | grep . | median)
    printf '%-5s archive median %6.1f s %8.0f records/s/core (%.2fx local) | analyze median %6.1f s %8.0f records/s/core (%.2fx local)\n' \
      "$store" "$ma" "$(echo "$records / $ma / $cores" | bc -l)" "$(echo "$la / $ma" | bc -l)" \
      "$mn" "$(echo "$records / $mn / $cores" | bc -l)" "$(echo "$ln / $mn" | bc -l)"
  done
  echo "records: $records"
  for f in profile.pb.gz histogram.txt functions.txt flame.folded; do
    cmp -s "$work/tp-out-local/$f" "$work/tp-out-s3/$f" && echo "identical: $f" \
      || echo "OUTPUTS DIFFER: $f"
  done
}

# The synthetic fleet: night 1 archived by loadprof archive from generated traces (copies of
# $FLEET_BASE, default the shipped example, dealt over 3 hosts), then cloned.
base="${FLEET_BASE:-examples/phases.txt.gz}"
base_name="$(basename "$base" | sed 's/\..*//; s/[^a-z0-9]/-/g')"
scale_archive() {
  local nights="$1" per_night="$2" dst="$3" first=2026-10-01
  local src="s3://loadprof/fleet/src-$base_name-$per_night" traces="$work/traces-$base_name-$per_night"
  [ -d "$traces" ] || python3 bench/fleet-traces.py "$base" "$traces" "$per_night" 1 3
  if [ ! -f "$work/$base_name-$per_night-source.done" ]; then
    curl -fs -X POST "$proxy/__proxy/latency?ms=0" >/dev/null
    ./loadprof archive --quiet --out "$src" --night "$first" "$traces/night-$first"/*.txt.gz \
      >"$work/fleet-source.log" 2>&1
    touch "$work/$base_name-$per_night-source.done"
  fi
  if [ ! -f "$work/$base_name-$nights-$per_night.done" ]; then
    curl -fs -X POST "$proxy/__proxy/latency?ms=0" >/dev/null
    java -Xmx2g -cp "$(classpath)" dev.loadprof.bench.FleetArchive "$src" "$first" "$per_night" \
      "$dst" "$first" "$nights" 8 "${beam_args[@]}" 2>&1 | grep -v DEBUG | tail -3
    touch "$work/$base_name-$nights-$per_night.done"
  fi
}

scale() {
  local nights="${1:-30}" per_night="${2:-20}"
  # A bucket of its own: S3Mock lists a prefix by reading the metadata of every object of the
  # bucket, so other archives there would slow every LIST.
  local dst="s3://fleet-$base_name/n$nights-r$per_night" last
  curl -fs -X PUT "http://127.0.0.1:$s3port/fleet-$base_name" -o /dev/null || true
  store 0
  scale_archive "$nights" "$per_night" "$dst"
  last=$(date -d "2026-10-01 + $((nights - 1)) days" +%F)
  curl -fs -X POST "$proxy/__proxy/latency?ms=10" >/dev/null
  echo "scale: $nights nights x $per_night runs ($((nights * per_night)) runs of $base, 3 hosts) in $dst;" \
    "S3Mock behind 10 ms per request"
  local cp; cp="$(classpath)"
  for sel in "$last" "2026-10-01..$last"; do
    java -Xmx1g -cp "$cp" dev.loadprof.cli.ClientStartBench "$proxy" "$dst" "$sel" \
      "${beam_args[@]}" 2>"$work/client.log" | grep -v '^bytes' | tr '\n' ' '
    echo
  done
  local t
  reset
  t=$(timed "$work/scale-analyze.log" ./loadprof analyze --nights "$last" --out "$work/scale-analyze" "$dst")
  echo "analyze of night $last: $t s; $(counts_line)"
  reset
  t=$(timed "$work/scale-nightly.log" ./loadprof nightly --out "$work/scale-nightly" "$dst")
  echo "nightly (all $nights nights, latest $last): $t s; $(counts_line)"
  reset
  t=$(timed "$work/scale-nightly2.log" ./loadprof nightly --out "$work/scale-nightly2" "$dst")
  echo "nightly again (figures stored by the first, if any): $t s; $(counts_line)"
}

# At 10,000 runs (issue 35's targets): two archives made on local disk by FleetTree from 10 runs
# of $FLEET_BASE archived by loadprof archive, each put into a bucket of its own by UploadTree
# (many PutObjects at once, straight to the server, not through the proxy):
#   fleet-a10k: nights 1-29 of 10 hosts x 10 runs, night 30 of 100 hosts x 100 runs = 10,000
#     runs (12,900 in all): the client before a job on night 30, and on nights 1-30.
#   fleet-b100: 30 nights of 10 hosts x 10 runs (3,000 runs), nights 1-29's nightly figures
#     stored by a cold nightly of the local copy before night 30 was added: analyze of night 30
#     alone against the nightly (night 30's figures deleted before each nightly, so it computes
#     those 100 runs and reads the 2,900 others' stored figures).
# Generated data stays under $FLEET_DIR; the store is moto unless FLEET_STORE says otherwise
# (S3Mock took 13-28 PUT/s here and reads the metadata of every object of a bucket per LIST).
tenk_archives() {
  local cp="$1" src="$work/src" first=2026-10-01
  [ -d "$work/traces" ] || python3 bench/fleet-traces.py "$base" "$work/traces" 10 1 10
  [ -f "$src/loadprof-archive.json" ] || ./loadprof archive --quiet --out "$src" --night "$first" \
    "$work/traces/night-$first"/*.txt.gz >"$work/src.log" 2>&1
  fleet_tree() { java -Xmx2g -cp "$cp" dev.loadprof.bench.FleetTree "$src" "$first" "$@" 2 2>&1 \
    | grep -v DEBUG | tail -1; }
  if [ ! -f "$work/b100.done" ]; then
    rm -rf "$work/b100"
    fleet_tree "$work/b100" "$first" 29 10 10
    timed "$work/b100-cold.log" ./loadprof nightly --out "$work/b100-cold-out" "$work/b100" \
      | sed 's/^/cold nightly of nights 1-29 on local disk (stores their figures), s: /'
    grep 'figures of' "$work/b100-cold.log"
    fleet_tree "$work/b100" 2026-10-30 1 10 10
    touch "$work/b100.done"
  fi
  [ "${2:-}" = local ] && return # the local part needs neither fleet-a10k nor a server
  if [ ! -f "$work/a10k.done" ]; then
    rm -rf "$work/a10k"
    fleet_tree "$work/a10k" "$first" 29 10 10
    fleet_tree "$work/a10k" 2026-10-30 1 100 100
    touch "$work/a10k.done"
  fi
  local a server; server="$(cat "$work/s3/$store_kind.pid" 2>/dev/null || echo none)"
  for a in ${3:-b100 a10k}; do
    if [ ! -f "$work/$a.put.$server" ]; then # once per server process (moto keeps it in memory)
      curl -fs -X PUT "http://127.0.0.1:$s3port/fleet-$a" -o /dev/null || true
      java -cp "$cp" dev.loadprof.bench.UploadTree put "http://127.0.0.1:$s3port" "$work/$a" \
        "s3://fleet-$a/archive" 16 2>&1 | grep -v DEBUG | tail -1
      touch "$work/$a.put.$server"
    fi
  done
}

# Target (b) on local disk (the in-JVM path), no server: fleet-b100 made on local disk only;
# for each build (FLEET_BUILDS: directories of built trees, default this one; each its own
# ./loadprof), a copy of the archive without figures, a cold nightly that stores that build's
# figures, then per round night 30's figures deleted, analyze of night 30 alone and the warm
# nightly, the builds in turn within each round; medians and ratios per build, and every output
# of the cold and of the warm nightly compared (cmp) with the first build's.
# Wall and CPU seconds (user + system, all threads) of one command run in directory $1.
timed_cpu() {
  local dir="$1" log="$2"; shift 2
  (cd "$dir" && /usr/bin/time -f "%e %U %S" -o "$log.time" "$@" >"$log" 2>&1) \
    || { echo "FAILED: $* (see $log)" >&2; tail -5 "$log" >&2; return 1; }
  awk '{printf "%s %.2f\n", $1, $2 + $3}' "$log.time"
}

tenk_local() {
  local rounds="$1" builds=(${FLEET_BUILDS:-$home}) b i r t first_out
  tenk_archives "$(classpath)" local
  echo "tenk local: builds ${builds[*]}; load $(cut -d' ' -f1-3 /proc/loadavg)"
  declare -A ta tn ca cn
  for i in "${!builds[@]}"; do
    b="${builds[$i]}"
    echo "build $i: $b at $(cat "$b/.revision" 2>/dev/null || git -C "$b" rev-parse --short HEAD 2>/dev/null)"
    rm -rf "$work/b100-local-$i" && cp -al "$work/b100" "$work/b100-local-$i" # new files only
    rm -rf "$work/b100-local-$i/figures"
    t=$(timed_cpu "$b" "$work/tenk-local-cold-$i.log" ./loadprof nightly \
      --out "$work/tenk-local-cold-$i" "$work/b100-local-$i")
    echo "build $i cold nightly (3,000 runs, no figures stored): ${t% *} s, CPU ${t#* } s; $(grep -o 'figures of .*' "$work/tenk-local-cold-$i.log")"
  done
  for r in $(seq "$rounds"); do
    for i in "${!builds[@]}"; do
      b="${builds[$i]}"
      # (figures/RUN_ID/: where builds before 8c5016f stored them, for a build compared)
      rm -rf "$work/b100-local-$i"/figures/night=2026-10-30 "$work/b100-local-$i"/figures/*-2026-10-30 \
        "$work/b100-local-$i"/night-figures/night=2026-10-30
      t=$(timed_cpu "$b" "$work/tenk-local-analyze-$i.log" ./loadprof analyze \
        --nights 2026-10-30 --out "$work/tenk-local-analyze-$i" "$work/b100-local-$i")
      ta[$i]+="${t% *} "; ca[$i]+="${t#* } "
      echo "round $r build $i local analyze --nights 2026-10-30 (100 runs): ${t% *} s, CPU ${t#* } s; load $(cut -d' ' -f1 /proc/loadavg)"
      t=$(timed_cpu "$b" "$work/tenk-local-nightly-$i.log" ./loadprof nightly \
        --out "$work/tenk-local-nightly-$i" "$work/b100-local-$i")
      tn[$i]+="${t% *} "; cn[$i]+="${t#* } "
      echo "round $r build $i local nightly (3,000 runs): ${t% *} s, CPU ${t#* } s; $(grep -o 'figures of .*' "$work/tenk-local-nightly-$i.log")"
    done
  done
  local ma mn f kind
  for i in "${!builds[@]}"; do
    ma=$(echo "${ta[$i]}" | tr ' ' '\n' | grep . | median)
    mn=$(echo "${tn[$i]}" | tr ' ' '\n' | grep . | median)
    printf 'build %s local: median analyze %.2f s, nightly %.2f s: nightly / analyze = %.2f\n' \
      "$i" "$ma" "$mn" "$(echo "$mn / $ma" | bc -l)"
    ma=$(echo "${ca[$i]}" | tr ' ' '\n' | grep . | median)
    mn=$(echo "${cn[$i]}" | tr ' ' '\n' | grep . | median)
    printf 'build %s local CPU (user + system): median analyze %.2f s, nightly %.2f s: %.2f\n' \
      "$i" "$ma" "$mn" "$(echo "$mn / $ma" | bc -l)"
    [ "$i" = 0 ] && continue
    for kind in cold nightly analyze; do
      first_out="$work/tenk-local-$kind-0"
      for f in $(cd "$first_out" && find . -type f | sort); do
        cmp -s "$first_out/$f" "$work/tenk-local-$kind-$i/$f" && echo "identical ($kind): $f" \
          || echo "OUTPUTS DIFFER ($kind): $f"
      done
      [ "$(cd "$first_out" && find . -type f | sort)" = "$(cd "$work/tenk-local-$kind-$i" \
        && find . -type f | sort)" ] || echo "OUTPUT FILES DIFFER ($kind): other names"
    done
  done
}

tenk() {
  local rounds="${1:-3}" parts="${2:-all}" cp t r rounds_client=""
  if [ "$parts" = local ]; then tenk_local "$rounds"; return; fi
  store 0
  cp="$(classpath)"
  # fleet-a10k is for the client only
  tenk_archives "$cp" s3 "$(case "$parts" in nightly) echo b100 ;; *) echo b100 a10k ;; esac)"
  curl -fs -X POST "$proxy/__proxy/latency?ms=10" >/dev/null
  echo "tenk: $store_kind behind 10 ms per request; $(git rev-parse --short HEAD); load $(cut -d' ' -f1-3 /proc/loadavg)"
  case "$parts" in all|client) ;; *) rounds_client=0 ;; esac
  for r in $(seq "${rounds_client:-$rounds}"); do
    echo "client, night 30 of fleet-a10k (10,000 runs, 100 hosts), round $r: $(java -Xmx1g -cp "$cp" \
      dev.loadprof.cli.ClientStartBench "$proxy" s3://fleet-a10k/archive 2026-10-30 \
      "${beam_args[@]}" 2>"$work/client.log" | grep -v '^bytes' | tr '\n' ' ')"
  done
  [ "${rounds_client:-1}" = 0 ] || echo "client, nights 1-30 of fleet-a10k (12,900 runs): $(java \
    -Xmx1g -cp "$cp" dev.loadprof.cli.ClientStartBench "$proxy" s3://fleet-a10k/archive \
    2026-10-01..2026-10-30 "${beam_args[@]}" 2>"$work/client.log" | grep -v '^bytes' \
    | tr '\n' ' ')"
  [ "$parts" = client ] && return
  local night30=("s3://fleet-b100/archive/figures/night=2026-10-30/")
  # Night 30's night figures files (one per night index: 10) go with its runs' figures.
  night30+=("s3://fleet-b100/archive/night-figures/night=2026-10-30/")
  local ta=() tn=()
  # First a nightly of all 30 nights: it stores this build's figures (and night figures files)
  # of every night that lacks them, as the nightlies of nights 1-29 would have; each round then
  # deletes night 30's.
  t=$(timed "$work/tenk-prepare.log" ./loadprof nightly --out "$work/tenk-prepare" \
    s3://fleet-b100/archive)
  echo "prepare: nightly of nights 1-30 (stores this build's figures): $t s; $(grep -o 'figures of .*' "$work/tenk-prepare.log" | head -1)"
  for r in $(seq "$rounds"); do
    java -cp "$cp" dev.loadprof.bench.UploadTree delete "http://127.0.0.1:$s3port" "${night30[@]}" \
      2>&1 | awk '/^deleted [0-9]+ objects/ {n += $2} END {print "night 30'"'"'s stored figures deleted: " n+0 " objects (its runs'"'"' and its night figures file)"}'
    reset
    t=$(timed "$work/tenk-analyze.log" ./loadprof analyze --nights 2026-10-30 \
      --out "$work/tenk-analyze" s3://fleet-b100/archive)
    ta+=("$t")
    echo "round $r analyze --nights 2026-10-30 (100 runs): $t s; $(counts_line)"
    reset
    t=$(timed "$work/tenk-nightly.log" ./loadprof nightly --out "$work/tenk-nightly" \
      s3://fleet-b100/archive)
    tn+=("$t")
    echo "round $r nightly (3,000 runs, nights 1-29 stored): $t s; $(counts_line)"
    grep -o 'figures of .*' "$work/tenk-nightly.log" | head -1
  done
  local ma mn
  ma=$(printf '%s\n' "${ta[@]}" | median); mn=$(printf '%s\n' "${tn[@]}" | median)
  printf 'median analyze %.1f s, nightly %.1f s: nightly / analyze = %.2f\n' "$ma" "$mn" \
    "$(echo "$mn / $ma" | bc -l)"
}

case "${1:-}" in
  store) shift; store "$@"; echo "export AWS_ENDPOINT_URL=$proxy AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench AWS_REGION=us-east-1" ;;
  stop) stop ;;
  counts) counts ;;
  reset) reset ;;
  throughput) shift; throughput "$@" ;;
  scale) shift; scale "$@" ;;
  tenk) shift; store_kind="${FLEET_STORE:-moto}"; tenk "$@" ;;
  *) sed -n "2,/^# Everything/p" "$0"; exit 2 ;;
esac
