package dev.loadprof.compare;

import dev.loadprof.compare.stats.Holm;
import dev.loadprof.compare.stats.MannWhitney;
import dev.loadprof.model.RunInfo;
import dev.loadprof.report.Analysis;
import dev.loadprof.report.GroupBy;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * loadprof compare without the CLI: one analysis of all runs, each run on a side.
 * Runs with health warnings are left out and listed (perf's lost records only when they matter,
 * {@link RecordLossRule}); the processes compared are those chosen ({@link ComparedProcesses}:
 * the subject, unless --comm or --pid chose); they match by name across runs, and by group when
 * the analysis has a --group-by.
 */
public final class Compare {
  private Compare() {}

  /**
   * @throws CompareInputException when a run has no side, a side has no usable run, or the
   *     process selection matches nothing
   */
  public static Comparison compare(Analysis all, Map<String, Side> sideByRun, CompareSettings s) {
    return compare(ComparedProcesses.forCompare(all, sideByRun), sideByRun, s);
  }

  /** The comparison of the processes chosen (whose analysis the outputs then show). */
  static Comparison compare(ComparedProcesses.Chosen chosen, Map<String, Side> sideByRun,
      CompareSettings s) {
    Analysis all = chosen.analysis();
    requireSelectedProcesses(all);
    List<String> baseline = new ArrayList<>();
    List<String> candidate = new ArrayList<>();
    List<ExcludedRun> excluded = new ArrayList<>();
    List<String> lossNotes = new ArrayList<>();
    Map<String, long[]> spans = RecordLossRule.spans(all);
    for (RunInfo r : all.runs()) {
      Side side = sideByRun.get(r.runId);
      if (side == null) {
        throw new CompareInputException("run " + r.runId + " (" + r.source + ") is neither"
            + " a baseline nor a candidate run");
      }
      ExcludedRun bad = ExcludedRun.judge(r, spans.get(r.runId), s, lossNotes);
      if (bad != null) {
        excluded.add(bad);
      } else {
        (side == Side.BASELINE ? baseline : candidate).add(r.runId);
      }
    }
    requireRuns("baseline", baseline, excluded);
    requireRuns("candidate", candidate, excluded);
    RunMetrics.GroupOf groupOf = groupOf(all.groupBy());
    Map<String, Map<SeriesKey, Double>> byRun = RunMetrics.of(all, groupOf);
    Comparison c = compare(byRun, baseline, candidate, excluded, s);
    List<String> notes = new ArrayList<>(lossNotes); // what was lost, beside the runs, first
    notes.addAll(c.notes());
    notes.addAll(chosen.notes());
    return withTakers(all, groupOf, new Comparison(c.settings(), c.baselineRuns(),
        c.candidateRuns(), c.excluded(), c.rows(), notes));
  }

  /** The comparison with notes naming the processes that took the CPUs of interfered ones. */
  static Comparison withTakers(Analysis all, RunMetrics.GroupOf groupOf, Comparison c) {
    List<String> notes = new ArrayList<>(c.notes());
    notes.addAll(Interference.takers(all, groupOf, c));
    return new Comparison(c.settings(), c.baselineRuns(), c.candidateRuns(), c.excluded(),
        c.rows(), notes);
  }

  /** The comparison of figures already extracted, each figure judged on its own. */
  static Comparison compare(Map<String, Map<SeriesKey, Double>> byRun, List<String> baseline,
      List<String> candidate, List<ExcludedRun> excluded, CompareSettings s) {
    return compare(byRun, baseline, candidate, excluded, s, s.alpha());
  }

