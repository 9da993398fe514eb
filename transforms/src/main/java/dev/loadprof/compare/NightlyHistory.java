package dev.loadprof.compare;

import dev.loadprof.compare.stats.EDivisive;
import dev.loadprof.compare.stats.OrderStatistics;
import dev.loadprof.model.RunInfo;
import dev.loadprof.report.Analysis;
import dev.loadprof.report.GroupBy;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * loadprof nightly without the CLI. Each figure's nightly values (medians over a night's runs)
 * go through E-Divisive means; a change point is reported when the permutation test keeps it,
 * the level before and after differ past the thresholds, and the step is at least
 * minStepNoise times the series' noise. The latest night's real-time figures are judged
 * together (Holm), since the question is asked every night of every function. The latest night is then compared
 * by the rules of compare with the benchmark's nights since its last change point, at most
 * historyNights of them.
 */
public final class NightlyHistory {
  private NightlyHistory() {}

  /**
   * @throws CompareInputException when no healthy run has a night, or the process selection
   *     matches nothing
   */
  public static Nightly nightly(Analysis all, NightlySettings s) {
    return nightly(all, p -> RunMetrics.functionsOf(all, p), s);
  }

  /**
   * The same with each process's function figures taken already ({@link
   * RunMetrics#functionsOf}), so that {@code all} needs no stacks (NightlyJob's runs kept one by
   * one).
   */
  static Nightly nightly(Analysis all, RunMetrics.FunctionsOf functionsOf, NightlySettings s) {
    Compare.requireSelectedProcesses(all);
    List<ExcludedRun> excluded = new ArrayList<>();
    Map<String, LocalDate> nightOf = new HashMap<>();
    Map<String, String> doubtful = new TreeMap<>(); // run -> why its night is in doubt
    List<String> notes = new ArrayList<>();
    Map<String, long[]> spans = RecordLossRule.spans(all);
    for (RunInfo r : all.runs()) {
      List<String> lossNote = new ArrayList<>(1); // said of a run that is kept
      ExcludedRun bad = ExcludedRun.judge(r, spans.get(r.runId), s.compare(), lossNote);
      LocalDate night = Nights.of(r);
      if (bad != null) {
        excluded.add(bad);
      } else if (night == null) {
        excluded.add(new ExcludedRun(r.runId, "no night: the run id has no date (YYYY-MM-DD or"
            + " YYYYMMDD) and the trace header no '# captured on' line"));
      } else {
        nightOf.put(r.runId, night);
        notes.addAll(lossNote);
        if (r.nightDoubt != null && !r.nightDoubt.isEmpty()) {
          doubtful.put(r.runId, r.nightDoubt);
        }
      }
    }
    leaveDoubtfulOutOfLatest(nightOf, doubtful, excluded, notes);
    if (nightOf.isEmpty()) {
      throw new CompareInputException("no healthy run with a night among " + all.runs().size()
          + " runs; name traces with a date (e.g. bench-2026-11-01.txt.gz) or record them with"
          + " perf's header (perf script --header)");
    }
    ComparedProcesses.Chosen chosen = ComparedProcesses.forNightly(all, runsByBenchmark(all,
        nightOf));
    Analysis compared = chosen.analysis();
    RunMetrics.GroupOf groupOf = groupOf(compared.groupBy());
    Map<String, Map<SeriesKey, Double>> byRun =
        new TreeMap<>(RunMetrics.of(compared, groupOf, functionsOf));
    byRun.keySet().retainAll(nightOf.keySet());

    // benchmark -> night -> runs
    Map<String, TreeMap<LocalDate, List<String>>> runsOf = new TreeMap<>();
    byRun.forEach((run, values) -> {
      Set<String> groups = new TreeSet<>();
      values.keySet().forEach(k -> groups.add(k.group()));
      if (compared.groupBy().isNone()) {
        // A run in which its benchmark's process did not run still is a night of the benchmark:
        // the latest night without it is "missing", not "no run on the latest night".
        groups.add(Nights.benchmarkOf(run));
      }
      for (String g : groups) {
        runsOf.computeIfAbsent(g, k -> new TreeMap<>())
            .computeIfAbsent(nightOf.get(run), k -> new ArrayList<>()).add(run);
      }
    });
    LocalDate latestNight = nightOf.values().stream().max(LocalDate::compareTo).orElseThrow();

    List<HistoryPoint> history = new ArrayList<>();
    List<ChangePoint> changePoints = new ArrayList<>();
    int[] below = {0, 0}; // change points dropped by the thresholds, and within the noise
    Map<String, Comparison> latest = new TreeMap<>();
    Map<String, List<LocalDate>> nightsByBenchmark = new LinkedHashMap<>();
    // Each benchmark's history is its own (its runs, series and change points), so benchmarks
    // are done at once, on the cores a nightly of thousands of runs otherwise leaves idle; their
    // results are taken in the benchmarks' order, so the outputs are the same as one by one,
    // and so is what a failure says: the first benchmark's, thrown as it was on this thread.
    List<Object> done = runsOf.entrySet().parallelStream().map(e -> {
      try {
        return (Object) benchmarkHistory(e.getKey(), e.getValue(), byRun, latestNight, s);
      } catch (RuntimeException failed) {
        return failed;
      }
    }).toList();
    for (Object each : done) {
      if (each instanceof RuntimeException failed) {
        throw failed;
      }
      BenchmarkHistory b = (BenchmarkHistory) each;
      nightsByBenchmark.put(b.benchmark(), List.copyOf(b.nights()));
      history.addAll(b.history());
      changePoints.addAll(b.changePoints());
      below[0] += b.below()[0];
      below[1] += b.below()[1];
      if (b.latest() != null) {
        latest.put(b.benchmark(), b.latest());
      }
      notes.addAll(b.notes());
    }
    latest.replaceAll((benchmark, c) -> Compare.withTakers(compared, groupOf, c));
    notes.addAll(chosen.notes());
    changePoints.sort((a, b) -> a.night().equals(b.night())
        ? a.key().compareTo(b.key()) : a.night().compareTo(b.night()));
    return new Nightly(s, latestNight, nightsByBenchmark, history, changePoints, below[0],
        below[1], latest, excluded, notes);
  }

