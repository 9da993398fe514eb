package dev.loadprof.compare;

import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.report.Analysis;
import dev.loadprof.report.Filters;
import dev.loadprof.report.RunAnalyses;
import dev.loadprof.report.RunByRunWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The last step of loadprof nightly's pipeline: the history of the assembled analysis, written
 * by {@link NightlyOutputs}. Its figures are per run, so a job that analyzes its runs one after
 * the other keeps of each only its processes' function figures and its processes without stacks
 * ({@link #keep}). Which processes are compared (the subject, or the names in every run) is
 * decided from all runs at once, so the figures are kept for every process of a run.
 */
public record NightlyJob(NightlySettings settings) implements RunByRunWriter<NightlyJob.Kept> {
  /**
   * One run's function figures per process ({@link RunMetrics#functionsOf}, by {@link
   * #processKey}) and its analysis without stacks.
   */
  public record Kept(Map<String, Map<String, double[]>> functions, RunAnalyses.Part run)
      implements java.io.Serializable {
    /** Serialized as {@link KeptCodec} writes it, when of the shape {@link #keep} makes. */
    private Object writeReplace() {
      KeptCodec.Compact compact = KeptCodec.compact(this);
      return compact == null ? this : compact;
    }
  }

  /**
   * What {@link #keep} computes, stored beside archived runs: raise the number when the
   * figures of the same blocks change (a fix in loading, joining, thread states or here). The
   * name it is stored under also carries the serialization versions of its classes, so a
   * class changed since is computed again, not misread. Raised too when how a class is
   * serialized changes without its version (2: critical paths as CriticalPathCodec writes
   * them, loss timelines without their empty buckets; 3: critical paths reduced to their
   * totals, RunAnalyses.Part; 4: a kept part as KeptCodec writes it, loss timelines' counts
   * as varints).
   */
  public static final String KEPT_VERSION = "nightly-4";

  @Override
  public String storedKeptVersion() {
    return KEPT_VERSION + "-" + Long.toHexString(RunAnalyses.serialVersion()
        * 31 + java.io.ObjectStreamClass.lookup(Kept.class).getSerialVersionUID());
  }

  @Override
  public Kept asReadToday(Kept stored, dev.loadprof.model.RunInfo read) {
    for (dev.loadprof.model.RunInfo r : RunAnalyses.runsOf(stored.run())) {
      if (r.runId.equals(read.runId)) {
        r.night = read.night;
        r.nightDoubt = read.nightDoubt;
      }
    }
    return stored;
  }

  @Override
  public void write(Analysis analysis, Function<String, OutputStream> open) throws IOException {
    NightlyOutputs.writeAll(NightlyHistory.nightly(analysis, settings), open);
  }

  @Override
  public Kept keep(Analysis run) {
    Map<String, Map<String, double[]>> functions = new HashMap<>();
    for (ProcessLoad p : run.processes()) {
      functions.put(processKey(p), RunMetrics.functionsOf(run, p));
    }
    return new Kept(functions, RunAnalyses.part(run));
  }

  @Override
  public void writeKept(List<Kept> kept, Filters filters, Function<String, OutputStream> open)
      throws IOException {
    Map<String, Map<String, double[]>> functions = new HashMap<>();
    List<RunAnalyses.Part> runs = new ArrayList<>();
    for (Kept k : kept) {
      functions.putAll(k.functions());
      runs.add(k.run());
    }
    NightlyOutputs.writeAll(NightlyHistory.nightly(RunAnalyses.withoutStacks(runs, filters),
        p -> functions.getOrDefault(processKey(p), Map.of()), settings), open);
  }

  /** A process of a run, whatever name compare gives it (a new build under the old name). */
  private static String processKey(ProcessLoad p) {
    return p.runId + "\u0000" + p.pid;
  }
}
