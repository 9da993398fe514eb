#!/usr/bin/env bash
# Local Flink 1.19 session cluster for loadprof, run from Maven jars (no flink-dist needed):
# one JobManager (StandaloneSessionClusterEntrypoint) and two TaskManagers (TaskManagerRunner),
# each a separate JVM bound to 127.0.0.1, configured by runner-configs/flink-cluster/config.yaml.
#
#   scripts/flink-cluster.sh start                 start missing processes, wait until 2 TMs / 4 slots
#   scripts/flink-cluster.sh stop                  stop every recorded process (TERM, then KILL), remove their tmp
#   scripts/flink-cluster.sh status                pids and the REST /overview
#   scripts/flink-cluster.sh kill-taskmanager N    kill -9 TaskManager N (fault injection)
#   scripts/flink-cluster.sh start-taskmanager N   start (or replace) TaskManager N and wait until it registered
#
# Environment: LOADPROF_FLINK_DIR   state dir for pids, logs, tmp (default <repo>/target/flink-cluster)
#              LOADPROF_FLINK_CONF  config dir (default <repo>/runner-configs/flink-cluster)
#              LOADPROF_FLINK_READY_TIMEOUT  seconds to wait for readiness (default 120)
#              LOADPROF_FLINK_NO_CURL=1  use the bash /dev/tcp HTTP fallback even if curl exists
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CONF_DIR="${LOADPROF_FLINK_CONF:-$REPO_ROOT/runner-configs/flink-cluster}"
STATE_DIR="${LOADPROF_FLINK_DIR:-$REPO_ROOT/target/flink-cluster}"
READY_TIMEOUT="${LOADPROF_FLINK_READY_TIMEOUT:-120}"
STOP_GRACE_SECONDS=15
NUM_TASKMANAGERS=2

JM_CLASS=org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint
TM_CLASS=org.apache.flink.runtime.taskexecutor.TaskManagerRunner
MEMORY_CLASS=org.apache.flink.runtime.util.bash.BashJavaUtils

die() { echo "flink-cluster.sh: $*" >&2; exit 1; }
log() { echo "flink-cluster.sh: $*" >&2; }

# --- configuration ---------------------------------------------------------------------

# Value of a flat "key: value" line in config.yaml, without surrounding quotes.
conf_value() {
  sed -n "s/^$1:[[:space:]]*//p" "$CONF_DIR/config.yaml" | tail -n 1 | sed 's/^"\(.*\)"$/\1/'
}

REST_PORT="$(conf_value rest.port)"
SLOTS_PER_TM="$(conf_value taskmanager.numberOfTaskSlots)"
[[ -n "$REST_PORT" && -n "$SLOTS_PER_TM" ]] || die "rest.port / taskmanager.numberOfTaskSlots missing in $CONF_DIR/config.yaml"
REST_URL="http://127.0.0.1:$REST_PORT"

# Flink jars for the cluster JVMs, resolved by Maven from runner-configs/flink-cluster/pom.xml.
cluster_classpath() {
  local cp_file="$STATE_DIR/classpath.txt"
  if [[ ! -s "$cp_file" || "$CONF_DIR/pom.xml" -nt "$cp_file" || "$REPO_ROOT/pom.xml" -nt "$cp_file" ]]; then
    log "resolving the Flink cluster classpath with Maven"
    local mvn_args=(-q -B -f "$CONF_DIR/pom.xml" dependency:build-classpath "-Dmdep.outputFile=$cp_file")
    # Offline first (the jars come with beam-runners-flink); online only if something is missing.
    mvn -o "${mvn_args[@]}" >"$STATE_DIR/mvn-classpath.log" 2>&1 \
      || mvn "${mvn_args[@]}" >>"$STATE_DIR/mvn-classpath.log" 2>&1 \
      || die "cannot resolve the cluster classpath, see $STATE_DIR/mvn-classpath.log"
  fi
  cat "$cp_file"
}

