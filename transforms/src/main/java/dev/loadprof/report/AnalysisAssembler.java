package dev.loadprof.report;

import dev.loadprof.critical.CriticalPath;
import dev.loadprof.model.ProcessKey;
import dev.loadprof.load.ProcessAccumulator;
import dev.loadprof.load.TimeRanges;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceEventSink;
import dev.loadprof.model.TraceHealth;
import dev.loadprof.profile.LoadRange;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.profile.StackWeight;
import dev.loadprof.wall.StateTimeline;
import dev.loadprof.wall.ThreadStateSummary;
import dev.loadprof.wall.ThreadStates;
import dev.loadprof.wall.WaitFilter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Builds the {@link Analysis} from the aggregated parts of a job: the one place where unusable
 * runs and the pid/comm filters are applied, and where every sample left out is counted by
 * reason in its run's health.
 */
public final class AnalysisAssembler {
  private AnalysisAssembler() {}

  /**
   * @param runInfos the runs as read; not modified (copies get the added health counters)
   * @param health per run id, counters from interval building to add to the run's health
   * @param accumulators one per (run, process), over all windows
   */
  public static Analysis assemble(List<RunInfo> runInfos, Map<String, Map<String, Long>> health,
      Iterable<ProcessAccumulator> accumulators, Filters filters) {
    List<RunInfo> runs = new ArrayList<>();
    for (RunInfo input : runInfos) {
      RunInfo r = input.copy();
      Map<String, Long> h = health.get(r.runId);
      if (h != null) {
        h.forEach(r.health::add);
      }
      runs.add(r);
    }
    runs.sort(Comparator.comparing(r -> r.runId));
    Map<String, RunInfo> byId = new HashMap<>();
    runs.forEach(r -> byId.put(r.runId, r));
    Pattern comm = filters.commRegex() == null ? null : Pattern.compile(filters.commRegex());
    LoadRange range = filters.loadRange() == null ? LoadRange.ALL
        : LoadRange.parse(filters.loadRange());
    List<ProcessLoad> processes = new ArrayList<>();
    List<StackWeight> stacks = new ArrayList<>();
    FilteredOutProcesses filteredOut = new FilteredOutProcesses();
    List<ProcessLoad> walled = new ArrayList<>();
    List<WallViews.Task> wallViews = new ArrayList<>();
    // Per run without a subject, its process with the most samples (the one given a critical
    // path): known once every accumulator is seen, before the wall views run.
    Map<String, ProcessAccumulator> biggest = new HashMap<>();
    for (ProcessAccumulator acc : accumulators) {
      RunInfo run = byId.get(acc.runId);
      if (run != null && acc.pid == TraceEventSink.UNKNOWN_ID) {
        acc.health.forEach(run.health::add);
        continue;
      }
      if (acc.pid == 0 || acc.samples == 0 || run == null) {
        continue; // the idle task (its samples are idle_samples), or never sampled
      }
      if (run.isUnusable()) {
        run.health.add(TraceHealth.SAMPLES_OF_UNUSABLE_RUN, acc.samples);
        continue;
      }
      String name = run.processName(acc.pid);
      if ((filters.pids() != null && !filters.pids().contains(ProcessKey.pid(acc.pid)))
          || (comm != null && !comm.matcher(name).find())) {
        run.health.add(TraceHealth.SAMPLES_FILTERED_OUT, acc.samples);
        filteredOut.add(run.runId, acc.pid, name, acc.samples);
        continue;
      }
      run.health.add(TraceHealth.SAMPLES_IN_PROFILES, acc.samples);
      ProcessLoad load = acc.toProcessLoad(name);
      if (load.health.getOrDefault(ProcessAccumulator.SUMS_SATURATED, 0L) > 0) {
        run.warnings.add(run.source + ": pid " + ProcessKey.pid(acc.pid) + " (" + name + "): a sum of CPU or"
            + " real time overflowed 64 bits and was capped at its largest value; this"
            + " process's times are too low (sums_saturated in its health)");
      }
      if (acc.spanEndNs >= acc.spanStartNs) {
        walled.add(load);
        wallViews.add(wallView(run, acc, filters, range, name, biggest));
        biggest.merge(run.runId, acc, (a, b) -> b.samples > a.samples
            || b.samples == a.samples && b.pid < a.pid ? b : a);
      }
      processes.add(load);
      stacks.addAll(acc.toStackWeights());
    }
    // The thread states need only their own process, the critical paths only theirs, and sorting
    // and merging the stacks needs none of them: all at once (WallViews). The wall views read
    // only what they were given (their accumulator, whose join has ended, and values of the run
    // taken here) and return new objects; this thread alone sets them on the processes and the
    // runs, once all are done.
    Analysis.SortedStacks[] sorted = new Analysis.SortedStacks[1];
    List<WallViews.Wall> walls = WallViews.compute(wallViews,
        () -> sorted[0] = Analysis.SortedStacks.of(stacks));
    for (int i = 0; i < walled.size(); i++) {
      walled.get(i).threadStates = walls.get(i).states();
      walled.get(i).stateTimeline = walls.get(i).timeline();
      walled.get(i).criticalPath = walls.get(i).criticalPath();
    }
    WallView.warn(runs, processes);
    if (filters.samples().cpus() != null) {
      for (RunInfo r : runs) {
        if (!"cpu".equals(r.lanes) && r.cpuCount == 0) {
          r.warnings.add(r.source + ": --cpu selects no sample of this run: its samples have"
              + " no CPU (a per-process recording made without perf record --sample-cpu);"
              + " leave out --cpu to see it");
        }
      }
    }
    return new Analysis(runs, processes, sorted[0], range, GroupBy.parse(filters.groupBy()),
        filters.samples().describe(),
        filteredOut.noteWhenNothingLeft(filters, !processes.isEmpty(), runs.size() > 1),
        FilteredOutProcesses.selection(filters), filteredOut);
  }

