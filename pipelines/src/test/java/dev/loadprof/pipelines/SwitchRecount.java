package dev.loadprof.pipelines;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * A second, deliberately simple count of a process's thread states, straight from the perf
 * script text, that shares no code with loadprof's own (it imports nothing of it), so that the
 * two can check each other.
 *
 * <p>Per thread of the process, from its first event to its last: a switch-out starts a wait in
 * its prev_state (S sleeping, D disk, R or R+ runnable, anything else other; a per-process
 * {@code OUT preempt} runnable, a plain {@code OUT} unknown); the wait ends at the thread's next
 * switch-in, or, when that was lost, at its next sample or switch-out. A sched_wakeup of a
 * waiting thread makes the rest of its wait runnable. A thread switched out dead (X, Z) ends
 * there; a wait still open at the end counts to the process's last event (the end of its span).
 * The thread's time that is no wait is running.
 */
final class SwitchRecount {
  enum State { RUNNING, RUNNABLE, SLEEPING, DISK, OTHER, UNKNOWN }

  /** Thread-nanoseconds by state, and the process's span. */
  record Counts(Map<State, Long> ns, long spanStartNs, long spanEndNs) {
    double seconds(State s) {
      return ns.getOrDefault(s, 0L) / 1e9;
    }

    double spanSeconds() {
      return (spanEndNs - spanStartNs) / 1e9;
    }
  }

  private static final Pattern HEADER = Pattern.compile(
      "^(.*?)\\s+(-?\\d+)/(-?\\d+)\\s+(?:\\[(\\d+)\\]\\s+)?(\\d+)\\.(\\d{9}):\\s+(.*)$");
  private static final Pattern FORK = Pattern.compile("PERF_RECORD_FORK\\((\\d+):(\\d+)\\)");
  private static final Pattern SWITCH = Pattern.compile(
      "prev_pid=(\\d+) .*prev_state=(\\S+) ==> .*next_pid=(\\d+)");
  private static final Pattern WAKEUP = Pattern.compile(" pid=(\\d+) ");

  private enum Kind { IN, OUT, SAMPLE, WAKE }

  private record Event(long ns, int tid, Kind kind, State state, boolean dead) {}

  private SwitchRecount() {}

  /** A trace file, gzipped (.gz) or not. */
  static Counts countGzipOrText(Path trace, int pid) throws IOException {
    InputStream raw = Files.newInputStream(trace);
    try (Reader r = new InputStreamReader(trace.toString().endsWith(".gz")
        ? new GZIPInputStream(raw) : raw, StandardCharsets.UTF_8)) {
      return count(new BufferedReader(r), pid);
    }
  }

