package dev.loadprof.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceHealth;
import dev.loadprof.report.Printable;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The console's closing list of every warning of the job (summary.json has them per run): the
 * same warning of several runs is shown once with the number and names of its runs, so a fleet
 * of damaged traces gives a short list, and nothing that may be off is only in the JSON.
 */
final class WarningSummary {
  private static final int NAMED_RUNS = 3;

  private WarningSummary() {}

  /** Prints the warnings of summary.json's runs; unusable runs' reasons are printed elsewhere. */
  static void print(JsonNode summary, PrintStream err) {
    Map<String, List<String>> runsByWarning = new LinkedHashMap<>();
    List<String> perProcess = new ArrayList<>();
    int total = 0;
    for (JsonNode run : summary.path("runs")) {
      String source = run.path("source").asText();
      for (JsonNode w : run.path("warnings")) {
        String text = w.asText();
        if (text.startsWith("UNUSABLE: ")) {
          continue;
        }
        // The same warning of another file differs only in the file name.
        String key = !source.isEmpty() && text.startsWith(source + ": ")
            ? text.substring(source.length() + 2) : text;
        if (key.startsWith(RunInfo.PER_PROCESS_LIMIT)) {
          if (!perProcess.contains(source)) {
            perProcess.add(source);
          }
          continue;
        }
        runsByWarning.computeIfAbsent(key, k -> new ArrayList<>()).add(source);
        total++;
      }
    }
    printDuplicatesDropped(summary, err);
    printPerProcessLimits(perProcess, err);
    if (total == 0) {
      return;
    }
    err.println("loadprof: " + total + (total == 1 ? " warning" : " warnings")
        + " (figures may be off; details in summary.json):");
    runsByWarning.forEach((warning, sources) -> err.println("  " + Printable.escape(
        runs(sources) + ": " + warning)));
  }

  /**
   * What per-process recordings cannot see, as one info line with the one way to see it: not a
   * warning, since nothing shown is wrong and a user who could not record as root cannot act.
   */
  private static void printPerProcessLimits(List<String> sources, PrintStream err) {
    if (sources.isEmpty()) {
      return;
    }
    err.println("loadprof: info: " + Printable.escape(runs(sources)) + " recorded per process"
        + " (loadprof record's process mode): only the program's own threads, user-space time"
        + " and frames, waits as runnable or 'unknown', no off-CPU stacks, no wake-ups (so the"
        + " critical path stops at each wait instead of following it to the thread that ended"
        + " it). For kernel time, sleeping and disk waits, other processes, off-CPU stacks and"
        + " wakers, record as root (loadprof record --mode system); details in summary.json");
  }

  /** One run's name, or how many and the first few. */
  private static String runs(List<String> sources) {
    return sources.size() == 1 ? sources.get(0) : sources.size() + " traces ("
        + String.join(", ", sources.subList(0, Math.min(NAMED_RUNS, sources.size())))
        + (sources.size() > NAMED_RUNS ? ", ..." : "") + ")";
  }

  /**
   * perf writes a handful of records twice into clean recordings; dropping the copies changes
   * no figure, so they are one info line, not a warning. Runs with so many that a warning says
   * so (the file was probably merged or edited) are left to that warning.
   */
  private static void printDuplicatesDropped(JsonNode summary, PrintStream err) {
    long dropped = 0;
    List<String> sources = new ArrayList<>();
    for (JsonNode run : summary.path("runs")) {
      JsonNode h = run.path("health");
      long n = h.path(TraceHealth.DUPLICATE_SAMPLES).asLong()
          + h.path(TraceHealth.DUPLICATE_SWITCHES).asLong()
          + h.path(TraceHealth.DUPLICATE_WAKEUPS).asLong();
      boolean warned = false;
      for (JsonNode w : run.path("warnings")) {
        warned |= w.asText().contains(" duplicate records ");
      }
      if (n > 0 && !warned) {
        dropped += n;
        sources.add(run.path("source").asText());
      }
    }
    if (dropped > 0) {
      err.println("loadprof: info: " + dropped + " exact duplicate records (perf writes a few"
          + " into a recording) were dropped, so each event counts once; no figure is off ("
          + Printable.escape(sources.size() == 1 ? sources.get(0) : sources.size() + " traces: "
          + String.join(", ", sources.subList(0, Math.min(NAMED_RUNS, sources.size())))
          + (sources.size() > NAMED_RUNS ? ", ..." : "")) + "; health in summary.json)");
    }
  }
}