  /**
   * The work of one process's wall view, to run on another thread: it gets the run's values,
   * not the run, which this thread goes on changing (health, warnings).
   */
  private static WallViews.Task wallView(RunInfo run, ProcessAccumulator acc, Filters filters,
      LoadRange range, String comm, Map<String, ProcessAccumulator> biggest) {
    long startNs = run.startNs;
    long endNs = run.endNs;
    boolean cpuLanes = "cpu".equals(run.lanes);
    // Who held the free CPUs is known only system-wide, where every CPU's switches are seen.
    int cpus = cpuLanes ? run.cpuCount : 0;
    String time = filters.samples().time();
    long[] ranges = time == null ? null : TimeRanges.parse(time).resolve(startNs, endNs);
    WaitFilter filter = new WaitFilter(filters.samples().tids(), filters.samples().cpus(),
        cpuLanes, ranges, range.min(), range.max());
    CriticalView critical = new CriticalView(run, ranges, filters.whatIfs());
    boolean hasSubject = run.hasSubject();
    boolean subject = run.isSubject(acc.pid);
    String runId = run.runId;
    return new WallViews.Task() {
      @Override
      public ThreadStates.Replayed replay() {
        return ThreadStates.replay(acc.threads, endNs);
      }

      @Override
      public WallViews.Wall states(ThreadStates.Replayed replayed) {
        ThreadStateSummary states = WallView.states(acc, replayed, filter, cpus);
        // report.html's thread-state timeline, narrowed as the thread states are.
        StateTimeline timeline = StateTimeline.compute(replayed, acc.spanStartNs,
            acc.spanEndNs, filter);
        return new WallViews.Wall(states, timeline, null);
      }

      @Override
      public boolean wantsCriticalPath() {
        return hasSubject ? subject : biggest.get(runId) == acc;
      }

      @Override
      public CriticalPath criticalPath(ThreadStates.Replayed replayed) {
        return critical.compute(acc, replayed, comm);
      }
    };
  }
}