  /** One benchmark's part of the history, and its latest night judged (null when it is not). */
  private record BenchmarkHistory(String benchmark, Set<LocalDate> nights,
      List<HistoryPoint> history, List<ChangePoint> changePoints, int[] below,
      Comparison latest, List<String> notes) {}

  private static BenchmarkHistory benchmarkHistory(String benchmark,
      TreeMap<LocalDate, List<String>> nights, Map<String, Map<SeriesKey, Double>> byRun,
      LocalDate latestNight, NightlySettings s) {
    List<HistoryPoint> history = new ArrayList<>();
    int[] below = {0, 0};
    Map<String, Map<SeriesKey, Double>> mine = only(byRun, benchmark, nights);
    List<SeriesKey> keys = tracked(mine, s.topFunctions());
    Map<SeriesKey, Series> series = new HashMap<>();
    for (SeriesKey k : keys) {
      Series x = Series.of(k, nights, mine);
      series.put(k, x);
      for (int i = 0; i < x.nights.size(); i++) {
        history.add(new HistoryPoint(k, x.nights.get(i), x.runs.get(i), x.values[i]));
      }
    }
    List<ChangePoint> mineCps = new ArrayList<>();
    for (SeriesKey k : keys) {
      mineCps.addAll(changePoints(series.get(k), series, s, below));
    }
    Map<String, Comparison> latest = new TreeMap<>();
    List<String> notes = new ArrayList<>();
    compareLatest(benchmark, nights, mine, mineCps, latestNight, s, latest, notes);
    return new BenchmarkHistory(benchmark, nights.keySet(), history, mineCps, below,
        latest.get(benchmark), notes);
  }

  /**
   * A process's benchmark: the run id without its date, unless --group-by says otherwise. Each
   * run's found once (three patterns tried on its id), not once per process of it: a nightly
   * asks for each of its thousands of runs' processes.
   */
  static RunMetrics.GroupOf groupOf(GroupBy groupBy) {
    if (!groupBy.isNone()) {
      return groupBy::groupOf;
    }
    Map<String, String> benchmarks = new java.util.concurrent.ConcurrentHashMap<>();
    return (run, comm) -> benchmarks.computeIfAbsent(run.runId, Nights::benchmarkOf);
  }

  /**
   * The runs with a night, oldest first, of each benchmark ("benchmark NAME"), or all in one
   * ("") under a --group-by, whose groups may depend on the process.
   */
  private static Map<String, List<String>> runsByBenchmark(Analysis all,
      Map<String, LocalDate> nightOf) {
    Map<String, List<String>> out = new TreeMap<>();
    List<String> runs = new ArrayList<>(nightOf.keySet());
    runs.sort((a, b) -> nightOf.get(a).equals(nightOf.get(b)) ? a.compareTo(b)
        : nightOf.get(a).compareTo(nightOf.get(b)));
    for (String r : runs) {
      String group = all.groupBy().isNone() ? "benchmark " + Nights.benchmarkOf(r) : "";
      out.computeIfAbsent(group, k -> new ArrayList<>()).add(r);
    }
    return out;
  }

