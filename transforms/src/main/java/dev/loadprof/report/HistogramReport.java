package dev.loadprof.report;

import dev.loadprof.profile.ProcessLoad;

/**
 * histogram.txt: per process, the share of CPU time and of real time spent at each load, and the
 * exact wall time at each load from the run intervals. Ignores the load filter on purpose: a
 * histogram of only some loads would mislead.
 */
public final class HistogramReport implements TextReport {
  public static final String FILE_NAME = "histogram.txt";

  @Override
  public String fileName() {
    return FILE_NAME;
  }

  @Override
  public String render(Analysis a) {
    StringBuilder sb = new StringBuilder();
    sb.append("# loadprof load histograms (load = threads of the process on a CPU at once;")
        .append(" not load-filtered)\n");
    for (ProcessLoad p : a.processes()) {
      if (p.pid == 0) {
        continue; // the idle task: its "load" is idle CPUs, not parallelism
      }
      sb.append('\n').append(Text.processHeader(a, p)).append('\n');
      sb.append("CPU time at load:\n");
      Text.histogram(sb, p, false, "");
      sb.append("Real time at load:\n");
      Text.histogram(sb, p, true, "");
      int maxT = Text.maxTimeLoad(p);
      sb.append("Exact time at load (s, from run intervals; 0 = alive but none of its threads on a CPU):\n");
      int width = Integer.toString(Math.max(0, maxT)).length();
      for (int k = 0; k <= maxT; k++) {
        sb.append(Text.f("%" + width + "d: %.6f", k, p.timeAtLoadNs[k] / 1e9)).append('\n');
      }
      sb.append(Text.f("Average load: %.2f (CPU time / real time)", p.avgLoad())).append('\n');
    }
    return sb.toString();
  }
}