# JVM flags and Flink's derived memory settings (-Xmx..., -D taskmanager.memory...=...), as
# computed by Flink's own BashJavaUtils, like bin/taskmanager.sh / bin/jobmanager.sh do.
# Prints two lines: JVM params, then dynamic properties.
memory_params() {
  local command="$1" output
  output="$(java -cp "$CLASSPATH" "$MEMORY_CLASS" "$command" --configDir "$CONF_DIR" 2>&1)" \
    || die "$MEMORY_CLASS $command failed: $(echo "$output" | tail -n 3)"
  echo "$output" | sed -n 's/^BASH_JAVA_UTILS_EXEC_RESULT://p' | tail -n 2
}

# --- process bookkeeping -----------------------------------------------------------------

pid_file() { echo "$STATE_DIR/$1.pid"; }
log_file() { echo "$STATE_DIR/$1.log"; }

# Pid of a recorded process if it is alive and still runs the expected main class.
live_pid() {
  local name="$1" main_class="$2" pid
  [[ -f "$(pid_file "$name")" ]] || return 1
  pid="$(cat "$(pid_file "$name")")"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "$main_class" || return 1
  echo "$pid"
}

main_class_of() { if [[ "$1" == jobmanager ]]; then echo "$JM_CLASS"; else echo "$TM_CLASS"; fi; }

# Launches one cluster JVM in the background and records its pid.
launch() {
  local name="$1" main_class="$2" jvm_params="$3" dynamic_props="$4"
  shift 4
  local tmp_dir="$STATE_DIR/tmp/$name"
  mkdir -p "$tmp_dir"
  # Keep the previous log (e.g. of a killed TaskManager that is being replaced).
  if [[ -s "$(log_file "$name")" ]]; then mv -f "$(log_file "$name")" "$(log_file "$name").previous"; fi
  # shellcheck disable=SC2086  # JVM_OPTS, jvm_params and dynamic_props are intentionally word-split
  nohup java $JVM_OPTS $jvm_params \
    -Dlog.file="$(log_file "$name")" -Djava.io.tmpdir="$tmp_dir" \
    -Dorg.slf4j.simpleLogger.showDateTime=true \
    -Dorg.slf4j.simpleLogger.dateTimeFormat="yyyy-MM-dd HH:mm:ss,SSS" \
    -cp "$CLASSPATH" "$main_class" --configDir "$CONF_DIR" \
    $dynamic_props -D "io.tmp.dirs=$tmp_dir" "$@" \
    >"$(log_file "$name")" 2>&1 </dev/null &
  echo $! >"$(pid_file "$name")"
  log "started $name (pid $!, log $(log_file "$name"))"
}

# --- REST ---------------------------------------------------------------------------------

# GET a REST path; prints the body, fails if the server does not answer.
rest_get() {
  if [[ -z "${LOADPROF_FLINK_NO_CURL:-}" ]] && command -v curl >/dev/null 2>&1; then
    curl -fsS --max-time 5 "$REST_URL$1" 2>/dev/null
  else
    # Fallback without curl: plain HTTP/1.0 over bash's /dev/tcp.
    local response
    response="$(exec 3<>"/dev/tcp/127.0.0.1/$REST_PORT" \
      && printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' "$1" >&3 \
      && timeout 5 cat <&3)" || return 1
    [[ "$response" == "HTTP/1."?" 200"* ]] || return 1
    printf '%s\n' "${response#*$'\r\n\r\n'}"
  fi
}

