package dev.loadprof.wall;

import dev.loadprof.model.TraceEventSink;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The tail marks of a process's threads ({@link ThreadMarks#TAIL}), by thread and time: who held
 * each CPU in the windows before the one in which a runnable thread ran again.
 */
final class RunnableTails {
  private final ThreadMarks m;
  /** Per thread, its tail marks ordered by start. */
  private final Map<Integer, int[]> byThread = new HashMap<>();

  RunnableTails(ThreadMarks marks) {
    this.m = marks;
    int[] tails = IntStream.range(0, marks.count).filter(i -> marks.kind[i] == ThreadMarks.TAIL)
        .boxed().sorted(Comparator.<Integer>comparingInt(i -> marks.tid[i])
            .thenComparingLong(i -> marks.time[i])).mapToInt(Integer::intValue).toArray();
    int from = 0;
    for (int k = 1; k <= tails.length; k++) {
      if (k == tails.length || marks.tid[tails[k]] != marks.tid[tails[from]]) {
        byThread.put(marks.tid[tails[from]], Arrays.copyOfRange(tails, from, k));
        from = k;
      }
    }
  }

  /**
   * The own-thread and other-process ns of CPU cpu over [from, to) that the thread's tail marks
   * saw, each scaled by its overlap with the wait and by fraction (the kept part of the wait);
   * the other processes' ns go to byPid under the process each mark names.
   */
  double[] held(int tid, int cpu, long from, long to, double fraction,
      Map<Integer, Double> byPid) {
    double[] ownOther = new double[2];
    int[] tails = byThread.get(tid);
    if (tails == null) {
      return ownOther;
    }
    for (int t : tails) {
      if (m.time[t] >= to) {
        break;
      }
      long overlap = Math.min(to, m.end[t]) - Math.max(from, m.time[t]);
      long looked = m.end[t] - m.time[t];
      if (m.code[t] != cpu || overlap <= 0 || looked <= 0) {
        continue;
      }
      double scale = fraction * overlap / looked;
      ownOther[0] += m.ownNs[t] * scale;
      double other = m.otherNs[t] * scale;
      ownOther[1] += other;
      if (other > 0 && m.otherPid[t] != TraceEventSink.UNKNOWN_ID) {
        byPid.merge(m.otherPid[t], other, Double::sum);
      }
    }
    return ownOther;
  }
}
