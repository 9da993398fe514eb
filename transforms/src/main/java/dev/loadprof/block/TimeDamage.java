package dev.loadprof.block;

import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceHealth;

/**
 * Where a run's records were out of time order, far outside the run, repeated or implausible,
 * for the warnings that say so: the counts are in the run's health, the first example of each
 * kind (CPU and time) is kept here.
 */
final class TimeDamage {
  private String firstBehind;
  private String restart;
  private String firstOutside;
  private String firstLongPeriod;
  private long firstDuplicateNs = Long.MAX_VALUE;
  private int firstDuplicateCpu;

  /** A record behind a window that was already closed; startsOver when it is back at the start. */
  void behind(int cpu, long timeNs, long lastNs, boolean startsOver) {
    if (firstBehind == null) {
      firstBehind = "CPU " + cpu + " at " + seconds(timeNs) + ", " + millis(lastNs - timeNs)
          + " behind the latest record";
      if (startsOver) { // in order until it went back to the start
        restart = seconds(timeNs) + " after reaching " + seconds(lastNs);
      }
    }
  }

  void outside(int cpu, long timeNs) {
    if (firstOutside == null) {
      firstOutside = "CPU " + cpu + " at " + seconds(timeNs);
    }
  }

  /** Blocks are finished out of time order across CPUs, so the earliest repeat is kept. */
  void duplicate(int cpu, long timeNs) {
    if (timeNs < firstDuplicateNs) {
      firstDuplicateNs = timeNs;
      firstDuplicateCpu = cpu;
    }
  }

  void longPeriod(int cpu, long timeNs, long period) {
    if (firstLongPeriod == null) {
      firstLongPeriod = "CPU " + cpu + " at " + seconds(timeNs) + ", period " + period;
    }
  }

  void warn(RunInfo info, String source) {
    TraceHealth h = info.health;
    long behind = h.get(TraceHealth.OUT_OF_ORDER_SAMPLES) + h.get(TraceHealth.OUT_OF_ORDER_SWITCHES)
        + h.get(TraceHealth.OUT_OF_ORDER_WAKEUPS);
    if (restart != null) {
      info.warnings.add(source + ": the trace starts over at " + restart + " (was it appended"
          + " to itself?): " + behind + " records out of time order were skipped as probable"
          + " duplicates; figures are from the first pass only.");
    } else if (behind > 0) {
      info.warnings.add(source + ": " + behind + " records out of time order could not be"
          + " placed and were skipped (first: " + firstBehind + "); loads and times near them"
          + " may be off. perf script writes records in time order: was the file edited?");
    }
    long duplicates = h.get(TraceHealth.DUPLICATE_SAMPLES) + h.get(TraceHealth.DUPLICATE_SWITCHES)
        + h.get(TraceHealth.DUPLICATE_WAKEUPS);
    long records = h.get(TraceHealth.SAMPLE_RECORDS) + h.get(TraceHealth.SWITCH_RECORDS)
        + h.get(TraceHealth.WAKEUP_RECORDS);
    if (duplicates > 0 && duplicates * 1000 >= records) {
      // perf 6.1 itself writes a handful of records twice (byte-identical, same sample id) into
      // clean system-wide recordings, 13-16 in 10 M lines: dropping them changes no figure, so
      // they are only counted in the health (and named on the console's info line). From 0.1 %
      // of the records on, the file was more likely merged or edited: that stays a warning.
      info.warnings.add(source + ": " + duplicates + " duplicate records (the same event twice"
          + " on one CPU; first: CPU " + firstDuplicateCpu + " at " + seconds(firstDuplicateNs)
          + ") were dropped; figures count each event once.");
    }
    long outside = h.get(TraceHealth.SAMPLES_OUTSIDE_RUN) + h.get(TraceHealth.SWITCHES_OUTSIDE_RUN)
        + h.get(TraceHealth.WAKEUPS_OUTSIDE_RUN);
    if (outside > 0) {
      info.warnings.add(source + ": " + outside + " records with timestamps far outside the run"
          + " (first: " + firstOutside + ") were skipped as corrupt.");
    }
    long longPeriods = h.get(TraceHealth.SAMPLES_PERIOD_TOO_LONG);
    if (longPeriods > 0) {
      info.warnings.add(source + ": " + longPeriods + " samples with a period longer than the"
          + " run (first: " + firstLongPeriod + ") were skipped as corrupt.");
    }
    long unknownThread = h.get(TraceHealth.SAMPLES_UNKNOWN_THREAD);
    // Exiting threads leave a few -1/-1 samples in every real trace; below 0.1 % of the samples
    // no printed figure moves by more than 0.1 %, so only the health counter records them.
    if (unknownThread > 0 && unknownThread * 1000 >= h.get(TraceHealth.SAMPLE_RECORDS)) {
      info.warnings.add(source + ": " + unknownThread + " samples with no thread (-1/-1) were"
          + " skipped; CPU times may be low by that many sample intervals.");
    }
  }

  private static String seconds(long ns) {
    return String.format("%d.%09d s", ns / 1_000_000_000L, Math.abs(ns % 1_000_000_000L));
  }

  private static String millis(long ns) {
    return String.format("%.1f ms", ns / 1e6);
  }
}