json_number() { grep -o "\"$1\":[0-9]*" | head -n 1 | cut -d: -f2; }

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Waits until `check` succeeds, failing early if a process of ours died.
wait_until() {
  local what="$1" check="$2" deadline=$((SECONDS + READY_TIMEOUT)) name
  until $check; do
    for name in jobmanager $(seq -f 'taskmanager-%g' 1 "$NUM_TASKMANAGERS"); do
      if [[ -f "$(pid_file "$name")" ]] && ! live_pid "$name" "$(main_class_of "$name")" >/dev/null; then
        die "$name exited while waiting for $what; see $(log_file "$name")"
      fi
    done
    if ((SECONDS >= deadline)); then
      # The log's last lines make a failure on a machine nobody can log into readable.
      [[ -n "${WAIT_LOG_TAIL:-}" && -f "$(log_file "$WAIT_LOG_TAIL")" ]] \
        && log "last lines of $(log_file "$WAIT_LOG_TAIL"):" \
        && tail -n 20 "$(log_file "$WAIT_LOG_TAIL")" >&2
      die "timed out after ${READY_TIMEOUT}s waiting for $what; see $(log_file jobmanager) and $STATE_DIR/taskmanager-*.log"
    fi
    sleep 1
  done
}

cluster_ready() {
  local overview tms slots
  overview="$(rest_get /overview)" || return 1
  tms="$(json_number taskmanagers <<<"$overview")"
  slots="$(json_number slots-total <<<"$overview")"
  [[ "$tms" == "$NUM_TASKMANAGERS" && "$slots" == "$((NUM_TASKMANAGERS * SLOTS_PER_TM))" ]]
}

# --- commands -------------------------------------------------------------------------------

start_taskmanager_process() {
  local n="$1" name="taskmanager-$1"
  if live_pid "$name" "$TM_CLASS" >/dev/null; then
    log "$name already running"
    return 0
  fi
  # A unique resource id lets start-taskmanager see exactly this process register.
  TM_RESOURCE_ID="loadprof-tm$n-$(date +%s%N)"
  launch "$name" "$TM_CLASS" "$TM_JVM_PARAMS" "$TM_DYNAMIC_PROPS" -D "taskmanager.resource-id=$TM_RESOURCE_ID" \
    -D "taskmanager.rpc.port=$(fresh_rpc_port)"
}

# An RPC port no TaskManager of this cluster has had: a replacement on its killed predecessor's
# port met the JobManager's stale association to that address ("Discarding inbound message ...
# in read-only association") and never registered (120 s lost in a CI run). Falls back to the
# configured range once every port of it was used.
fresh_rpc_port() {
  local range first last port used="$STATE_DIR/used-rpc-ports"
  range="$(conf_value taskmanager.rpc.port)"
  first="${range%-*}" last="${range#*-}"
  touch "$used"
  for ((port = first; port <= last; port++)); do
    grep -q -x "$port" "$used" && continue
    port_in_use "$port" && continue
    echo "$port" >>"$used"
    echo "$port"
    return 0
  done
  echo "$range"
}

prepare() {
  command -v java >/dev/null 2>&1 || die "java not found on PATH"
  mkdir -p "$STATE_DIR"
  CLASSPATH="$(cluster_classpath)"
  JVM_OPTS="$(conf_value env.java.opts.all)"
}

prepare_taskmanager_params() {
  local params
  params="$(memory_params GET_TM_RESOURCE_PARAMS)"
  TM_JVM_PARAMS="$(sed -n 1p <<<"$params")"
  TM_DYNAMIC_PROPS="$(sed -n 2p <<<"$params")"
}

cmd_start() {
  prepare
  local jm_pid started_at=$SECONDS
  if jm_pid="$(live_pid jobmanager "$JM_CLASS")"; then
    log "jobmanager already running (pid $jm_pid)"
  else
    port_in_use "$REST_PORT" && die "port $REST_PORT (rest.port) is already in use by another process"
    rm -f "$STATE_DIR/used-rpc-ports" # a new JobManager has no stale associations
    local params
    params="$(memory_params GET_JM_RESOURCE_PARAMS)"
    launch jobmanager "$JM_CLASS" "$(sed -n 1p <<<"$params")" "$(sed -n 2p <<<"$params")"
  fi
  prepare_taskmanager_params
  local n
  for n in $(seq 1 "$NUM_TASKMANAGERS"); do start_taskmanager_process "$n"; done
  wait_until "$NUM_TASKMANAGERS TaskManagers / $((NUM_TASKMANAGERS * SLOTS_PER_TM)) slots at $REST_URL/overview" cluster_ready
  log "ready in $((SECONDS - started_at))s: $REST_URL ($NUM_TASKMANAGERS TaskManagers, $((NUM_TASKMANAGERS * SLOTS_PER_TM)) slots)"
}

