package dev.loadprof.record;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How {@code loadprof record} runs perf: system-wide with sched_switch (root, or a
 * perf_event_paranoid that allows it), or per process with context-switch records and user-space
 * sampling, which needs no privilege at the default paranoid level 2.
 */
public enum RecordMode {
  SYSTEM("system-wide: sched:sched_switch and the wake-ups (with the waker's stack) on every"
      + " CPU; loads count the program's threads, other processes are seen preempting it,"
      + " kernel and user frames"),
  PROCESS("per process: context-switch records of the program's own threads (no root needed);"
      + " loads count the program's threads; kernel frames are not seen (user-space sampling :u)");

  /** One line for the console: what this mode sees and what it does not. */
  public final String description;

  RecordMode(String description) {
    this.description = description;
  }

  /** The kernel's perf_event_paranoid (2 on Debian), or 2 if it cannot be read. */
  static int paranoid() {
    try {
      return Integer.parseInt(
          Files.readString(Path.of("/proc/sys/kernel/perf_event_paranoid")).trim());
    } catch (IOException | NumberFormatException e) {
      return 2;
    }
  }

  /** True when this process runs as root (effective uid 0). */
  static boolean isRoot() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("Uid:")) {
          return line.split("\\s+")[2].equals("0");
        }
      }
    } catch (IOException e) {
      // not Linux: perf is not there either
    }
    return false;
  }

  /** Tracepoints need root, or paranoid -1 (CAP_PERFMON is not checked here: perf will say). */
  static boolean systemAllowed() {
    return isRoot() || paranoid() <= -1;
  }

  /** The mode to use when none is asked for. */
  public static RecordMode auto() {
    return systemAllowed() ? SYSTEM : PROCESS;
  }

  /** Null when this mode may work here, else a one-line reason with what to do. */
  public String notPermittedReason() {
    if (this == SYSTEM && !systemAllowed()) {
      return "a system-wide recording with sched_switch needs root or the sysctl"
          + " kernel.perf_event_paranoid=-1 (it is " + paranoid() + "); run as root, set"
          + " it with: sysctl kernel.perf_event_paranoid=-1, or use --mode process (no root"
          + " needed)";
    }
    if (this == PROCESS && !isRoot() && paranoid() > 2) {
      return "perf_event_paranoid is " + paranoid() + ", which forbids perf for users; set it"
          + " with: sysctl kernel.perf_event_paranoid=2 (or run as root)";
    }
    return null;
  }

  /** The wake-up tracepoints a system-wide recording takes, each when the kernel has it. */
  static final List<String> WAKE_EVENTS = List.of("sched_wakeup", "sched_waking");

  /** True when the kernel has the tracepoint sched:NAME (tracefs or its debugfs mount). */
  static boolean hasTracepoint(String name) {
    return Files.exists(Path.of("/sys/kernel/tracing/events/sched", name))
        || Files.exists(Path.of("/sys/kernel/debug/tracing/events/sched", name));
  }

  /** perf record's arguments before "--": events, call graphs and the output file. */
  public List<String> perfRecordArgs(Path data, String freq) {
    List<String> a = new ArrayList<>(List.of("perf", "record", "-q", "-k", "mono", "-g"));
    String rate = freq == null ? "" : "/freq=" + freq + "/";
    if (this == SYSTEM) {
      a.addAll(List.of("-a", "-e", "cpu-clock" + rate, "-e", "sched:sched_switch"));
      // Wake-ups, with call chains (-g applies to every event). sched_wakeup names the CPU the
      // woken thread will run on (a switch-in perf lost starts there). Its record's context is
      // the waker's only when the wake-up is done on the waker's CPU: one queued to another CPU
      // (ttwu_queue) is reported from whatever runs there, often swapper (2 of 224 wake-ups of
      // stalls on the project's 2-vCPU VM). sched_waking fires in the waker's own context
      // always, so its tid and stack are the waker's at the instant of the wake-up: the edge
      // the critical path follows. Both are recorded when the kernel has them.
      for (String wakeEvent : WAKE_EVENTS) {
        if (hasTracepoint(wakeEvent)) {
          a.addAll(List.of("-e", "sched:" + wakeEvent));
        }
      }
    } else {
      // --sample-cpu gives samples and switch records a [cpu] column (allowed at paranoid 2),
      // so that -C can select the samples of a per-process recording. --switch-events' OUT
      // records carry the preempt flag (runnable). Switch-out stacks are not to be had
      // unprivileged: at paranoid 2 "-e context-switches" becomes context-switches:u, which
      // never fires (switches happen in the kernel), and :k is refused (perf 6.1, as nobody).
      a.addAll(List.of("-e", "cpu-clock" + rate + (rate.isEmpty() ? ":u" : "u"),
          "--switch-events", "--sample-cpu"));
    }
    a.addAll(List.of("-o", data.toString()));
    return a;
  }
}
