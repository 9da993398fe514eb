package dev.loadprof.report;

import dev.loadprof.model.RunInfo;
import dev.loadprof.profile.LoadRange;
import dev.loadprof.profile.LoadTimeline;
import dev.loadprof.profile.ProcessLoad;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * The analyses of runs assembled one at a time ({@link AnalysisAssembler} over one run each)
 * made into one analysis without stacks: the runs, their processes and their names, the
 * grouping, the sample filter and the note of a --pid/--comm that matched nothing, as the
 * analysis of all runs assembled at once has them. For writers that need no stacks of a run
 * once they kept what they need of it ({@link RunByRunWriter}).
 */
public final class RunAnalyses {
  private RunAnalyses() {}

  /**
   * What is kept of one run's analysis: its runs and its processes' figures, without the
   * stacks, and without what the processes hold for the profiles and report.html (the load
   * timeline's buckets with their functions, the thread-state lanes, the wait and load-0 stacks
   * of the thread states, a critical path's segments and stacks past its totals), which are most
   * of a process's memory.
   */
  public static final class Part implements java.io.Serializable {
    final List<RunInfo> runs;
    final List<ProcessLoad> processes;
    final FilteredOutProcesses filteredOut;

    /** A part as stored (PartCodec), its processes already without what {@link #Part} drops. */
    Part(List<RunInfo> runs, List<ProcessLoad> processes, FilteredOutProcesses filteredOut) {
      this.runs = runs;
      this.processes = processes;
      this.filteredOut = filteredOut;
    }

    private Part(Analysis a) {
      this.runs = a.runs();
      this.processes = a.processes();
      this.filteredOut = a.filteredOut();
      for (ProcessLoad p : processes) {
        p.timeline = new LoadTimeline();
        p.stateTimeline = null;
        // Its length and time per function are what a history takes of a path (RunMetrics):
        // kept alone, a stored run is half the size, and a nightly reads thousands back.
        if (p.criticalPath != null) {
          p.criticalPath = p.criticalPath.totalsOnly();
        }
        if (p.threadStates != null) {
          p.threadStates.waits = new HashMap<>();
          p.threadStates.load0ByCause = new HashMap<>();
        }
      }
    }
  }

  /**
   * The serialization versions of a part's classes, combined: a part stored with other classes
   * (a field added since) is not read back but computed again (the version is part of the name
   * it is stored under).
   */
  public static long serialVersion() {
    long v = 17;
    for (Class<?> c : List.of(Part.class, FilteredOutProcesses.class, RunInfo.class,
        ProcessLoad.class, dev.loadprof.model.TraceHealth.class,
        dev.loadprof.model.LossTimeline.class, LoadTimeline.class,
        dev.loadprof.wall.ThreadStateSummary.class, dev.loadprof.wall.StateTimeline.class)) {
      v = 31 * v + java.io.ObjectStreamClass.lookup(c).getSerialVersionUID();
    }
    for (Class<?> c : FilteredOutProcesses.class.getDeclaredClasses()) {
      java.io.ObjectStreamClass s = java.io.ObjectStreamClass.lookup(c);
      v = 31 * v + (s == null ? 0 : s.getSerialVersionUID());
    }
    return v;
  }

  /** The runs of a part, as assembled (their health with the join's counters added). */
  public static List<RunInfo> runsOf(Part part) {
    return part.runs;
  }

  /**
   * The analysis of one run (or several) without its stacks and pictures, as {@link Part} says;
   * {@code a}'s processes lose them too, so {@code a} is not to be written after.
   */
  public static Part part(Analysis a) {
    return new Part(a);
  }

  /** The parts' runs and processes as one analysis without stacks, assembled with filters. */
  public static Analysis withoutStacks(List<Part> parts, Filters filters) {
    List<RunInfo> runs = new ArrayList<>();
    List<ProcessLoad> processes = new ArrayList<>();
    FilteredOutProcesses filteredOut = new FilteredOutProcesses();
    for (Part part : parts) {
      runs.addAll(part.runs);
      processes.addAll(part.processes);
      filteredOut.addAll(part.filteredOut);
    }
    LoadRange range = filters.loadRange() == null ? LoadRange.ALL
        : LoadRange.parse(filters.loadRange());
    return new Analysis(runs, processes, Analysis.SortedStacks.of(List.of()), range,
        GroupBy.parse(filters.groupBy()), filters.samples().describe(),
        filteredOut.noteWhenNothingLeft(filters, !processes.isEmpty(), runs.size() > 1),
        FilteredOutProcesses.selection(filters), filteredOut);
  }
}
