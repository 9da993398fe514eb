package dev.loadprof.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loadprof.critical.CriticalPath;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The critical path in summary.json (a process's critical_path, see SUMMARY_SCHEMA.md) and on
 * the console ("Top functions on the critical path" and the what-ifs).
 */
final class CriticalSummary {
  /** Functions listed on the console, and how many of them get their what-ifs printed. */
  static final int CONSOLE_FUNCTIONS = 5;
  static final int CONSOLE_WHAT_IF_FUNCTIONS = 3;
  static final int JSON_FUNCTIONS = 20;

  private CriticalSummary() {}

  static void json(ObjectNode o, CriticalPath c) {
    long span = c.spanNs();
    o.put("span_ns", span);
    o.put("path_ns", c.pathNs());
    o.put("oncpu_ns", c.onCpuNs());
    o.put("runnable_own_ns", c.runnableOwnNs());
    o.put("runnable_other_ns", c.runnableOtherNs());
    ObjectNode blocked = o.putObject("blocked_ns");
    c.blockedByReason().forEach(blocked::put);
    ArrayNode functions = o.putArray("top_functions");
    for (CriticalPath.FunctionOnPath f : c.topFunctions()) {
      if (functions.size() == JSON_FUNCTIONS) {
        break;
      }
      ObjectNode x = functions.addObject();
      x.put("function", f.function());
      x.put("ns", f.ns());
      x.put("share", f.share());
      x.put("self_ns", f.selfNs());
    }
    ArrayNode threads = o.putArray("threads");
    for (CriticalPath.ThreadShare t : c.threads()) {
      ObjectNode x = threads.addObject();
      x.put("tid", t.tid());
      x.put("name", t.name());
      x.put("ns", t.ns());
      x.put("share", span == 0 ? 0 : (double) t.ns() / span);
    }
    ArrayNode whatIf = o.putArray("what_if");
    for (CriticalPath.WhatIf w : c.whatIfs()) {
      ObjectNode x = whatIf.addObject();
      x.put("function", w.function());
      x.put("faster_percent", w.fasterPercent());
      x.put("predicted_wall_ns", w.predictedWallNs());
      x.put("change_ns", w.changeNs());
      x.put("change_percent", w.changePercent(span));
    }
    o.put("model", CriticalPath.MODEL_LIMITS);
    ArrayNode notes = o.putArray("notes");
    c.notes().forEach(notes::add);
  }

  /** The console's lines for the process's path. */
  static void console(StringBuilder sb, CriticalPath c) {
    long span = c.spanNs();
    sb.append(Text.f("Critical path %.3f s = on CPU %.3f s + waiting for a CPU %.3f s"
        + " (own threads %.3f s, other processes %.3f s) + blocked %.3f s", span / 1e9,
        c.onCpuNs() / 1e9, (c.runnableOwnNs() + c.runnableOtherNs()) / 1e9,
        c.runnableOwnNs() / 1e9, c.runnableOtherNs() / 1e9, c.blockedNs() / 1e9));
    String sep = ": ";
    for (Map.Entry<String, Long> e : c.blockedByReason().entrySet()) {
      if (e.getValue() >= 500_000) {
        sb.append(sep).append(Printable.escape(e.getKey()))
            .append(Text.f(" %.3f s", e.getValue() / 1e9));
        sep = ", ";
      }
    }
    sb.append('\n');
    sb.append("Top functions on the critical path (on CPU on the path, inclusive):\n");
    sb.append(Text.f("  %7s %7s  %s", "path%", "self%", "function")).append('\n');
    List<CriticalPath.FunctionOnPath> top = c.topFunctions();
    for (int i = 0; i < Math.min(CONSOLE_FUNCTIONS, top.size()); i++) {
      CriticalPath.FunctionOnPath f = top.get(i);
      sb.append(Text.f("  %6.2f%% %6.2f%%  %s", 100 * f.share(),
          span == 0 ? 0 : 100.0 * f.selfNs() / span, Printable.escape(f.function())))
          .append('\n');
    }
    List<CriticalPath.WhatIf> ws = c.whatIfs();
    int predicted = topPart(ws);
    if (!ws.isEmpty()) {
      sb.append("What-ifs (first order: the same schedule and wake-up order, no new"
          + " contention):\n");
    }
    Set<String> shown = new LinkedHashSet<>();
    for (int i = 0; i < ws.size(); i++) {
      CriticalPath.WhatIf w = ws.get(i);
      if (i < predicted && !shown.contains(w.function())) {
        if (shown.size() == CONSOLE_WHAT_IF_FUNCTIONS) {
          continue;
        }
        shown.add(w.function());
      }
      sb.append("  ").append(whatIfLine(w, span)).append('\n');
    }
    for (String note : c.notes()) {
      sb.append("  note: ").append(Printable.escape(note)).append('\n');
    }
  }

  /**
   * How many of the what-ifs are the top functions' (each at 10, 25 and 50 %, in that order):
   * the --what-if ones follow them.
   */
  static int topPart(List<CriticalPath.WhatIf> ws) {
    int k = 0;
    while (k + 2 < ws.size() && ws.get(k).fasterPercent() == 10
        && ws.get(k + 1).fasterPercent() == 25 && ws.get(k + 2).fasterPercent() == 50
        && ws.get(k).function().equals(ws.get(k + 2).function())
        && ws.get(k).function().equals(ws.get(k + 1).function())) {
      k += 3;
    }
    return k;
  }

  /** "if F were 25 % faster: -0.41 s (-12 %)"; changes under 0.1 s in ms. */
  static String whatIfLine(CriticalPath.WhatIf w, long span) {
    double change = w.changeNs();
    String amount = Math.abs(change) >= 1e8 ? Text.f("%+.2f s", change / 1e9)
        : Text.f("%+.1f ms", change / 1e6);
    return Text.f("if %s were %d %% faster: %s (%+.0f %%)", Printable.escape(w.function()),
        w.fasterPercent(), amount, w.changePercent(span));
  }
}
