package dev.loadprof.compare;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.profile.StackWeight;
import dev.loadprof.report.Analysis;
import dev.loadprof.report.AnalyzeReport;
import dev.loadprof.report.ProcessGroup;
import dev.loadprof.report.html.FlameTree;
import dev.loadprof.report.html.HtmlPage;
import dev.loadprof.report.html.StringTable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * compare.html: the verdict, the change table and every process figure exactly as compare.json
 * has them (the page's data is compare.json plus what only the page draws), each process's
 * load histograms of both sides overlaid, and a differential flame graph of one average run per
 * side, each frame coloured by the cause of its change.
 */
public final class CompareReport implements CompareWriter {
  public static final String FILE_NAME = "compare.html";
  /** Frame tags: the cause of a frame's real-time change, as Attribution says; or unchanged. */
  static final int UNCHANGED = -1;

  @Override
  public String fileName() {
    return FILE_NAME;
  }

  @Override
  public void write(Analysis all, Comparison c, OutputStream out) throws IOException {
    out.write(render(all, c).getBytes(StandardCharsets.UTF_8));
  }

  public String render(Analysis all, Comparison c) {
    return HtmlPage.render("loadprof compare: " + c.verdict().id + " (" + c.baselineRuns().size()
        + " vs " + c.candidateRuns().size() + " runs)", model(all, c).toString(), "changes.js",
        "compare.js");
  }

  /** compare.json's tree, plus histograms per process name and side, and the diff flame tree. */
  public ObjectNode model(Analysis all, Comparison c) {
    ObjectNode root = new CompareJson().toJson(c);
    root.put("kind", "compare");
    Set<String> baseline = Set.copyOf(c.baselineRuns());
    Set<String> candidate = Set.copyOf(c.candidateRuns());
    ArrayNode histograms = root.putArray("histograms");
    for (Map.Entry<String, List<List<ProcessLoad>>> e : bySide(all, baseline, candidate)
        .entrySet()) {
      ObjectNode o = histograms.addObject();
      o.put("process", e.getKey());
      AnalyzeReport.histograms(o.putObject("baseline"),
          ProcessGroup.sum(e.getKey(), e.getValue().get(0)));
      AnalyzeReport.histograms(o.putObject("candidate"),
          ProcessGroup.sum(e.getKey(), e.getValue().get(1)));
    }
    StringTable strings = new StringTable();
    flame(all, baseline, candidate).writeTo(root.putArray("flame"), strings, CompareReport::cause);
    strings.writeTo(root.putArray("strings"));
    return root;
  }

  /** Process name -> [baseline processes, candidate processes], names in order. */
  private static TreeMap<String, List<List<ProcessLoad>>> bySide(Analysis all,
      Set<String> baseline, Set<String> candidate) {
    TreeMap<String, List<List<ProcessLoad>>> out = new TreeMap<>();
    for (ProcessLoad p : all.processes()) {
      int side = baseline.contains(p.runId) ? 0 : candidate.contains(p.runId) ? 1 : -1;
      if (side >= 0 && p.pid != 0) {
        out.computeIfAbsent(all.comm(p.runId, p.pid),
            k -> List.of(new ArrayList<>(), new ArrayList<>())).get(side).add(p);
      }
    }
    return out;
  }

  /**
   * Real and CPU ns of one average run per side (as diff.folded and the side profiles): the
   * process name first, then the stack from the root.
   */
  static FlameTree flame(Analysis all, Set<String> baseline, Set<String> candidate) {
    FlameTree tree = FlameTree.empty("all", 2);
    for (StackWeight s : all.filteredStacks()) {
      int side = baseline.contains(s.runId()) ? 0 : candidate.contains(s.runId()) ? 1 : -1;
      if (side >= 0 && s.pid() != 0) {
        tree.add(side, all.comm(s.runId(), s.pid()), s);
      }
    }
    tree.divide(0, Math.max(1, baseline.size()));
    tree.divide(1, Math.max(1, candidate.size()));
    tree.mergeSmall();
    return tree;
  }

  /** The ordinal of the Attribution cause of a frame's change of real time, or UNCHANGED. */
  static int cause(long[] v) {
    if (v[0] == v[2]) {
      return UNCHANGED;
    }
    return Attribution.of(v[0], v[1], v[2], v[3]).cause().ordinal();
  }
}
