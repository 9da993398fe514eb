package dev.loadprof.compare;

import dev.loadprof.model.RunInfo;
import dev.loadprof.profile.PprofBuilder;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.profile.StackWeight;
import dev.loadprof.report.Analysis;
import dev.loadprof.report.FoldedReport;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * baseline.pb.gz, candidate.pb.gz and diff.folded: where real time went on each side. Each
 * side's stacks are divided by its number of runs (rounded to whole ns and samples), so both
 * profiles show one average run and {@code go tool pprof -diff_base=baseline.pb.gz
 * candidate.pb.gz} shows the real-time difference per run even when the sides have different
 * run counts. Only the runs used in the statistics are included.
 */
public final class SideProfiles {
  public static final String BASELINE_FILE = "baseline.pb.gz";
  public static final String CANDIDATE_FILE = "candidate.pb.gz";
  /** Lines "comm;root;...;leaf BASELINE_NS CANDIDATE_NS", as difffolded.pl writes them. */
  public static final String DIFF_FILE = "diff.folded";

  /** The writers of the three files, for {@link CompareOutputs#WRITERS}. */
  static final CompareWriter BASELINE = new File(BASELINE_FILE,
      (all, c, out) -> writeProfile(all, c.baselineRuns(), out));
  static final CompareWriter CANDIDATE = new File(CANDIDATE_FILE,
      (all, c, out) -> writeProfile(all, c.candidateRuns(), out));
  static final CompareWriter DIFF = new File(DIFF_FILE, SideProfiles::writeFoldedDiff);

  private SideProfiles() {}

  /** How one of the files is written. */
  private interface Body {
    void write(Analysis all, Comparison c, OutputStream out) throws IOException;
  }

  private record File(String fileName, Body body) implements CompareWriter {
    @Override
    public void write(Analysis all, Comparison c, OutputStream out) throws IOException {
      body.write(all, c, out);
    }
  }

  public static void writeProfile(Analysis all, List<String> runIds, OutputStream out)
      throws IOException {
    Set<String> ids = Set.copyOf(runIds);
    List<RunInfo> runs = new ArrayList<>();
    for (RunInfo r : all.runs()) {
      if (ids.contains(r.runId)) {
        runs.add(r);
      }
    }
    List<ProcessLoad> processes = new ArrayList<>();
    for (ProcessLoad p : all.processes()) {
      if (ids.contains(p.runId) && p.pid != 0) {
        processes.add(p);
      }
    }
    new PprofBuilder(runs, processes, perRun(all, ids), all.loadFilter()).writeGzipped(out);
  }

  /** The side's stacks scaled to one average run. */
  static List<StackWeight> perRun(Analysis all, Set<String> ids) {
    List<StackWeight> out = new ArrayList<>();
    double n = ids.size();
    for (StackWeight s : all.threadStacks()) { // per thread, with addresses, as in profile.pb.gz
      if (ids.contains(s.runId()) && s.pid() != 0) {
        out.add(new StackWeight(s.runId(), s.pid(), s.tid(), s.load(), s.stack(),
            Math.round(s.count() / n), Math.round(s.cpuNs() / n)));
      }
    }
    return out;
  }

  public static void writeFoldedDiff(Analysis all, Comparison c, OutputStream out)
      throws IOException {
    TreeMap<String, double[]> lines = new TreeMap<>();
    fold(all, Set.copyOf(c.baselineRuns()), 0, lines);
    fold(all, Set.copyOf(c.candidateRuns()), 1, lines);
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, double[]> e : lines.entrySet()) {
      long b = Math.round(e.getValue()[0]);
      long cand = Math.round(e.getValue()[1]);
      if (b != 0 || cand != 0) {
        sb.append(e.getKey()).append(' ').append(b).append(' ').append(cand).append('\n');
      }
    }
    out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
  }

  /** Real time per stack (comm first, root to leaf), averaged over the side's runs. */
  private static void fold(Analysis all, Set<String> ids, int column,
      TreeMap<String, double[]> lines) {
    for (StackWeight s : all.filteredStacks()) {
      if (!ids.contains(s.runId()) || s.pid() == 0) {
        continue;
      }
      StringBuilder key = new StringBuilder(FoldedReport.clean(all.comm(s.runId(), s.pid())));
      FoldedReport.appendStack(key, s.stack()); // frames named as in flame.folded
      lines.computeIfAbsent(key.toString(), k -> new double[2])[column] +=
          (double) s.wallNs() / ids.size();
    }
  }
}
