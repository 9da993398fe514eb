package dev.loadprof.compare;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

/** nightly.json; the schema is in NIGHTLY_SCHEMA.md beside this file. */
public final class NightlyJson implements NightlyWriter {
  public static final String FILE_NAME = "nightly.json";
  public static final String VERSION = "0.2.0";

  @Override
  public String fileName() {
    return FILE_NAME;
  }

  @Override
  public void write(Nightly n, OutputStream out) throws IOException {
    CompareJson.writeTree(toJson(n), out);
  }

  public ObjectNode toJson(Nightly n) {
    ObjectNode root = CompareJson.MAPPER.createObjectNode();
    root.put("loadprof_nightly_version", VERSION);
    root.put("latest_night", n.latestNight().toString());
    root.put("verdict", n.verdict().id);
    root.put("exit_code", n.exitCode());
    NightlySettings s = n.settings();
    ObjectNode settings = root.putObject("settings");
    settings.put("alpha", s.compare().alpha());
    settings.put("min_relative", s.compare().thresholds().minRelative());
    settings.put("min_absolute_ns", s.compare().thresholds().minAbsoluteNs());
    settings.put("history_nights", s.historyNights());
    settings.put("change_point_significance", s.changePointSignificance());
    settings.put("permutations", s.permutations());
    settings.put("min_nights", s.minNights());
    settings.put("min_step_noise", s.minStepNoise());
    settings.put("seed", s.seed());
    ArrayNode benchmarks = root.putArray("benchmarks");
    for (Map.Entry<String, List<LocalDate>> e : n.nightsByBenchmark().entrySet()) {
      ObjectNode b = benchmarks.addObject();
      b.put("benchmark", e.getKey());
      ArrayNode nights = b.putArray("nights");
      e.getValue().forEach(d -> nights.add(d.toString()));
      Comparison c = n.latest().get(e.getKey());
      if (c == null) {
        b.putNull("latest_baseline_runs");
      } else {
        CompareJson.strings(b.putArray("latest_baseline_runs"), c.baselineRuns());
        CompareJson.strings(b.putArray("latest_runs"), c.candidateRuns());
        CompareJson.strings(b.putArray("latest_notes"), c.notes());
      }
    }
    ArrayNode excluded = root.putArray("excluded_runs");
    for (ExcludedRun e : n.excluded()) {
      excluded.addObject().put("run", e.runId()).put("reason", e.reason());
    }
    CompareJson.strings(root.putArray("notes"), n.notes());
    ArrayNode cps = root.putArray("change_points");
    for (ChangePoint cp : n.changePoints()) {
      cps.add(changePoint(cp));
    }
    ArrayNode still = root.putArray("still_changed");
    for (ChangePoint cp : n.stillChanged()) {
      still.add(changePoint(cp));
    }
    root.put("change_points_below_thresholds", n.belowThresholds());
    root.put("change_points_within_noise", n.withinNoise());
    ArrayNode changes = root.putArray("changes");
    for (MetricComparison r : n.changes()) {
      changes.add(benchmarkFirst(CompareJson.change(r)));
    }
    return root;
  }

  private static ObjectNode changePoint(ChangePoint cp) {
    ObjectNode o = CompareJson.MAPPER.createObjectNode();
    o.put("night", cp.night().toString());
    o.put("benchmark", cp.key().group());
    o.put("process", cp.key().process());
    if (cp.key().function() != null) {
      o.put("function", cp.key().function());
    }
    o.put("metric", cp.key().metric().id());
    o.put("unit", CompareJson.unit(cp.key().metric()));
    o.put("before", cp.before());
    o.put("after", cp.after());
    CompareJson.putNullable(o, "delta_pct", cp.deltaPct());
    o.put("kind", cp.kind());
    CompareJson.attribution(o, cp.attribution());
    o.put("p_value", cp.pValue());
    return o;
  }

  /** A compare change whose group is the benchmark: named so, and first. */
  private static ObjectNode benchmarkFirst(ObjectNode change) {
    ObjectNode o = CompareJson.MAPPER.createObjectNode();
    o.put("benchmark", change.has("group") ? change.get("group").asText() : "");
    change.remove("group");
    o.setAll(change);
    return o;
  }
}