  /**
   * A run whose night is in doubt (dev.loadprof.archive.NightRule) is never the latest night:
   * on or after the latest trusted night, it is left out; before it, it stays, with a note.
   */
  private static void leaveDoubtfulOutOfLatest(Map<String, LocalDate> nightOf,
      Map<String, String> doubtful, List<ExcludedRun> excluded, List<String> notes) {
    LocalDate latestTrusted = nightOf.entrySet().stream()
        .filter(e -> !doubtful.containsKey(e.getKey())).map(Map.Entry::getValue)
        .max(LocalDate::compareTo).orElse(null);
    doubtful.forEach((run, why) -> {
      if (latestTrusted == null || !nightOf.get(run).isBefore(latestTrusted)) {
        excluded.add(new ExcludedRun(run, why));
        nightOf.remove(run);
      } else {
        notes.add(why);
      }
    });
  }

  private static void compareLatest(String benchmark, TreeMap<LocalDate, List<String>> nights,
      Map<String, Map<SeriesKey, Double>> mine, List<ChangePoint> cps, LocalDate latestNight,
      NightlySettings s, Map<String, Comparison> latest, List<String> notes) {
    if (!nights.containsKey(latestNight)) {
      notes.add("benchmark " + benchmark + " has no run on the latest night " + latestNight
          + "; its last night is " + nights.lastKey());
      return;
    }
    LocalDate since = null;
    for (ChangePoint cp : cps) {
      if (cp.night().isBefore(latestNight) && (since == null || cp.night().isAfter(since))) {
        since = cp.night();
      }
    }
    List<LocalDate> earlier = new ArrayList<>(nights.headMap(latestNight, false).keySet());
    if (since != null) {
      earlier = new ArrayList<>(nights.subMap(since, true, latestNight, false).keySet());
    }
    earlier = earlier.subList(Math.max(0, earlier.size() - s.historyNights()), earlier.size());
    if (earlier.isEmpty()) {
      notes.add("benchmark " + benchmark + ": no earlier night to compare the latest night "
          + latestNight + " with");
      return;
    }
    TreeMap<LocalDate, List<String>> compared = new TreeMap<>();
    earlier.forEach(n -> compared.put(n, nights.get(n)));
    compared.put(latestNight, nights.get(latestNight));
    latest.put(benchmark, NightlyLatest.compare(compared, mine, s.compare()));
    notes.add("benchmark " + benchmark + ": latest night " + latestNight + " against "
        + earlier.size() + " nights from " + earlier.get(0)
        + (since != null ? " (since the change point of " + since + ")" : ""));
  }

  /** E-Divisive on one figure's nightly values; only changes past the thresholds are kept. */
  private static List<ChangePoint> changePoints(Series x, Map<SeriesKey, Series> all,
      NightlySettings s, int[] below) {
    List<ChangePoint> out = new ArrayList<>();
    if (x.values.length < 2 * s.minNights()) {
      return out;
    }
    long seed = s.seed() * 31 + stableHash(x.key.toString());
    double noise = OrderStatistics.noiseOfNeighbours(x.values);
    EDivisive detector = new EDivisive(s.changePointSignificance(), s.permutations(),
        s.minNights(), seed);
    List<EDivisive.ChangePoint> found = detector.changePoints(x.values);
    for (int i = 0; i < found.size(); i++) {
      int at = found.get(i).index();
      int from = i == 0 ? 0 : found.get(i - 1).index();
      int to = i + 1 < found.size() ? found.get(i + 1).index() : x.values.length;
      LocalDate night = x.nights.get(at);
      LocalDate first = x.nights.get(from);
      LocalDate end = to < x.nights.size() ? x.nights.get(to) : null;
      double before = x.median(first, night);
      double after = x.median(night, end);
      Series real = all.get(x.key.with(Metric.REAL_TIME));
      double entityReal = real == null ? 0
          : Math.max(real.median(first, night), real.median(night, end));
      if (!MetricRules.passes(x.key.metric(), before, after, entityReal,
          s.compare().thresholds())) {
        below[0]++;
        continue;
      }
      if (Math.abs(after - before) < s.minStepNoise() * noise) {
        below[1]++;
        continue;
      }
      Attribution attribution = null;
      Series cpu = all.get(x.key.with(Metric.CPU_TIME));
      if (x.key.metric().isRealTime() && cpu != null) {
        attribution = Attribution.of(before, cpu.median(first, night), after,
            cpu.median(night, end));
        attribution = CriticalCause.atChangePoint(attribution, x.key, all, first, night, end);
      }
      boolean worse = (after > before) == x.key.metric().higherIsWorse();
      out.add(new ChangePoint(night, x.key, before, after,
          before == 0 ? null : 100 * (after - before) / Math.abs(before),
          worse ? MetricComparison.REGRESSION : MetricComparison.IMPROVEMENT, attribution,
          found.get(i).pValue()));
    }
    return out;
  }