  /**
   * The comparison of figures already extracted, e.g. nights of a nightly history.
   *
   * @param realTimeLevel the level the real-time figures' test must be able to reach (alpha,
   *     or alpha / m when m of them are judged together): it chooses the test, not the verdict
   */
  static Comparison compare(Map<String, Map<SeriesKey, Double>> byRun, List<String> baseline,
      List<String> candidate, List<ExcludedRun> excluded, CompareSettings s,
      double realTimeLevel) {
    List<String> runs = new ArrayList<>(baseline);
    runs.addAll(candidate);
    List<MetricComparison> rows = new ArrayList<>();
    Map<SeriesKey, RunPresence> presence = new java.util.TreeMap<>();
    List<SeriesKey> keys = RunMetrics.keys(byRun, runs);
    CriticalCause critical = CriticalCause.of(keys);
    for (SeriesKey key : keys) {
      RunPresence ran = presence.computeIfAbsent(RunPresence.processOf(key),
          k -> RunPresence.of(byRun, k, baseline, candidate));
      double[] b = RunPresence.values(byRun, ran.presentBaseline(), key);
      double[] c = RunPresence.values(byRun, ran.presentCandidate(), key);
      if (!ran.ranOnBothSides()) {
        if (key.equals(ran.process()) && ran.missingFromASide()) {
          rows.add(MetricRules.missing(key, ran, b, c, s));
        }
        continue;
      }
      if (b.length == 0 || c.length == 0) {
        continue; // a ratio undefined on one side: nothing to compare
      }
      SeriesKey real = key.with(Metric.REAL_TIME);
      double[] realB = RunPresence.values(byRun, ran.presentBaseline(), real);
      double[] realC = RunPresence.values(byRun, ran.presentCandidate(), real);
      double entityReal = Math.max(median(realB), median(realC));
      Attribution attribution = null;
      if (key.metric().isRealTime()) {
        SeriesKey cpu = key.with(Metric.CPU_TIME);
        attribution = Attribution.of(median(realB),
            median(RunPresence.values(byRun, ran.presentBaseline(), cpu)), median(realC),
            median(RunPresence.values(byRun, ran.presentCandidate(), cpu)));
        attribution = Interference.of(byRun, ran, key, attribution);
        attribution = critical.attach(byRun, ran, key, attribution);
      }
      double level = key.metric().isRealTime() ? realTimeLevel : s.alpha();
      rows.add(MetricRules.compare(key, b, c, entityReal, attribution, s, level)
          .withAbsent(ran.absentBaseline(), ran.absentCandidate()));
    }
    List<String> notes = notes(baseline, candidate, s, realTimeLevel);
    notes.addAll(RunPresence.notes(presence.values(), byRun, s));
    return new Comparison(s, baseline, candidate, excluded, Interference.spreadToFunctions(rows),
        notes);
  }

  /**
   * The comparison with the real-time figures that could be reported at all judged together
   * (see {@link #withHolm}). Their test is chosen for the level Holm's first step asks,
   * alpha / m: where the exact rank test cannot reach it with these runs, the t-test judges
   * them, so that judging more figures together, or with more runs, never makes a change
   * impossible to report. The family is the same whichever test is chosen (it depends on the
   * medians and run counts only), so a first pass finds m.
   */
  static Comparison judgedTogether(Map<String, Map<SeriesKey, Double>> byRun,
      List<String> baseline, List<String> candidate, CompareSettings s) {
    Comparison first = compare(byRun, baseline, candidate, List.of(), s);
    int m = family(first).size();
    Comparison c = m > 1 ? compare(byRun, baseline, candidate, List.of(), s, s.alpha() / m)
        : first;
    return withHolm(c);
  }

  /** The rows judged together: real-time figures with a test, past the absolute threshold. */
  static List<Integer> family(Comparison c) {
    List<Integer> family = new ArrayList<>();
    for (int i = 0; i < c.rows().size(); i++) {
      MetricComparison r = c.rows().get(i);
      if (r.metric().isRealTime() && r.pValue() != null && Math.max(r.baseline(),
          r.candidate()) >= c.settings().thresholds().minAbsoluteNs()) {
        family.add(i);
      }
    }
    return family;
  }

  /**
   * The comparison with the real-time figures that could be reported at all (real time past
   * the absolute threshold on a side) judged together: their p-values are Holm-adjusted, so the
   * chance that noise alone makes any of them significant, and the verdict a regression, is at
   * most alpha. nightly asks this every night, of every function, so it needs the control; the
   * other figures explain the real-time ones and keep their own p.
   */
  /** What the note on the figures judged together says after their number. */
  static final String HOLM_NOTE = " real-time figures past the absolute threshold are judged"
      + " together (Holm's adjustment of their p-values)";

