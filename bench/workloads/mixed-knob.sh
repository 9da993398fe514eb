#!/bin/sh
# ../shared/workloads' mixed (200 iterations of a 2 ms serial section then 8 ms of parallel work
# on 2 workers) with bench/whatif.sh's knob: serial_section=P runs the serial section at P % of
# SERIAL_MS (4 ms here: 100 iterations, 2 workers). A case the what-if model was not tuned on:
# its functions and hand-offs (a mutex and two condition variables) are not the what-if
# workloads'. MIXED names the built program; WHATIF_FIFO as for knobs.h (through chrt). exec
# keeps the pid: the recorded subject is mixed itself.
ms=4
for arg in "$@"; do
  case "$arg" in
    serial_section=*) ms=$(awk -v p="${arg#*=}" 'BEGIN { printf "%g", 4 * p / 100 }') ;;
    *) echo "mixed-knob.sh: unknown knob '$arg' (serial_section=PERCENT)" >&2; exit 2 ;;
  esac
done
if [ -n "${WHATIF_FIFO:-}" ]; then
  exec chrt -f "$WHATIF_FIFO" "$MIXED" 100 2 "$ms"
fi
exec "$MIXED" 100 2 "$ms"
