package dev.loadprof.report;

import dev.loadprof.model.ProcessKey;
import dev.loadprof.profile.ProcessLoad;
import java.util.Locale;

/** Number and bar formatting shared by the text reports; Locale.ROOT so output never varies. */
final class Text {
  /** Stars for 100%. */
  static final int BAR_WIDTH = 50;

  private Text() {}

  static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }

  /** A function's average load, or "-" when it has no flat time (callers only). */
  static String avgLoad(FunctionRow r) {
    return r.flatWallNs() == 0 ? "-" : f("%.2f", r.avgLoad());
  }

  static String seconds(double ns) {
    return f("%.3f", ns / 1e9);
  }

  /** " 1 [46.00%]: *****": load right-aligned to width, a bar of 50 stars for 100%. */
  static String barLine(int load, int width, double fraction) {
    int stars = (int) Math.round(Math.max(0, Math.min(1, fraction)) * BAR_WIDTH);
    return f(" %" + width + "d [%.2f%%]: %s", load, 100 * fraction, "*".repeat(stars));
  }

  /** Highest k >= 1 with CPU time at load k; 0 when there is none. */
  static int maxLoad(ProcessLoad p) {
    for (int k = p.cpuNsAtLoad.length - 1; k >= 1; k--) {
      if (p.cpuNsAtLoad[k] != 0) {
        return k;
      }
    }
    return 0;
  }

  /** Highest k >= 0 with wall time at load k; -1 when there is none. */
  static int maxTimeLoad(ProcessLoad p) {
    for (int k = p.timeAtLoadNs.length - 1; k >= 0; k--) {
      if (p.timeAtLoadNs[k] != 0) {
        return k;
      }
    }
    return -1;
  }

  /** The real-time (or CPU-time) load histogram, one bar line per load 1..max. */
  static void histogram(StringBuilder out, ProcessLoad p, boolean realTime, String indent) {
    int max = maxLoad(p);
    int width = Integer.toString(Math.max(1, max)).length();
    for (int k = 1; k <= max; k++) {
      double fraction = realTime ? p.realFraction(k) : p.cpuFraction(k);
      out.append(indent).append(barLine(k, width, fraction)).append('\n');
    }
  }

  static String processHeader(Analysis a, ProcessLoad p) {
    return f(
        "run %s pid %d (%s): %d samples, CPU %s s, real %s s, avg load %.2f",
        p.runId,
        ProcessKey.pid(p.pid),
        Printable.escape(a.comm(p.runId, p.pid)),
        p.samples,
        seconds(p.cpuNs),
        seconds(p.wallNs()),
        p.avgLoad());
  }
}
