package dev.loadprof.report;

import com.google.perftools.profiles.ProfileProto.Profile;
import dev.loadprof.critical.CriticalPath;
import dev.loadprof.model.Frame;
import dev.loadprof.profile.ProcessLoad;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * critical.pb.gz: the critical path of each process that has one, for go tool pprof. Sample type
 * critical/nanoseconds (time on the path); one sample per thread and stack on the path, labelled
 * like profile.pb.gz (numeric pid and tid, process and run) plus a string label kind (running,
 * blocked, runnable); a wait's leaf frame names it ("[blocked: timer]"). The samples of a
 * process add up to its span.
 */
public final class CriticalPprofReport implements Report {
  public static final String FILE_NAME = "critical.pb.gz";
  public static final String LABEL_KIND = "kind";

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

  private record Keyed(WaitPprof.Row row, String stackText) {}

  static Profile build(Analysis a) {
    List<WaitPprof.Row> rows = new ArrayList<>();
    Map<Frame, String> texts = new IdentityHashMap<>();
    for (ProcessLoad p : a.processes()) {
      CriticalPath path = a.criticalPath(p).orElse(null);
      if (path == null) {
        continue;
      }
      List<Keyed> keyed = new ArrayList<>();
      for (CriticalPath.StackOnPath s : path.stacks()) {
        keyed.add(new Keyed(new WaitPprof.Row(p, s.tid(), null, s.stack(), "running", s.ns()),
            WaitPprof.sortKey(s.stack(), texts)));
      }
      for (CriticalPath.WaitOnPath w : path.waits()) {
        String label = CriticalPath.waitLabel(w.kind(), w.reason());
        String kind = w.kind() == CriticalPath.Kind.BLOCKED ? "blocked" : "runnable";
        keyed.add(new Keyed(new WaitPprof.Row(p, w.tid(), new Frame(label, ""), w.stack(), kind,
            w.ns()), label + WaitPprof.sortKey(w.stack(), texts)));
      }
      // A deterministic order: by thread, kind, then stack.
      keyed.sort(Comparator.comparingInt((Keyed k) -> k.row().tid())
          .thenComparing(k -> k.row().label()).thenComparing(Keyed::stackText));
      keyed.forEach(k -> rows.add(k.row()));
    }
    return WaitPprof.build(a, "critical", LABEL_KIND, rows);
  }
}