  /** The runs of one benchmark with only its figures. */
  private static Map<String, Map<SeriesKey, Double>> only(
      Map<String, Map<SeriesKey, Double>> byRun, String benchmark,
      TreeMap<LocalDate, List<String>> nights) {
    Map<String, Map<SeriesKey, Double>> out = new TreeMap<>();
    nights.values().forEach(runs -> runs.forEach(run -> {
      Map<SeriesKey, Double> m = new TreeMap<>();
      byRun.get(run).forEach((k, v) -> {
        if (k.group().equals(benchmark)) {
          m.put(k, v);
        }
      });
      out.put(run, m);
    }));
    return out;
  }

  /** Every process figure, and the figures of each process's top functions by real time. */
  static List<SeriesKey> tracked(Map<String, Map<SeriesKey, Double>> byRun, int topFunctions) {
    Map<SeriesKey, Double> functionReal = new HashMap<>();
    Set<SeriesKey> keys = new TreeSet<>();
    byRun.values().forEach(m -> m.forEach((k, v) -> {
      if (!k.isFunction()) {
        keys.add(k);
      } else if (k.metric().isRealTime()) {
        functionReal.merge(k, v, Double::sum);
      }
    }));
    Map<String, List<SeriesKey>> byProcess = new TreeMap<>();
    functionReal.keySet().stream()
        .sorted((a, b) -> {
          int c = Double.compare(functionReal.get(b), functionReal.get(a));
          return c != 0 ? c : a.compareTo(b);
        })
        .forEach(k -> byProcess.computeIfAbsent(k.group() + "\u0000" + k.process(),
            p -> new ArrayList<>()).add(k));
    Set<SeriesKey> functions = new HashSet<>();
    byProcess.values().forEach(l -> functions.addAll(l.subList(0, Math.min(topFunctions,
        l.size()))));
    for (SeriesKey f : functions) {
      keys.add(f);
      keys.add(f.with(Metric.CPU_TIME));
      keys.add(f.with(Metric.AVG_LOAD));
      keys.add(f.with(Metric.CRITICAL_TIME)); // no values, so no series, in runs without a path
    }
    return List.copyOf(keys);
  }

  private static long stableHash(String s) {
    long h = 1125899906842597L;
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      h = 31 * h + b;
    }
    return h;
  }

  /** One figure's nightly medians, over the nights on which it is defined. */
  static final class Series {
    final SeriesKey key;
    final List<LocalDate> nights = new ArrayList<>();
    final List<Integer> runs = new ArrayList<>();
    double[] values;

    private Series(SeriesKey key) {
      this.key = key;
    }

    static Series of(SeriesKey key, TreeMap<LocalDate, List<String>> nights,
        Map<String, Map<SeriesKey, Double>> byRun) {
      Series x = new Series(key);
      List<Double> v = new ArrayList<>();
      nights.forEach((night, runIds) -> {
        List<Double> values = new ArrayList<>();
        for (String r : runIds) {
          Double value = RunPresence.value(byRun, r, key); // null: the process did not run
          if (value != null) {
            values.add(value);
          }
        }
        if (!values.isEmpty()) {
          x.nights.add(night);
          x.runs.add(values.size());
          v.add(OrderStatistics.median(values.stream().mapToDouble(Double::doubleValue).toArray()));
        }
      });
      x.values = v.stream().mapToDouble(Double::doubleValue).toArray();
      return x;
    }

    /** Whether some night in [from, to) has a value; to null = to the end. */
    boolean hasNights(LocalDate from, LocalDate to) {
      return nights.stream().anyMatch(n -> !n.isBefore(from) && (to == null || n.isBefore(to)));
    }

    /** Median of the nightly values in [from, to); to null = to the end. */
    double median(LocalDate from, LocalDate to) {
      List<Double> in = new ArrayList<>();
      for (int i = 0; i < nights.size(); i++) {
        LocalDate n = nights.get(i);
        if (!n.isBefore(from) && (to == null || n.isBefore(to))) {
          in.add(values[i]);
        }
      }
      return in.isEmpty() ? 0 : OrderStatistics.median(in.stream().mapToDouble(Double::doubleValue)
          .toArray());
    }
  }
}
