package dev.loadprof.critical;

import dev.loadprof.critical.CriticalPath.FunctionOnPath;
import dev.loadprof.critical.CriticalPath.Kind;
import dev.loadprof.model.CallStack;
import dev.loadprof.model.Frame;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The critical profile: the samples of each run on the path, the run's time shared evenly among
 * them (so the profile adds up to the path's on-CPU time; each sample weighs about its period),
 * a run without samples as "[not sampled]"; and the path's waits by kind, reason and stack.
 */
final class PathProfile {
  static final String NOT_SAMPLED = "[not sampled]";
  /** Frames every thread passes through on its way to the program's code. */
  private static final Set<String> ENTRY_FRAMES = Set.of("main", "_start", "__libc_start_main",
      "__libc_start_call_main", "start_thread", "clone", "clone3", "thread_start", "[unknown]");

  private final ExecutionGraph g;
  private final PathSamples samples;
  /** (tid << 32 | stack) to ns, stack -1 for a run without samples. */
  private final Map<Long, double[]> onCpu = new HashMap<>();
  private final Map<WaitKey, long[]> waits = new HashMap<>();

  private record WaitKey(int tid, Kind kind, String reason, CallStack stack) {}

  PathProfile(ExecutionGraph g, PathSamples samples) {
    this.g = g;
    this.samples = samples;
  }

  /** The run edge ending at node i, on thread tid, is on the path. */
  void addRun(int i, int tid) {
    long ns = g.time[i] - g.time[i - 1];
    int c = samples.count(i);
    if (c == 0) {
      onCpu.computeIfAbsent(((long) tid << 32) | 0xFFFFFFFFL, k -> new double[1])[0] += ns;
      return;
    }
    double each = (double) ns / c;
    for (int j = samples.first[i]; j < samples.first[i + 1]; j++) {
      int stack = samples.stackAt[j];
      onCpu.computeIfAbsent(((long) tid << 32) | stack, k -> new double[1])[0] += each;
    }
  }

  void addWait(int tid, Kind kind, String reason, CallStack stack, long ns) {
    waits.computeIfAbsent(new WaitKey(tid, kind, reason,
        stack == null ? CriticalPaths.none() : stack), k -> new long[1])[0] += ns;
  }

  private CallStack stackOf(long key) {
    int s = (int) key;
    return s == -1 ? new CallStack(new Frame[] {new Frame(NOT_SAMPLED, "")})
        : g.marks.stacks.get(s);
  }

  /** Inclusive and self ns per function over the path's samples: name to {inclusive, self}. */
  private Map<String, long[]> functions() {
    Map<String, long[]> byName = new HashMap<>();
    Set<String> seen = new HashSet<>();
    for (Map.Entry<Long, double[]> e : onCpu.entrySet()) {
      if ((int) (long) e.getKey() == -1) {
        continue;
      }
      Frame[] frames = stackOf(e.getKey()).frames();
      seen.clear();
      // Whole ns per stack before summing: the map's order follows stack ids, which follow the
      // order the windows were merged in, and integer sums do not.
      long ns = Math.round(e.getValue()[0]);
      for (int f = 0; f < frames.length; f++) {
        String name = frames[f].symbol();
        long[] v = byName.computeIfAbsent(name, x -> new long[2]);
        if (seen.add(name)) {
          v[0] += ns;
        }
        if (f == 0) {
          v[1] += ns;
        }
      }
    }
    return byName;
  }

  /** The least share of the path a function needs to be predicted for unasked. */
  static final double MIN_CANDIDATE_SHARE = 0.01;

  List<FunctionOnPath> topFunctions(int n, long pathNs) {
    List<FunctionOnPath> out = new ArrayList<>();
    functions().forEach((name, v) -> out.add(new FunctionOnPath(name, v[0],
        pathNs == 0 ? 0 : (double) v[0] / pathNs, v[1])));
    out.sort(Comparator.comparingLong((FunctionOnPath f) -> -f.ns())
        .thenComparing(FunctionOnPath::function));
    return List.copyOf(out.subList(0, Math.min(n, out.size())));
  }

  /**
   * The functions to predict for: the most time on the path among the program's own functions
   * (not the kernel's, the C library's, or the frames every thread starts from), each with at
   * least {@link #MIN_CANDIDATE_SHARE} of the path: below it a prediction is noise, and a
   * function that frame-pointer stacks rarely show (the caller of a leaf function) would read
   * as "gains nothing".
   */
  List<String> whatIfCandidates(int n, long pathNs) {
    Set<String> program = new HashSet<>();
    for (Long key : onCpu.keySet()) {
      if ((int) (long) key == -1) {
        continue;
      }
      for (Frame f : stackOf(key).frames()) {
        if (!ENTRY_FRAMES.contains(f.symbol()) && !isSystem(f.dso())) {
          program.add(f.symbol());
        }
      }
    }
    List<Map.Entry<String, long[]>> rows = new ArrayList<>();
    functions().entrySet().stream().filter(e -> program.contains(e.getKey()))
        .filter(e -> e.getValue()[0] >= MIN_CANDIDATE_SHARE * pathNs).forEach(rows::add);
    rows.sort(Comparator.comparingLong((Map.Entry<String, long[]> e) -> -e.getValue()[0])
        .thenComparing(Map.Entry::getKey));
    List<String> out = new ArrayList<>();
    for (int i = 0; i < Math.min(n, rows.size()); i++) {
      out.add(rows.get(i).getKey());
    }
    return out;
  }

  static boolean isSystem(String dso) {
    String name = dso.substring(dso.lastIndexOf('/') + 1);
    return dso.startsWith("[") || dso.endsWith("vmlinux") || name.startsWith("libc.")
        || name.startsWith("libc-") || name.startsWith("libpthread") || name.startsWith("ld-linux")
        || name.startsWith("libm.") || name.startsWith("libstdc++") || dso.isEmpty();
  }

  /** Folded lines, root first: runs by their stacks, waits under a leaf that names them. */
  Map<String, Long> folded() {
    Map<String, Long> lines = new TreeMap<>();
    onCpu.forEach((key, ns) -> lines.merge(line(stackOf(key), null), Math.round(ns[0]),
        Long::sum));
    waits.forEach((w, ns) -> lines.merge(line(w.stack(),
        CriticalPath.waitLabel(w.kind(), w.reason())), ns[0], Long::sum));
    lines.values().removeIf(v -> v <= 0);
    return lines;
  }

  private static String line(CallStack s, String leaf) {
    StringBuilder b = new StringBuilder();
    Frame[] f = s.frames();
    for (int i = f.length - 1; i >= 0; i--) {
      if (b.length() > 0) {
        b.append(';');
      }
      b.append(f[i].symbol().replace(';', ':'));
    }
    if (leaf != null) {
      if (b.length() > 0) {
        b.append(';');
      }
      b.append(leaf);
    }
    return b.toString();
  }

  /** The on-CPU stacks on the path per thread, by thread and then most first. */
  List<CriticalPath.StackOnPath> stacks() {
    List<CriticalPath.StackOnPath> out = new ArrayList<>();
    onCpu.forEach((key, ns) -> out.add(new CriticalPath.StackOnPath((int) (key >> 32),
        stackOf(key), Math.round(ns[0]))));
    out.sort(Comparator.comparingInt(CriticalPath.StackOnPath::tid)
        .thenComparingLong(s -> -s.ns()).thenComparing(s -> s.stack().toString()));
    return out;
  }

  List<CriticalPath.WaitOnPath> waits() {
    List<CriticalPath.WaitOnPath> out = new ArrayList<>();
    waits.forEach((w, ns) -> out.add(new CriticalPath.WaitOnPath(w.tid(), w.kind(), w.reason(),
        w.stack(), ns[0])));
    out.sort(Comparator.comparingLong((CriticalPath.WaitOnPath w) -> -w.ns())
        .thenComparingInt(CriticalPath.WaitOnPath::tid)
        .thenComparing(w -> w.kind().name()).thenComparing(CriticalPath.WaitOnPath::reason)
        .thenComparing(w -> w.stack().toString()));
    return out;
  }
}
