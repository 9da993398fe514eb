package dev.loadprof.report;

import dev.loadprof.model.ProcessKey;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loadprof.model.RunInfo;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.model.ThreadState;
import dev.loadprof.wall.ThreadStateSummary;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;

/**
 * summary.json: the figures of all other outputs, machine-readable. Keys are written in a fixed
 * order (ObjectNode keeps insertion order); the schema is in SUMMARY_SCHEMA.md beside this file.
 */
public final class SummaryJson implements Report {
  public static final String FILE_NAME = "summary.json";
  public static final String VERSION = "0.1.0";
  public static final int TOP_FUNCTIONS = 20;

  private static final ObjectMapper MAPPER = new ObjectMapper();

  @Override
  public String fileName() {
    return FILE_NAME;
  }

  @Override
  public void write(Analysis a, OutputStream out) throws IOException {
    // "\n" line ends on every platform, so the bytes never depend on where it ran.
    DefaultPrettyPrinter pretty =
        new DefaultPrettyPrinter().withObjectIndenter(new DefaultIndenter("  ", "\n"));
    JsonGenerator gen = MAPPER.getFactory().createGenerator(out);
    gen.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    gen.setPrettyPrinter(pretty);
    MAPPER.writeTree(gen, toJson(a));
    gen.writeRaw('\n');
    gen.flush();
  }

