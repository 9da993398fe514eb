package dev.loadprof.compare;

import dev.loadprof.model.RunInfo;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.report.Analysis;
import dev.loadprof.report.Printable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which processes compare and nightly compare when neither --comm nor --pid chose them.
 *
 * <p>When every run of a comparison knows its subject (the program perf started, {@link
 * RunInfo#subjectPid}) and it ran somewhere, the subject's processes (it and those it started)
 * are compared and nothing else: the other processes of a system-wide recording are neighbours,
 * whose use of the subject's CPUs its own thread states count as interference. A new build of
 * the program is the same subject: when the baseline's subjects have one name and the
 * candidate's another ({@code prog} and {@code prog2}, {@code ./build-a/server} and
 * {@code ./build-b/server} under other names), the candidate's processes of that name are
 * compared under the baseline's name, and a note says so once.
 *
 * <p>A run that does not say which program perf started (text without task records, perf
 * record -a without a command) leaves the processes that ran in every run, by name; when there
 * is none, nothing can be compared without a choice: bad input (exit 2) naming what was seen.
 */
final class ComparedProcesses {
  /** How many names the message of a comparison without common processes lists. */
  static final int NAMES_LISTED = 10;

  /** The analysis narrowed to the compared processes, and what the notes say of the choice. */
  record Chosen(Analysis analysis, List<String> notes) {}

  /**
   * The runs judged together (a comparison, or one benchmark's nights) and how their subjects'
   * names map: subjects named one of {@code renamed} in the runs {@code renamedRuns} take the
   * name {@code name}; {@code subject} says so in the note ("" when nothing is renamed).
   *
   * @param label "" for compare, "benchmark NAME" for nightly
   */
  private record Group(String label, List<String> runs, Set<String> renamedRuns,
      Set<String> renamed, String name, String subject) {}

  private ComparedProcesses() {}

  /** For compare: its healthy runs of each side. */
  static Chosen forCompare(Analysis all, Map<String, Side> sideByRun) {
    if (!all.processSelection().isEmpty()) {
      return new Chosen(all, List.of());
    }
    List<String> baseline = new ArrayList<>();
    List<String> candidate = new ArrayList<>();
    for (RunInfo r : all.runs()) {
      Side side = sideByRun.get(r.runId);
      if (side != null && !ExcludedRun.hasWarningsBesidesLosses(r)) {
        (side == Side.BASELINE ? baseline : candidate).add(r.runId);
      }
    }
    if (baseline.isEmpty() || candidate.isEmpty()) {
      return new Chosen(all, List.of()); // Compare says why
    }
    List<String> runs = new ArrayList<>(baseline);
    runs.addAll(candidate);
    Set<String> before = subjectNames(all, baseline);
    Set<String> after = subjectNames(all, candidate);
    Group g;
    if (before.size() == 1 && after.size() == 1 && !before.equals(after)) {
      String b = before.iterator().next();
      String c = after.iterator().next();
      g = new Group("", runs, Set.copyOf(candidate), after, b, shown(b) + " (baseline) with "
          + shown(c) + " (candidate), the program perf started in each run (a new build under"
          + " another name)");
    } else {
      g = new Group("", runs, Set.of(), Set.of(), "", "");
    }
    return choose(all, List.of(g));
  }

  /**
   * For nightly: the runs with a night of each benchmark ("benchmark NAME" -> runs, or "" ->
   * all runs), oldest first. A benchmark's subject takes the name of its latest run's.
   */
  static Chosen forNightly(Analysis all, Map<String, List<String>> runsByBenchmark) {
    if (!all.processSelection().isEmpty()) {
      return new Chosen(all, List.of());
    }
    List<Group> groups = new ArrayList<>();
    runsByBenchmark.forEach((benchmark, runs) -> {
      Set<String> names = subjectNames(all, runs);
      String latest = names.isEmpty() ? ""
          : subjectNames(all, runs.subList(runs.size() - 1, runs.size())).stream().findFirst()
              .orElse("");
      if (names.size() > 1 && !latest.isEmpty()) {
        Set<String> older = new TreeSet<>(names);
        older.remove(latest);
        groups.add(new Group(benchmark, runs, Set.copyOf(runs), older, latest,
            shown(latest) + " (named " + shown(older) + " on earlier nights), the program perf"
                + " started in every run"));
      } else {
        groups.add(new Group(benchmark, runs, Set.of(), Set.of(), "", ""));
      }
    });
    return choose(all, groups);
  }

  private static Chosen choose(Analysis all, List<Group> groups) {
    Map<String, RunInfo> runs = new HashMap<>();
    all.runs().forEach(r -> runs.put(r.runId, r));
    Map<String, List<ProcessLoad>> byRun = new HashMap<>();
    for (ProcessLoad p : all.processes()) {
      byRun.computeIfAbsent(p.runId, k -> new ArrayList<>()).add(p);
    }
    Set<ProcessLoad> kept = new HashSet<>();
    Map<ProcessLoad, String> names = new HashMap<>();
    Set<String> grouped = new HashSet<>();
    List<String> notes = new ArrayList<>();
    for (Group g : groups) {
      grouped.addAll(g.runs());
      String prefix = g.label().isEmpty() ? "" : g.label() + ": ";
      boolean everyRunKnows = g.runs().stream().allMatch(r -> runs.get(r).hasSubject());
      boolean subjectRan = g.runs().stream().anyMatch(
          r -> byRun.getOrDefault(r, List.of()).stream().anyMatch(all::isSubject));
      if (everyRunKnows && subjectRan) {
        Set<String> neighbours = new TreeSet<>();
        for (String r : g.runs()) {
          for (ProcessLoad p : byRun.getOrDefault(r, List.of())) {
            String comm = all.comm(p.runId, p.pid);
            if (!all.isSubject(p)) {
              neighbours.add(comm);
              continue;
            }
            kept.add(p);
            if (g.renamedRuns().contains(r) && g.renamed().contains(comm)) {
              names.put(p, g.name());
            }
          }
        }
        String subject = g.subject().isEmpty()
            ? shown(subjectNames(all, g.runs())) + ", the program perf started in every run"
            : g.subject();
        notes.add(prefix + "comparing subject " + subject + ", with any processes it started"
            + (neighbours.isEmpty() ? "" : "; the " + neighbours.size() + " other processes of"
                + " the recordings are not compared: they count only where they took its CPUs"
                + " (interference)"));
        continue;
      }
      Set<String> common = inEveryRun(all, g.runs(), byRun);
      String why = whyNoSubject(all, g.runs(), everyRunKnows);
      if (common.isEmpty()) {
        throw new CompareInputException(prefix + "no process ran in every run, and " + why
            + ": choose the processes to compare with --comm REGEX (or --pid); the processes"
            + " seen: " + seen(all, g.runs(), byRun));
      }
      for (String r : g.runs()) {
        for (ProcessLoad p : candidates(all, byRun.getOrDefault(r, List.of()))) {
          if (common.contains(all.comm(p.runId, p.pid))) {
            kept.add(p);
          }
        }
      }
      notes.add(prefix + "no subject: " + why + "; comparing the processes that ran in every"
          + " run, by name: " + shown(common) + " (--comm chooses others)");
    }
    Analysis narrowed = all.narrowed(p -> kept.contains(p) || !grouped.contains(p.runId),
        p -> names.getOrDefault(p, all.comm(p.runId, p.pid)));
    return new Chosen(narrowed, notes);
  }

  /** A name from a trace as the console may print it. */
  private static String shown(String name) {
    return Printable.escape(name);
  }

  private static String shown(Collection<String> names) {
    return String.join(", ", names.stream().map(Printable::escape).toList());
  }

  /** The names of the programs perf started in these runs (those that say). */
  private static Set<String> subjectNames(Analysis all, List<String> runIds) {
    Set<String> names = new TreeSet<>();
    for (String id : runIds) {
      RunInfo r = all.run(id);
      if (r != null && r.hasSubject()) {
        names.add(all.comm(r.runId, r.subjectPid));
      }
    }
    return names;
  }

  /** A run's processes that may be compared: its subject's when they ran, else all. */
  private static List<ProcessLoad> candidates(Analysis all, List<ProcessLoad> ofRun) {
    List<ProcessLoad> subject = ofRun.stream().filter(all::isSubject).toList();
    return subject.isEmpty() ? ofRun : subject;
  }

  private static Set<String> inEveryRun(Analysis all, List<String> runIds,
      Map<String, List<ProcessLoad>> byRun) {
    Set<String> common = null;
    for (String r : runIds) {
      Set<String> names = new TreeSet<>();
      candidates(all, byRun.getOrDefault(r, List.of()))
          .forEach(p -> names.add(all.comm(p.runId, p.pid)));
      if (common == null) {
        common = names;
      } else {
        common.retainAll(names);
      }
    }
    return common == null ? new TreeSet<>() : common;
  }

  private static String whyNoSubject(Analysis all, List<String> runIds, boolean everyRunKnows) {
    if (everyRunKnows) {
      return "the program perf started (" + shown(subjectNames(all, runIds))
          + ") has no samples in any run";
    }
    for (RunInfo r : all.runs()) {
      if (runIds.contains(r.runId) && !r.hasSubject()) {
        return "run " + shown(r.runId) + " does not say which program perf started (perf record -a"
            + " without a command, or perf script without --show-task-events)";
      }
    }
    return "";
  }

  /** "gzip (4 of 6 runs), node (3 of 6 runs), ...": the most frequent names first. */
  private static String seen(Analysis all, List<String> runIds,
      Map<String, List<ProcessLoad>> byRun) {
    Map<String, Set<String>> runsOf = new TreeMap<>();
    for (String r : runIds) {
      for (ProcessLoad p : candidates(all, byRun.getOrDefault(r, List.of()))) {
        runsOf.computeIfAbsent(all.comm(p.runId, p.pid), k -> new HashSet<>()).add(r);
      }
    }
    if (runsOf.isEmpty()) {
      return "none (no process has samples)";
    }
    List<Map.Entry<String, Set<String>>> names = new ArrayList<>(runsOf.entrySet());
    names.sort((a, b) -> a.getValue().size() != b.getValue().size()
        ? b.getValue().size() - a.getValue().size() : a.getKey().compareTo(b.getKey()));
    List<String> listed = new ArrayList<>();
    for (Map.Entry<String, Set<String>> e : names.subList(0,
        Math.min(NAMES_LISTED, names.size()))) {
      listed.add(shown(e.getKey()) + " (" + e.getValue().size() + " of " + runIds.size() + " runs)");
    }
    return String.join(", ", listed)
        + (names.size() > NAMES_LISTED ? " and " + (names.size() - NAMES_LISTED) + " more" : "");
  }
}
