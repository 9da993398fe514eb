package dev.loadprof.report;

import dev.loadprof.model.ProcessKey;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loadprof.model.RunInfo;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.report.html.CriticalHtml;
import dev.loadprof.report.html.FlameTree;
import dev.loadprof.report.html.HtmlPage;
import dev.loadprof.report.html.StringTable;
import dev.loadprof.report.html.WallHtml;
import java.util.List;
import java.util.Map;

/**
 * report.html of analyze: per run and process a header, the load histograms, the load timeline
 * with the thread-state lanes below it, the real-time and off-CPU flame graphs and the function
 * table; with many runs also the run table and the groups. The figures are those of summary.json
 * (same sources, same functions, same rounding of wall ns); the page only formats them.
 */
public final class AnalyzeReport implements TextReport {
  public static final String FILE_NAME = "report.html";
  /** Function rows per process in the page (functions.txt has them all). */
  public static final int FUNCTION_ROWS = 200;

  private static final ObjectMapper MAPPER = new ObjectMapper();

  @Override
  public String fileName() {
    return FILE_NAME;
  }

  @Override
  public boolean hasGolden() {
    return false;
  }

  @Override
  public String render(Analysis a) {
    ProcessLoad h = a.headline();
    String title = "loadprof: " + (h == null ? "no process" : a.comm(h.runId, h.pid) + " ("
        + (a.runs().size() == 1 ? "run " + h.runId : a.runs().size() + " runs") + ")");
    return HtmlPage.render(title, model(a).toString(), "critical.js", "analyze.js");
  }

  /** The page's data; numbers as summary.json has them. */
  public ObjectNode model(Analysis a) {
    StringTable strings = new StringTable();
    ObjectNode root = MAPPER.createObjectNode();
    root.put("kind", "analyze");
    root.put("loadprof_version", SummaryJson.VERSION);
    root.put("load_filter", a.loadFilter().toString());
    List<ProcessLoad> processes = a.processes();
    root.put("headline", a.headline() == null ? -1 : processes.indexOf(a.headline()));
    root.put("subject_note", SubjectNote.of(a));
    ArrayNode runs = root.putArray("runs");
    for (RunInfo r : a.runs()) {
      ObjectNode o = runs.addObject();
      o.put("run_id", r.runId);
      o.put("host", r.host);
      o.put("source", r.source);
      o.put("sampling_event", r.samplingEvent);
      o.put("cpus", r.cpuCount);
      o.put("start_ns", r.startNs);
      o.put("end_ns", r.endNs);
      ArrayNode warnings = o.putArray("warnings");
      r.warnings.forEach(warnings::add);
      ArrayNode examples = o.putArray("malformed_examples");
      r.health.malformedExamples().forEach(examples::add);
      ObjectNode health = o.putObject("health");
      r.health.counters().forEach(health::put);
      ArrayNode members = o.putArray("processes");
      for (int i = 0; i < processes.size(); i++) {
        if (processes.get(i).runId.equals(r.runId)) {
          members.add(i);
        }
      }
    }
    ArrayNode list = root.putArray("processes");
    for (ProcessLoad p : processes) {
      list.add(process(a, p, strings));
    }
    if (a.hasManyRunsReports()) {
      runTable(root.putArray("run_table"), a);
      groups(root.putObject("groups"), a, strings);
    }
    strings.writeTo(root.putArray("strings"));
    return root;
  }

  private static ObjectNode process(Analysis a, ProcessLoad p, StringTable strings) {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("run_id", p.runId);
    o.put("pid", ProcessKey.pid(p.pid));
    o.put("comm", a.comm(p.runId, p.pid));
    o.put("subject", a.isSubject(p));
    o.put("samples", p.samples);
    o.put("span_ns", Math.max(0, p.spanEndNs - p.spanStartNs));
    figures(o, p, SerialFraction.of(p.timeAtLoadNs));
    ArrayNode time = o.putArray("time_at_load_ns");
    for (int k = 0; k <= Text.maxTimeLoad(p); k++) {
      time.add(p.timeAtLoadNs[k]);
    }
    FunctionTable t = FunctionTable.of(a, p);
    o.put("best_avg_load", t.bestLoad());
    functions(o, t, strings);
    SummaryJson.timeline(o, TimelineView.of(p.timeline, t.rows()));
    FlameTree.of("all", a.filteredStacksOf(p)).writeTo(o.putArray("flame"), strings);
    Map<Integer, String> laneNames = WallView.laneNames(a, p);
    WallHtml.writeTo(o, p, WallView.wallLine(p), laneNames, strings);
    CriticalHtml.writeTo(o, p.criticalPath, a.isSubject(p) || p == a.headline(),
        a.runs().stream().filter(r -> r.runId.equals(p.runId)).findFirst().orElse(null),
        laneNames, strings);
    return o;
  }

  /** cpu_ns, wall_ns, avg_load, serial fraction and both histograms (k = 1..max). */
  private static void figures(ObjectNode o, ProcessLoad p, SerialFraction s) {
    o.put("cpu_ns", p.cpuNs);
    o.put("wall_ns", Math.round(p.wallNs()));
    o.put("avg_load", p.avgLoad());
    SummaryJson.serial(o, s);
    histograms(o, p);
  }

  /** cpu_histogram and realtime_histogram: fractions at load k = 1..max, as summary.json's. */
  public static void histograms(ObjectNode o, ProcessLoad p) {
    ArrayNode cpu = o.putArray("cpu_histogram");
    ArrayNode real = o.putArray("realtime_histogram");
    for (int k = 1; k <= Text.maxLoad(p); k++) {
      cpu.add(p.cpuFraction(k));
      real.add(p.realFraction(k));
    }
  }

  /** Rows: [name index, flat real %, cum real %, flat CPU %, avg load, saved %]. */
  private static void functions(ObjectNode o, FunctionTable t, StringTable strings) {
    o.put("function_count", t.rows().size());
    functionRows(o.putArray("functions"), t.top(FUNCTION_ROWS), strings);
  }

  private static void functionRows(ArrayNode into, List<FunctionRow> rows, StringTable strings) {
    for (FunctionRow r : rows) {
      ArrayNode row = into.addArray();
      row.add(strings.index(r.name()));
      row.add(r.flatRealPct());
      row.add(r.cumRealPct());
      row.add(r.flatCpuPct());
      row.add(r.avgLoad());
      row.add(r.savedPct());
    }
  }

  private static void runTable(ArrayNode into, Analysis a) {
    List<ProcessLoad> processes = a.processes();
    for (RunRow r : RunRow.of(a)) {
      ObjectNode o = into.addObject();
      o.put("run_id", r.runId());
      o.put("host", r.host());
      o.put("process", r.headline() == null ? -1 : processes.indexOf(r.headline()));
      o.put("comm", r.comm());
      o.put("wall_ns", r.wallNs());
      o.put("cpu_ns", r.cpuNs());
      o.put("avg_load", r.avgLoad());
      SummaryJson.serial(o, r.serialFraction());
    }
  }

  private static void groups(ObjectNode into, Analysis a, StringTable strings) {
    into.put("group_by", a.groupBy().toString());
    ArrayNode list = into.putArray("groups");
    for (ProcessGroup g : Grouping.of(a)) {
      ObjectNode o = list.addObject();
      o.put("name", g.name());
      o.put("runs", g.runCount());
      o.put("members", g.members().size());
      figures(o, g.total(), g.serialFraction());
      o.put("best_avg_load", g.functions().bestLoad());
      functionRows(o.putArray("functions"), g.functions().top(SummaryJson.TOP_FUNCTIONS),
          strings);
    }
  }
}