  public ObjectNode toJson(Analysis a) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("loadprof_version", VERSION);
    root.put("load_filter", a.loadFilter().toString());
    root.put("sample_filter", a.sampleFilter().isEmpty() ? "all" : a.sampleFilter());
    ProcessLoad h = a.headline();
    if (h == null) {
      root.putNull("headline");
    } else {
      ObjectNode head = root.putObject("headline");
      head.put("run_id", h.runId);
      head.put("pid", ProcessKey.pid(h.pid));
      head.put("comm", a.comm(h.runId, h.pid));
      head.put("subject", a.isSubject(h));
    }
    ArrayNode runs = root.putArray("runs");
    for (RunInfo r : a.runs()) {
      runs.add(run(a, r));
    }
    // Additive keys, present only with the many-runs outputs so a single run's bytes never change.
    if (a.hasManyRunsReports()) {
      runTable(root.putArray("run_table"), a);
      groups(root.putObject("groups"), a);
    }
    return root;
  }

  private ObjectNode run(Analysis a, RunInfo r) {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("run_id", r.runId);
    o.put("source", r.source);
    o.put("host", r.host);
    o.put("sampling_event", r.samplingEvent);
    o.put("period_is_ns", r.periodIsNanoseconds);
    o.put("sample_interval_ns", r.sampleIntervalNs);
    o.put("layout", r.layout);
    o.put("pid_source", r.pidSource);
    o.put("cpus", r.cpuCount);
    o.put("start_ns", r.startNs);
    o.put("end_ns", r.endNs);
    counters(o.putObject("health"), r.health.counters());
    RecordAccounting acct = RecordAccounting.of(r);
    ObjectNode records = o.putObject("records");
    records.put("read", acct.read());
    counters(records.putObject("analyzed"), acct.analyzed());
    counters(records.putObject("skipped"), acct.skipped());
    records.put("balanced", acct.balanced());
    ArrayNode examples = o.putArray("malformed_examples");
    r.health.malformedExamples().forEach(examples::add);
    ArrayNode warnings = o.putArray("warnings");
    r.warnings.forEach(warnings::add);
    o.put("unusable_reason", r.unusableReason);
    ArrayNode processes = o.putArray("processes");
    for (ProcessLoad p : a.processes()) {
      if (p.runId.equals(r.runId)) {
        processes.add(process(a, p));
      }
    }
    if (r.hasSubject()) {
      ObjectNode subject = o.putObject("subject");
      subject.put("pid", ProcessKey.pid(r.subjectPid));
      subject.put("comm", r.processName(r.subjectPid));
    } else {
      o.putNull("subject");
    }
    return o;
  }

  private ObjectNode process(Analysis a, ProcessLoad p) {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("pid", ProcessKey.pid(p.pid));
    o.put("comm", a.comm(p.runId, p.pid));
    o.put("samples", p.samples);
    o.put("cpu_ns", p.cpuNs);
    o.put("wall_ns", Math.round(p.wallNs()));
    histograms(o, p);
    o.put("avg_load", p.avgLoad());
    counters(o.putObject("health"), p.health);
    FunctionTable t = FunctionTable.of(a, p);
    o.put("best_avg_load", t.bestLoad());
    topFunctions(o.putArray("top_functions"), t);
    timeline(o, TimelineView.of(p.timeline, t.rows()));
    if (p.threadStates != null) {
      threadStates(o.putObject("thread_states"), a, p);
    }
    o.put("subject", a.isSubject(p));
    if (p.criticalPath != null) {
      CriticalSummary.json(o.putObject("critical_path"), p.criticalPath);
    }
    return o;
  }

  /** thread_states: additive, after every older key of a process; see SUMMARY_SCHEMA.md. */
  private static void threadStates(ObjectNode o, Analysis a, ProcessLoad p) {
    ThreadStateSummary s = p.threadStates;
    o.put("span_s", s.spanNs / 1e9);
    o.put("on_cpu_real_s", s.onCpuRealNs / 1e9);
    o.put("load0_s", s.load0Ns / 1e9);
    ObjectNode byState = o.putObject("by_state_s");
    for (ThreadState st : ThreadState.values()) {
      byState.put(st.label, s.byState(st) / 1e9);
    }
    ObjectNode runnable = o.putObject("runnable_by");
    runnable.put("own_threads_s", s.runnableOwnNs / 1e9);
    runnable.put("other_processes_s", s.runnableOtherNs / 1e9);
    ArrayNode top = runnable.putArray("top");
    List<Map.Entry<Integer, Double>> others = new ArrayList<>(s.runnableByPid.entrySet());
    others.sort(Comparator.comparingDouble((Map.Entry<Integer, Double> e) -> -e.getValue())
        .thenComparing(Map.Entry::getKey));
    for (Map.Entry<Integer, Double> e : others.subList(0, Math.min(5, others.size()))) {
      ObjectNode other = top.addObject();
      other.put("comm", a.comm(p.runId, e.getKey()));
      other.put("pid", ProcessKey.pid(e.getKey()));
      other.put("s", e.getValue() / 1e9);
    }
    runnable.put("unattributed_s", s.runnableUnattributedNs / 1e9);
    o.put("unfinished_s", s.unfinishedNs / 1e9);
    ObjectNode load0 = o.putObject("load0_by_state_s");
    double[] load0ByState = s.load0ByState();
    for (ThreadState st : ThreadState.values()) {
      load0.put(st.label, load0ByState[st.ordinal()] / 1e9);
    }
    o.put("has_states", s.hasStates);
    o.put("has_stacks", s.hasStacks);
    o.put("cpu_wait_s", s.cpuWaitNs / 1e9);
    if (Double.isNaN(s.cpuWaitOthersNs)) {
      o.putNull("cpu_wait_other_processes_s");
    } else {
      o.put("cpu_wait_other_processes_s", s.cpuWaitOthersNs / 1e9);
    }
  }

  /** load_timeline: additive, after every older key of a process. */
  static void timeline(ObjectNode o, TimelineView v) {
    if (v == null) {
      o.putNull("load_timeline");
      return;
    }
    ObjectNode t = o.putObject("load_timeline");
    t.put("bucket_ns", v.bucketNs());
    t.put("start_ns", v.startNs());
    longs(t.putArray("thread_ns"), v.threadNs());
    longs(t.putArray("busy_ns"), v.busyNs());
    longs(t.putArray("max_load"), v.maxLoad());
    ArrayNode phases = t.putArray("phases");
    for (TimelineView.Phase ph : v.phases()) {
      ObjectNode f = phases.addObject();
      f.put("name", ph.name());
      longs(f.putArray("cpu_ns"), ph.cpuNs());
    }
  }

  private static void longs(ArrayNode into, long[] values) {
    for (long v : values) {
      into.add(v);
    }
  }

  /** time_at_load_ns, cpu_histogram and realtime_histogram of a process or a group's sum. */
  private static void histograms(ObjectNode o, ProcessLoad p) {
    ObjectNode time = o.putObject("time_at_load_ns");
    for (int k = 0; k <= Text.maxTimeLoad(p); k++) {
      time.put(Integer.toString(k), p.timeAtLoadNs[k]);
    }
    ObjectNode cpu = o.putObject("cpu_histogram");
    ObjectNode real = o.putObject("realtime_histogram");
    for (int k = 1; k <= Text.maxLoad(p); k++) {
      cpu.put(Integer.toString(k), p.cpuFraction(k));
      real.put(Integer.toString(k), p.realFraction(k));
    }
  }

  private static void topFunctions(ArrayNode top, FunctionTable t) {
    for (FunctionRow r : t.top(TOP_FUNCTIONS)) {
      ObjectNode f = top.addObject();
      f.put("name", r.name());
      f.put("flat_real_pct", r.flatRealPct());
      f.put("cum_real_pct", r.cumRealPct());
      f.put("flat_cpu_pct", r.flatCpuPct());
      f.put("avg_load", r.avgLoad());
      f.put("saved_pct", r.savedPct());
      f.put("flat_wall_ns", r.flatWallNs());
      f.put("cum_wall_ns", r.cumWallNs());
      f.put("flat_cpu_ns", r.flatCpuNs());
    }
  }

  /** One row per run: the headline process's times, load and serial fraction. */
  private static void runTable(ArrayNode into, Analysis a) {
    for (RunRow r : RunRow.of(a)) {
      ObjectNode o = into.addObject();
      o.put("run_id", r.runId());
      o.put("host", r.host());
      if (r.headline() == null) {
        o.putNull("pid");
        o.putNull("comm");
      } else {
        o.put("pid", ProcessKey.pid(r.headline().pid));
        o.put("comm", r.comm());
      }
      o.put("wall_ns", r.wallNs());
      o.put("cpu_ns", r.cpuNs());
      o.put("avg_load", r.avgLoad());
      serial(o, r.serialFraction());
    }
  }

  private static void groups(ObjectNode into, Analysis a) {
    into.put("group_by", a.groupBy().toString());
    ArrayNode list = into.putArray("groups");
    for (ProcessGroup g : Grouping.of(a)) {
      ObjectNode o = list.addObject();
      ProcessLoad t = g.total();
      o.put("name", g.name());
      ArrayNode members = o.putArray("members");
      for (ProcessLoad p : g.members()) {
        ObjectNode m = members.addObject();
        m.put("run_id", p.runId);
        m.put("pid", ProcessKey.pid(p.pid));
      }
      o.put("samples", t.samples);
      o.put("cpu_ns", t.cpuNs);
      o.put("wall_ns", Math.round(t.wallNs()));
      histograms(o, t);
      o.put("avg_load", t.avgLoad());
      serial(o, g.serialFraction());
      o.put("best_avg_load", g.functions().bestLoad());
      topFunctions(o.putArray("top_functions"), g.functions());
    }
  }

  /** serial_fraction and amdahl_limit; null when undefined (never on a CPU) or unbounded. */
  static void serial(ObjectNode o, SerialFraction s) {
    if (s.defined()) {
      o.put("serial_fraction", s.fraction());
    } else {
      o.putNull("serial_fraction");
    }
    double limit = s.amdahlLimit();
    if (s.defined() && !Double.isInfinite(limit)) {
      o.put("amdahl_limit", limit);
    } else {
      o.putNull("amdahl_limit");
    }
  }

  /** Counters come from TreeMaps, so they are already in key order. */
  private static void counters(ObjectNode into, Map<String, Long> counters) {
    counters.forEach(into::put);
  }
}