  static Counts count(BufferedReader in, int pid) throws IOException {
    List<Event> events = new ArrayList<>();
    Set<Integer> threads = new HashSet<>();
    for (String line; (line = in.readLine()) != null; ) {
      if (line.isEmpty() || line.startsWith("#") || Character.isWhitespace(line.charAt(0))
          && !HEADER.matcher(line).matches()) {
        continue; // stack frames, perf's header comments, blank lines
      }
      Matcher h = HEADER.matcher(line);
      if (!h.matches()) {
        continue;
      }
      int headerPid = Integer.parseInt(h.group(2));
      int headerTid = Integer.parseInt(h.group(3));
      long ns = Long.parseLong(h.group(5)) * 1_000_000_000L + Long.parseLong(h.group(6));
      String rest = h.group(7);
      if (headerPid == pid && headerTid >= 0) {
        threads.add(headerTid);
      }
      if (rest.startsWith("PERF_RECORD_FORK")) {
        Matcher f = FORK.matcher(rest);
        if (f.find() && Integer.parseInt(f.group(1)) == pid) {
          threads.add(Integer.parseInt(f.group(2)));
        }
      } else if (rest.startsWith("PERF_RECORD_SWITCH")) {
        if (headerPid == pid) {
          boolean out = rest.contains(" OUT");
          events.add(new Event(ns, headerTid, out ? Kind.OUT : Kind.IN,
              out ? (rest.contains("preempt") ? State.RUNNABLE : State.UNKNOWN) : null, false));
        }
      } else if (rest.contains("sched:sched_switch:")) {
        Matcher s = SWITCH.matcher(rest);
        if (s.find()) {
          String prevState = s.group(2);
          events.add(new Event(ns, Integer.parseInt(s.group(1)), Kind.OUT, stateOf(prevState),
              prevState.startsWith("X") || prevState.startsWith("Z")));
          events.add(new Event(ns, Integer.parseInt(s.group(3)), Kind.IN, null, false));
        }
      } else if (rest.contains("sched:sched_wakeup:") || rest.contains("sched:sched_waking:")) {
        Matcher w = WAKEUP.matcher(rest);
        if (w.find()) {
          events.add(new Event(ns, Integer.parseInt(w.group(1)), Kind.WAKE, null, false));
        }
      } else if (rest.startsWith("PERF_RECORD_")) {
        continue;
      } else if (headerPid == pid && headerTid >= 0) {
        events.add(new Event(ns, headerTid, Kind.SAMPLE, null, false)); // any sampling event
      }
    }
    events.removeIf(e -> !threads.contains(e.tid));
    events.sort((a, b) -> Long.compare(a.ns, b.ns)); // stable: a switch's OUT before its IN
    if (events.isEmpty()) {
      throw new IllegalArgumentException("no event of pid " + pid + " in the trace");
    }
    long spanStart = events.get(0).ns;
    long spanEnd = events.get(events.size() - 1).ns;
    Map<Integer, List<Event>> byThread = new HashMap<>();
    for (Event e : events) {
      byThread.computeIfAbsent(e.tid, t -> new ArrayList<>()).add(e);
    }
    Map<State, Long> totals = new EnumMap<>(State.class);
    long lived = 0;
    for (List<Event> thread : byThread.values()) {
      lived += replay(thread, spanEnd, totals);
    }
    long waited = totals.values().stream().mapToLong(Long::longValue).sum();
    totals.put(State.RUNNING, lived - waited);
    return new Counts(totals, spanStart, spanEnd);
  }

  private static State stateOf(String prevState) {
    return switch (prevState.charAt(0)) {
      case 'S' -> State.SLEEPING;
      case 'D' -> State.DISK;
      case 'R' -> State.RUNNABLE;
      default -> State.OTHER;
    };
  }

  /**
   * One thread's waits, in time order, into the totals; returns its lifetime. A wait still
   * open at the end counts to the process's last event (the end of its span).
   */
  private static long replay(List<Event> events, long end, Map<State, Long> totals) {
    long first = events.get(0).ns;
    long last = first;
    boolean waiting = false;
    long since = 0;
    State state = null;
    long wakeAt = -1;
    for (Event e : events) {
      last = e.ns;
      switch (e.kind) {
        case IN, SAMPLE -> {
          if (waiting) {
            close(totals, since, wakeAt, e.ns, state);
            waiting = false;
          }
        }
        case OUT -> {
          if (waiting) { // the switch-in was lost: it ran until this switch-out
            close(totals, since, wakeAt, e.ns, state);
          }
          waiting = !e.dead;
          since = e.ns;
          state = e.state;
          wakeAt = -1;
        }
        case WAKE -> {
          if (e == events.get(0)) { // first seen being woken: runnable until it runs
            waiting = true;
            since = e.ns;
            state = State.RUNNABLE;
            wakeAt = -1;
          } else if (waiting && wakeAt < 0 && state != State.RUNNABLE && e.ns > since) {
            wakeAt = e.ns;
          }
        }
      }
      if (e.dead) {
        break;
      }
    }
    if (waiting) {
      close(totals, since, wakeAt, end, state);
      last = end;
    }
    return last - first;
  }

  private static void close(Map<State, Long> totals, long from, long wakeAt, long to,
      State state) {
    if (wakeAt > from && wakeAt < to) {
      totals.merge(state, wakeAt - from, Long::sum);
      totals.merge(State.RUNNABLE, to - wakeAt, Long::sum);
    } else if (to > from) {
      totals.merge(state, to - from, Long::sum);
    }
  }
}
