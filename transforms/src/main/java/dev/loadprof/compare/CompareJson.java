package dev.loadprof.compare;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loadprof.report.Analysis;
import java.io.IOException;
import java.io.OutputStream;

/** compare.json; the schema is in COMPARE_SCHEMA.md beside this file. */
public final class CompareJson implements CompareWriter {
  public static final String FILE_NAME = "compare.json";
  public static final String VERSION = "0.2.0";

  static final ObjectMapper MAPPER = new ObjectMapper();

  @Override
  public String fileName() {
    return FILE_NAME;
  }

  @Override
  public void write(Analysis all, Comparison c, OutputStream out) throws IOException {
    write(c, out);
  }

  public void write(Comparison c, OutputStream out) throws IOException {
    writeTree(toJson(c), out);
  }

  public ObjectNode toJson(Comparison c) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("loadprof_compare_version", VERSION);
    root.put("verdict", c.verdict().id);
    root.put("exit_code", c.exitCode());
    root.put("alpha", c.settings().alpha());
    ObjectNode t = root.putObject("thresholds");
    t.put("min_relative", c.settings().thresholds().minRelative());
    t.put("min_absolute_ns", c.settings().thresholds().minAbsoluteNs());
    strings(root.putArray("baseline_runs"), c.baselineRuns());
    strings(root.putArray("candidate_runs"), c.candidateRuns());
    ArrayNode excluded = root.putArray("excluded_runs");
    for (ExcludedRun e : c.excluded()) {
      excluded.addObject().put("run", e.runId()).put("reason", e.reason());
    }
    strings(root.putArray("notes"), c.notes());
    changes(root.putArray("changes"), c.changes());
    ArrayNode processes = root.putArray("processes");
    for (MetricComparison r : c.rows()) {
      if (!r.key().isFunction()) {
        ObjectNode o = change(r);
        o.put("change", r.change());
        processes.add(o);
      }
    }
    return root;
  }

  /** The changes in the shape nightly.json shares. */
  static void changes(ArrayNode into, Iterable<MetricComparison> changes) {
    for (MetricComparison r : changes) {
      into.add(change(r));
    }
  }

  static ObjectNode change(MetricComparison r) {
    ObjectNode o = MAPPER.createObjectNode();
    entity(o, r.key());
    o.put("metric", r.metric().id());
    o.put("unit", unit(r.metric()));
    putNullable(o, "baseline", r.baseline());
    putNullable(o, "candidate", r.candidate());
    putNullable(o, "delta_pct", r.deltaPct());
    putNullable(o, "p_value", r.pValue());
    o.put("method", r.method().id);
    o.put("n_baseline", r.nBaseline());
    o.put("n_candidate", r.nCandidate());
    if (r.interval() == null) {
      o.putNull("interval");
    } else {
      ObjectNode i = o.putObject("interval");
      i.put("kind", r.interval().kind().id);
      i.put("low", r.interval().low());
      i.put("high", r.interval().high());
      if (r.interval().clipped()) {
        i.put("clipped", true);
      }
    }
    if (r.kind() == null) {
      o.putNull("kind");
    } else {
      o.put("kind", r.kind());
    }
    attribution(o, r.attribution());
    if (r.note() != null) {
      o.put("note", r.note());
    }
    if (!r.absentBaseline().isEmpty()) {
      strings(o.putArray("absent_baseline_runs"), r.absentBaseline());
    }
    if (!r.absentCandidate().isEmpty()) {
      strings(o.putArray("absent_candidate_runs"), r.absentCandidate());
    }
    return o;
  }

  /** "ns" for times, "fraction" for shares (0..1), "load" for average loads (threads on CPUs). */
  static String unit(Metric m) {
    return m.isTime() ? "ns" : m.equals(Metric.SERIAL_FRACTION) ? "fraction" : "load";
  }

  static void entity(ObjectNode o, SeriesKey k) {
    if (!k.group().isEmpty()) {
      o.put("group", k.group());
    }
    o.put("process", k.process());
    if (k.function() != null) {
      o.put("function", k.function());
    }
  }

  /** cause and parts of a real-time change; the load part's split where the runs tell it. */
  static void attribution(ObjectNode o, Attribution a) {
    if (a == null) {
      return;
    }
    o.put("cause", a.cause().id);
    o.put("cpu_part_ns", Math.round(a.cpuPartNs()));
    o.put("parallelism_part_ns", Math.round(a.parallelismPartNs()));
    if (!Double.isNaN(a.interferencePartNs())) {
      o.put("interference_part_ns", Math.round(a.interferencePartNs()));
    }
    if (!Double.isNaN(a.waitsPartNs())) {
      o.put("oversubscription_part_ns", Math.round(a.oversubscriptionPartNs()));
      o.put("waits_part_ns", Math.round(a.waitsPartNs()));
    }
    Attribution.CriticalChange c = a.critical();
    if (c != null) {
      o.put("critical_path_change_ns", Math.round(c.pathChangeNs()));
      if (c.function() != null) {
        o.put("critical_function", c.function());
        o.put("critical_function_change_ns", Math.round(c.functionChangeNs()));
      }
    }
  }

  static void putNullable(ObjectNode o, String name, Double value) {
    if (value == null || value.isNaN() || value.isInfinite()) {
      o.putNull(name);
    } else {
      o.put(name, value);
    }
  }

  static void strings(ArrayNode into, Iterable<String> values) {
    values.forEach(into::add);
  }

  static void writeTree(ObjectNode root, OutputStream out) throws IOException {
    // "\n" line ends on every platform, so the bytes never depend on where it ran.
    DefaultPrettyPrinter pretty =
        new DefaultPrettyPrinter().withObjectIndenter(new DefaultIndenter("  ", "\n"));
    JsonGenerator gen = MAPPER.getFactory().createGenerator(out);
    gen.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    gen.setPrettyPrinter(pretty);
    MAPPER.writeTree(gen, root);
    gen.writeRaw('\n');
    gen.flush();
  }
}