  static Comparison withHolm(Comparison c) {
    List<Integer> family = family(c);
    double[] p = new double[family.size()];
    for (int i = 0; i < p.length; i++) {
      p[i] = c.rows().get(family.get(i)).pValue();
    }
    double[] adjusted = Holm.adjust(p);
    List<MetricComparison> rows = new ArrayList<>(c.rows());
    for (int i = 0; i < p.length; i++) {
      rows.set(family.get(i), rows.get(family.get(i)).withAdjustedP(adjusted[i],
          c.settings().alpha()));
    }
    List<String> notes = new ArrayList<>(c.notes());
    notes.add(p.length + HOLM_NOTE);
    return new Comparison(c.settings(), c.baselineRuns(), c.candidateRuns(), c.excluded(), rows,
        notes);
  }

  /**
   * A --comm or --pid that matches no process (a typo) would compare nothing and say "no
   * change": it is bad input, named with the processes there are.
   *
   * @throws CompareInputException when the selection left no process
   */
  static void requireSelectedProcesses(Analysis all) {
    if (!all.nothingLeftNote().isEmpty()) {
      throw new CompareInputException(all.nothingLeftNote() + ". Correct the selection.");
    }
  }

  /** "" for every process without a grouping (processes still match by name). */
  static RunMetrics.GroupOf groupOf(GroupBy groupBy) {
    return groupBy.isNone() ? (run, comm) -> "" : groupBy::groupOf;
  }

  private static void requireRuns(String side, List<String> runs, List<ExcludedRun> excluded) {
    if (runs.isEmpty()) {
      StringBuilder why = new StringBuilder("no usable " + side + " run");
      for (ExcludedRun e : excluded) {
        why.append("; left out ").append(e.runId()).append(": ").append(e.reason());
      }
      throw new CompareInputException(why + ". Give at least one healthy " + side + " trace.");
    }
  }

  /**
   * What the run counts allow one to conclude, said once for the whole comparison: which test
   * judges the figures and, where the exact rank test cannot reach the level, why another does.
   */
  static List<String> notes(List<String> baseline, List<String> candidate, CompareSettings s,
      double realTimeLevel) {
    List<String> notes = new ArrayList<>();
    int nb = baseline.size();
    int nc = candidate.size();
    if (nb >= 2 && nc >= 2) {
      double minP = MannWhitney.minPValue(nb, nc);
      if (minP >= s.alpha()) {
        notes.add(String.format(Locale.ROOT, "with %d baseline and %d candidate runs the"
            + " Mann-Whitney test cannot reach p < %s (its smallest possible p is %.3f): the"
            + " figures are judged by Student's t-test on their logarithms instead (assumes"
            + " roughly log-normal noise); with %d runs a side the distribution-free rank test"
            + " is used", nb, nc, MetricRules.levelText(s.alpha()), minP,
            runsNeeded(s.alpha())));
      } else if (minP >= realTimeLevel) {
        notes.add(String.format(Locale.ROOT, "judged together, the real-time figures must reach"
            + " p < %s (Holm's first step), which the Mann-Whitney test cannot with %d and %d"
            + " runs (its smallest possible p is %.4f): they are judged by Student's t-test on"
            + " their logarithms (assumes roughly log-normal noise); the other figures by the"
            + " rank test", MetricRules.levelText(realTimeLevel), nb, nc, minP));
      }
    } else if (nb >= 2) {
      notes.add(String.format(Locale.ROOT, "one candidate run: it is judged against the %.0f%%"
          + " prediction interval of the %d baseline runs (assumes roughly normal noise)",
          100 * (1 - s.alpha()), nb));
    } else {
      notes.add("one baseline run: no significance can be claimed; only the thresholds ("
          + s.thresholds() + ") decide what is reported");
    }
    return notes;
  }

  /** The fewest runs a side with which Mann–Whitney can reach p < alpha. */
  static int runsNeeded(double alpha) {
    int n = 2;
    while (MannWhitney.minPValue(n, n) >= alpha) {
      n++;
    }
    return n;
  }

  private static double median(double[] v) {
    return v.length == 0 ? 0 : dev.loadprof.compare.stats.OrderStatistics.median(v);
  }
}
