package dev.loadprof.compare;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loadprof.report.html.HtmlPage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * nightly.html: per benchmark and process, trend charts of real (wall) time, serial fraction,
 * average load and the top functions' real time over the nights, with the change points marked
 * and linked to their rows; the latest night's comparison. The page's data is nightly.json plus
 * the history of the charted figures (history.csv's values).
 */
public final class NightlyReport implements NightlyWriter {
  public static final String FILE_NAME = "nightly.html";

  @Override
  public String fileName() {
    return FILE_NAME;
  }

  @Override
  public void write(Nightly n, OutputStream out) throws IOException {
    out.write(render(n).getBytes(StandardCharsets.UTF_8));
  }

  public String render(Nightly n) {
    return HtmlPage.render("loadprof nightly: " + n.verdict().id + " (" + n.latestNight() + ")",
        model(n).toString(), "changes.js", "nightly.js");
  }

  /** nightly.json's tree plus "series": the charted figures night by night. */
  public ObjectNode model(Nightly n) {
    ObjectNode root = new NightlyJson().toJson(n);
    root.put("kind", "nightly");
    TreeMap<SeriesKey, ArrayNode> byKey = new TreeMap<>();
    List<HistoryPoint> byNight = new ArrayList<>(n.history());
    byNight.sort(Comparator.comparing(HistoryPoint::night));
    for (HistoryPoint h : byNight) {
      if (isCharted(h.key())) {
        byKey.computeIfAbsent(h.key(), k -> CompareJson.MAPPER.createArrayNode())
            .addArray().add(h.night().toString()).add(h.value()).add(h.runs());
      }
    }
    ArrayNode series = root.putArray("series");
    for (Map.Entry<SeriesKey, ArrayNode> e : byKey.entrySet()) {
      ObjectNode o = series.addObject();
      o.put("benchmark", e.getKey().group());
      o.put("process", e.getKey().process());
      if (e.getKey().function() != null) {
        o.put("function", e.getKey().function());
      }
      o.put("metric", e.getKey().metric().id());
      o.set("points", e.getValue()); // [night, value, runs], by night
    }
    return root;
  }

  /** Process real time, serial fraction and load; the top functions' real time. */
  static boolean isCharted(SeriesKey k) {
    Metric m = k.metric();
    return k.isFunction() ? m.isRealTime()
        : List.of(Metric.REAL_TIME, Metric.SERIAL_FRACTION, Metric.AVG_LOAD).contains(m);
  }
}
