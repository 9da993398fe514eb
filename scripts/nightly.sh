#!/usr/bin/env bash
# The nightly job: archive the new traces, then run loadprof nightly over the whole archive.
#
#   scripts/nightly.sh --traces 'GLOB' --archive DIR --out DIR [--runner NAME] [NIGHTLY_OPTION...]
#
#   --traces GLOB   the new traces (quote the glob; repeat the option for more); traces already
#                   in the archive are skipped, so the same glob can be given every night
#   --archive DIR   the trace archive that keeps the history (created on first use)
#   --out DIR       where nightly writes nightly.json, history.csv and summary.txt
#   --runner NAME   direct (default) or flink-cluster (the local cluster is started if it is not
#                   up, and left running), or any --runner of loadprof
#   any other option goes to loadprof nightly, e.g. --comm '^mixed$' --history 7 --group-by SPEC
#
# Exit codes are loadprof nightly's: 0 no significant regression on the latest night, 3 a
# significant real-time regression, 2 bad input (also when archiving refused a trace: nothing
# is judged then), 1 the job failed.
#
# Environment: LOADPROF  the loadprof command (default: the ./loadprof of this repository)
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LOADPROF="${LOADPROF:-$REPO_ROOT/loadprof}"

usage() {
  echo "nightly.sh: $*" >&2
  echo "usage: scripts/nightly.sh --traces 'GLOB' --archive DIR --out DIR [--runner NAME]" \
    "[NIGHTLY_OPTION...]" >&2
  exit 2
}

traces=()
archive=""
out=""
runner=()
nightly_options=()
while [ $# -gt 0 ]; do
  case "$1" in
    --traces) [ $# -ge 2 ] || usage "--traces needs a glob"; traces+=("$2"); shift 2 ;;
    --traces=*) traces+=("${1#--traces=}"); shift ;;
    --archive) [ $# -ge 2 ] || usage "--archive needs a directory"; archive="$2"; shift 2 ;;
    --archive=*) archive="${1#--archive=}"; shift ;;
    --out) [ $# -ge 2 ] || usage "--out needs a directory"; out="$2"; shift 2 ;;
    --out=*) out="${1#--out=}"; shift ;;
    --runner) [ $# -ge 2 ] || usage "--runner needs a name"; runner=(--runner "$2"); shift 2 ;;
    --runner=*) runner=(--runner "${1#--runner=}"); shift ;;
    -h|--help) sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) nightly_options+=("$1"); shift ;;
  esac
done
[ ${#traces[@]} -gt 0 ] || usage "give the new traces with --traces 'GLOB'"
[ -n "$archive" ] || usage "give the archive with --archive DIR"
[ -n "$out" ] || usage "give the output directory with --out DIR"

if [ "${runner[1]:-}" = "flink-cluster" ]; then
  "$REPO_ROOT/scripts/flink-cluster.sh" start >&2
fi

# A glob that matches nothing tonight is not an error: the history is judged all the same.
new=()
for glob in "${traces[@]}"; do
  for file in $glob; do
    [ -e "$file" ] && new+=("$file")
  done
done
if [ ${#new[@]} -gt 0 ]; then
  echo "nightly.sh: archiving ${#new[@]} traces into $archive" >&2
  status=0
  "$LOADPROF" archive --out "$archive" "${runner[@]}" "${new[@]}" || status=$?
  if [ "$status" -ne 0 ]; then
    echo "nightly.sh: loadprof archive exited $status; nothing judged (fix the traces above)" >&2
    exit "$status"
  fi
else
  echo "nightly.sh: no new trace matches ${traces[*]}; judging the archive as it is" >&2
fi

exec "$LOADPROF" nightly --out "$out" "${runner[@]}" "${nightly_options[@]}" "$archive"
