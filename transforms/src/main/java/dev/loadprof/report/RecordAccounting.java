package dev.loadprof.report;

import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceHealth;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where every record of a run went: analyzed, or skipped with a reason. The parts add up to the
 * records read; {@link #balanced()} says whether they do, so a lost record cannot go unnoticed.
 */
public record RecordAccounting(long read, Map<String, Long> analyzed, Map<String, Long> skipped) {

  public static RecordAccounting of(RunInfo run) {
    TraceHealth h = run.health;
    long read = h.get(TraceHealth.SAMPLE_RECORDS) + h.get(TraceHealth.SWITCH_RECORDS)
        + h.get(TraceHealth.WAKEUP_RECORDS) + h.get(TraceHealth.TASK_RECORDS)
        + h.get(TraceHealth.IGNORED_RECORDS) + h.get(TraceHealth.MALFORMED_LINES);
    Map<String, Long> analyzed = new LinkedHashMap<>();
    analyzed.put(TraceHealth.SAMPLES_IN_PROFILES, h.get(TraceHealth.SAMPLES_IN_PROFILES));
    analyzed.put(TraceHealth.IDLE_SAMPLES, h.get(TraceHealth.IDLE_SAMPLES));
    analyzed.put(TraceHealth.SWITCH_RECORDS,
        h.get(TraceHealth.SWITCH_RECORDS) - h.get(TraceHealth.OUT_OF_ORDER_SWITCHES)
            - h.get(TraceHealth.DUPLICATE_SWITCHES) - h.get(TraceHealth.SWITCHES_OUTSIDE_RUN));
    analyzed.put(TraceHealth.WAKEUP_RECORDS,
        h.get(TraceHealth.WAKEUP_RECORDS) - h.get(TraceHealth.OUT_OF_ORDER_WAKEUPS)
            - h.get(TraceHealth.DUPLICATE_WAKEUPS) - h.get(TraceHealth.WAKEUPS_OUTSIDE_RUN));
    analyzed.put(TraceHealth.TASK_RECORDS, h.get(TraceHealth.TASK_RECORDS));
    Map<String, Long> skipped = new LinkedHashMap<>();
    for (String reason : new String[] {TraceHealth.MALFORMED_LINES,
        TraceHealth.IGNORED_RECORDS, TraceHealth.SAMPLES_OTHER_EVENT,
        TraceHealth.SAMPLES_UNKNOWN_PROCESS, TraceHealth.SAMPLES_FILTERED_OUT,
        TraceHealth.SAMPLES_OF_UNUSABLE_RUN, TraceHealth.OUT_OF_ORDER_SAMPLES,
        TraceHealth.OUT_OF_ORDER_SWITCHES, TraceHealth.OUT_OF_ORDER_WAKEUPS}) {
      skipped.put(reason, h.get(reason));
    }
    // Reasons of damaged input: listed only when present, so clean outputs stay as they were.
    for (String reason : new String[] {TraceHealth.DUPLICATE_SAMPLES,
        TraceHealth.DUPLICATE_SWITCHES, TraceHealth.DUPLICATE_WAKEUPS,
        TraceHealth.SAMPLES_OUTSIDE_RUN, TraceHealth.SWITCHES_OUTSIDE_RUN,
        TraceHealth.WAKEUPS_OUTSIDE_RUN, TraceHealth.SAMPLES_PERIOD_TOO_LONG,
        TraceHealth.SAMPLES_UNKNOWN_THREAD}) {
      if (h.get(reason) > 0) {
        skipped.put(reason, h.get(reason));
      }
    }
    return new RecordAccounting(read, analyzed, skipped);
  }

  public long accounted() {
    return analyzed.values().stream().mapToLong(Long::longValue).sum()
        + skipped.values().stream().mapToLong(Long::longValue).sum();
  }

  /** True when every record read is either analyzed or skipped with a reason. */
  public boolean balanced() {
    return accounted() == read;
  }
}