cmd_start_taskmanager() {
  local n="$1"
  prepare
  live_pid jobmanager "$JM_CLASS" >/dev/null || die "jobmanager is not running; use 'start'"
  prepare_taskmanager_params
  TM_RESOURCE_ID=""
  start_taskmanager_process "$n"
  if [[ -n "$TM_RESOURCE_ID" ]]; then
    local started_at=$SECONDS
    tm_registered() { rest_get /taskmanagers | grep -q "\"$TM_RESOURCE_ID\""; }
    WAIT_LOG_TAIL="taskmanager-$n" wait_until "taskmanager-$n ($TM_RESOURCE_ID) to register" tm_registered
    log "taskmanager-$n registered in $((SECONDS - started_at))s"
  fi
}

# Stops one recorded process: SIGTERM, wait, SIGKILL after the grace period.
stop_process() {
  local name="$1" pid waited=0
  if pid="$(live_pid "$name" "$(main_class_of "$name")")"; then
    kill -TERM "$pid" 2>/dev/null || true
    while kill -0 "$pid" 2>/dev/null && ((waited < STOP_GRACE_SECONDS * 5)); do
      sleep 0.2
      waited=$((waited + 1))
    done
    if kill -0 "$pid" 2>/dev/null; then
      log "$name (pid $pid) ignored SIGTERM for ${STOP_GRACE_SECONDS}s, sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
    fi
    log "stopped $name (pid $pid)"
  fi
  rm -f "$(pid_file "$name")"
}

cmd_stop() {
  [[ -d "$STATE_DIR" ]] || return 0
  local pid_path name
  # TaskManagers first (also stray numbers from start-taskmanager), then the JobManager.
  for pid_path in "$STATE_DIR"/taskmanager-*.pid "$STATE_DIR"/jobmanager.pid; do
    [[ -e "$pid_path" ]] || continue
    name="$(basename "$pid_path" .pid)"
    stop_process "$name"
  done
  # The processes' scratch (each job's 78 MB jar per TaskManager, shuffle files, the RPC jar):
  # nothing there outlives the cluster, and a killed TaskManager never cleans its own. Logs stay.
  rm -rf "$STATE_DIR/tmp" "$STATE_DIR/used-rpc-ports"
}

cmd_kill_taskmanager() {
  local name="taskmanager-$1" pid
  pid="$(live_pid "$name" "$TM_CLASS")" || die "$name is not running"
  kill -KILL "$pid"
  while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
  rm -f "$(pid_file "$name")"
  log "killed $name (pid $pid) with SIGKILL"
}

cmd_status() {
  local pid_path name pid any_down=0
  for name in jobmanager $(seq -f 'taskmanager-%g' 1 "$NUM_TASKMANAGERS"); do
    if pid="$(live_pid "$name" "$(main_class_of "$name")")"; then
      echo "$name: running (pid $pid)"
    else
      echo "$name: not running"
      any_down=1
    fi
  done
  if overview="$(rest_get /overview)"; then
    echo "overview: $overview"
  else
    echo "overview: REST API at $REST_URL not answering"
    any_down=1
  fi
  return "$any_down"
}

usage() {
  die "usage: $0 start | stop | status | kill-taskmanager N | start-taskmanager N"
}

check_tm_number() {
  [[ "${1:-}" =~ ^[1-9][0-9]*$ ]] || die "expected a TaskManager number (1..$NUM_TASKMANAGERS), got '${1:-}'"
}

case "${1:-}" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  kill-taskmanager) check_tm_number "${2:-}" && cmd_kill_taskmanager "$2" ;;
  start-taskmanager) check_tm_number "${2:-}" && cmd_start_taskmanager "$2" ;;
  *) usage ;;
esac
