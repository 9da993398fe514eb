package dev.loadprof.report;

import com.google.perftools.profiles.ProfileProto.Profile;
import com.google.perftools.profiles.ProfileProto.Sample;
import dev.loadprof.model.Frame;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.profile.ProfileHeader;
import dev.loadprof.wall.ThreadStateSummary;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * offcpu.pb.gz: the off-CPU profile for go tool pprof. Sample type off_cpu/nanoseconds (thread
 * time spent waiting); one sample per thread and distinct (state, switch-out stack), whose leaf
 * frame is the state, labelled like profile.pb.gz (numeric pid and tid, process and run) plus a
 * string label state. Narrowed like the profile (--tid, -C, --time, --load). As profile.pb.gz:
 * the subject's program is the first mapping, so pprof names it ("File:"), and the duration and
 * the comments (runs, warnings) are {@link ProfileHeader}'s.
 */
public final class OffCpuPprofReport implements Report {
  public static final String FILE_NAME = "offcpu.pb.gz";
  public static final String LABEL_STATE = "state";

  @Override
  public String fileName() {
    return FILE_NAME;
  }

  @Override
  public boolean isText() {
    return false;
  }

  @Override
  public void write(Analysis a, OutputStream out) throws IOException {
    WaitPprof.writeGzipped(build(a), out);
  }

  /** A wait and its stack's text, made once: the sort compares it O(n log n) times. */
  private record Row(ProcessLoad process, ThreadStateSummary.Wait waitKey, long ns,
      String stackText) {}

  /** By run, pid, tid, state, then stack text; written out for C1 (see StackOrder.STACKS). */
  private static int compareRows(Row x, Row y) {
    int c = x.process().runId.compareTo(y.process().runId);
    if (c != 0) {
      return c;
    }
    c = Integer.compare(x.process().pid, y.process().pid);
    if (c != 0) {
      return c;
    }
    c = Integer.compare(x.waitKey().tid(), y.waitKey().tid());
    if (c != 0) {
      return c;
    }
    c = x.waitKey().state().compareTo(y.waitKey().state());
    return c != 0 ? c : x.stackText().compareTo(y.stackText());
  }

  static Profile build(Analysis a) {
    List<Row> rows = new ArrayList<>();
    Map<Frame, String> frameTexts = new IdentityHashMap<>();
    for (ProcessLoad p : a.processes()) {
      if (p.threadStates != null) {
        p.threadStates.waits.forEach((w, ns) -> {
          if (Math.round(ns) > 0) {
            rows.add(new Row(p, w, Math.round(ns), WaitPprof.sortKey(w.stack(), frameTexts)));
          }
        });
      }
    }
    // A deterministic order, whatever order the maps hold them in.
    rows.sort(OffCpuPprofReport::compareRows);
    List<WaitPprof.Row> out = new ArrayList<>(rows.size());
    for (Row r : rows) {
      String state = r.waitKey().state().label;
      out.add(new WaitPprof.Row(r.process(), r.waitKey().tid(), new Frame(state, ""),
          r.waitKey().stack(), state, r.ns()));
    }
    return WaitPprof.build(a, "off_cpu", LABEL_STATE, out);
  }
}
