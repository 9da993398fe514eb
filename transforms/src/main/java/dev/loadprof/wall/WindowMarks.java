package dev.loadprof.wall;

import dev.loadprof.model.CallStack;
import dev.loadprof.model.ThreadState;

/**
 * A window's marks of one process made smaller without changing what the replay or the look at
 * who held the CPU reads from them, so that fewer marks are carried to the end of the analysis:
 *
 * <ul>
 *   <li>a switch-out at the end of a run is attached to the run (one mark instead of two), when
 *       it is the thread's next run or switch-out; the wakeups of the thread during that run
 *       are dropped (the replay ignores a wakeup of a thread that has not yet left its CPU);
 *   <li>a wakeup of a thread that was preempted (switched out runnable) and has not run since
 *       is dropped: the replay and the look ignore it. Traces that record a wakeup before every
 *       switch-in have one for each preemption.
 * </ul>
 *
 * The marks come out in replay order (by thread, time and kind).
 */
final class WindowMarks {
  private WindowMarks() {}

  static ThreadMarks compact(ThreadMarks m) {
    int[] order = MarkOrder.of(m);
    ThreadMarks c = new ThreadMarks();
    c.traceEndNs = m.traceEndNs;
    c.sawStates = m.sawStates;
    c.sawStacks = m.sawStacks;
    int lastKept = -1; // the thread's last run or switch-out, in c
    int[] stackMap = new int[m.stacks.size()];
    for (int k = 0; k < order.length; k++) {
      int i = order[k];
      if (k == 0 || m.tid[order[k - 1]] != m.tid[i]) {
        lastKept = -1;
      }
      switch (m.kind[i]) {
        case ThreadMarks.RUN -> {
          lastKept = c.copyFrom(m, i, stackMap);
          int next = k + 1;
          while (next < order.length && m.tid[order[next]] == m.tid[i]
              && m.kind[order[next]] == ThreadMarks.WAKE) {
            next++; // wakeups at [start, end): a wakeup at the end sorts after the switch
          }
          if (next < order.length && m.tid[order[next]] == m.tid[i]
              && m.kind[order[next]] == ThreadMarks.OUT && m.time[order[next]] == m.end[i]) {
            int o = order[next];
            c.attachOut(lastKept, m.code[o], stackOf(m, o));
            k = next;
          }
        }
        case ThreadMarks.OUT -> lastKept = c.copyFrom(m, i, stackMap);
        case ThreadMarks.WAKE -> {
          if (!afterPreemption(c, lastKept, m.time[i])) {
            c.copyFrom(m, i, stackMap);
          }
        }
        default -> c.copyFrom(m, i, stackMap);
      }
    }
    return c;
  }

  /** Mark j of c (a run or switch-out, -1: none) left its thread runnable before t. */
  private static boolean afterPreemption(ThreadMarks c, int j, long t) {
    int runnable = ThreadState.RUNNABLE.code();
    return j >= 0 && ((c.kind[j] == ThreadMarks.OUT && c.code[j] == runnable)
        || (c.kind[j] == ThreadMarks.RUN && c.out[j] == runnable && t >= c.end[j]));
  }

  /** The stack of a switch-out, as the marks hold it. */
  static CallStack stackOf(ThreadMarks m, int i) {
    return m.stack[i] < 0 ? null : m.stacks.get(m.stack[i]);
  }
}
