package dev.loadprof.perfdata.reader;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * perf's ordered-events queue: records are held and sent sorted by time (equal times in file
 * order). At each FINISHED_ROUND the records up to the previous round's latest time are sent, as
 * perf does (the kernel's per-CPU buffers are written in rounds, so a later round can still hold
 * records older than this one's newest); at the end, all the rest.
 */
final class OrderedRecords {
  /** Receives the records in order. */
  interface Target {
    void record(byte[] record, long offset);
  }

  private record Queued(long time, long sequence, long offset, byte[] record) {}

  private static final Comparator<Queued> ORDER =
      Comparator.comparingLong(Queued::time).thenComparingLong(Queued::sequence);

  private final List<Queued> pending = new ArrayList<>();
  private long sequence;
  private long maxTime;
  private long nextFlush;

  void add(long time, byte[] record, long offset) {
    pending.add(new Queued(time, sequence++, offset, record));
    maxTime = Math.max(maxTime, time);
  }

  /** FINISHED_ROUND: sends what is up to the previous round's limit. */
  void finishRound(Target target) {
    flushUpTo(nextFlush, target);
    nextFlush = maxTime;
  }

  void finish(Target target) {
    flushUpTo(Long.MAX_VALUE, target);
  }

  private void flushUpTo(long limit, Target target) {
    pending.sort(ORDER); // nearly sorted runs: TimSort merges them in linear time
    int sent = 0;
    for (Queued q : pending) {
      if (q.time() > limit) {
        break;
      }
      target.record(q.record(), q.offset());
      sent++;
    }
    pending.subList(0, sent).clear();
  }
}
