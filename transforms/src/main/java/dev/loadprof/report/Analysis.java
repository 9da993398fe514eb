package dev.loadprof.report;

import dev.loadprof.critical.CriticalPath;
import dev.loadprof.model.RunInfo;
import dev.loadprof.profile.LoadRange;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.profile.ProcessNames;
import dev.loadprof.profile.ProcessStacks;
import dev.loadprof.profile.StackOrder;
import dev.loadprof.profile.StackWeight;
import dev.loadprof.profile.TwoCoreSort;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Everything the reports render, in a fixed order: runs by id; processes with the subject first
 * (the program perf started and its descendants, {@link RunInfo#subjectPids}), then by most
 * samples, then run id, then pid; stacks in {@link StackOrder#STACKS}. Stacks arrive per thread and with frame
 * addresses, as the profile keeps them; the reports see them summed per process and symbol
 * ({@link ProcessStacks}). Processes and stacks arrive already
 * filtered by pid/comm. The load filter is carried along but applies only to the profile, the
 * function table and the folded stacks: the load histograms must always see every load.
 *
 * <p>The reports read an analysis on all cores at once, so it is final once made: its lists are
 * immutable, its runs' health is frozen (an add throws) and their warnings are immutable lists.
 * Everything the runs and processes are to carry is set before it is made ({@link
 * AnalysisAssembler}); only the function tables are made later, once each, in a concurrent map.
 */
public final class Analysis {
  /** Most samples first, then run id, then pid: the order of processes after the subject's. */
  public static final Comparator<ProcessLoad> PROCESS_ORDER =
      Comparator.comparingLong((ProcessLoad p) -> p.samples)
          .reversed()
          .thenComparing(p -> p.runId)
          .thenComparingInt(p -> p.pid);

  private final List<RunInfo> runs;
  private final Map<String, RunInfo> runsById = new HashMap<>();
  private final List<ProcessLoad> processes;
  private final List<StackWeight> threadStacks;
  private final List<StackWeight> stacks;
  private final LoadRange loadFilter;
  private final GroupBy groupBy;
  private final Map<String, List<StackWeight>> stacksByProcess = new HashMap<>();
  /** Function tables made so far: several reports print the same process's. */
  private final Map<String, FunctionTable> functionTables = new ConcurrentHashMap<>();
  private final ProcessNames names;
  private final String processSelection;
  private final String nothingLeftNote;
  private final String sampleFilter;
  /** The processes the --pid/--comm filters left out, to tell the note of many runs again. */
  private final FilteredOutProcesses filteredOut;

  /**
   * Stacks per thread with frame addresses, sorted (as the profile keeps them), and the same
   * summed per process and symbol stack, sorted: the part of making an analysis that is worth
   * doing while something else runs.
   */
  public record SortedStacks(List<StackWeight> threadStacks, List<StackWeight> merged) {
    public static SortedStacks of(List<StackWeight> stacks) {
      List<StackWeight> t = new ArrayList<>(stacks);
      TwoCoreSort.sort(t, StackOrder.STACKS);
      // Merged from the sorted stacks, the sums come out in a few sorted runs (one per thread),
      // which the sort merges; the sort's order is total on merged stacks, so the same either way.
      List<StackWeight> s = ProcessStacks.merge(t);
      TwoCoreSort.sort(s, StackOrder.STACKS);
      return new SortedStacks(List.copyOf(t), List.copyOf(s));
    }
  }

  /** An analysis without grouping ({@link GroupBy#NONE}). */
  public Analysis(
      List<RunInfo> runs,
      List<ProcessLoad> processes,
      List<StackWeight> stacks,
      LoadRange loadFilter) {
    this(runs, processes, stacks, loadFilter, GroupBy.NONE);
  }

  /** @param groupBy how groups.txt and summary.json's groups gather processes; null = none */
  public Analysis(
      List<RunInfo> runs,
      List<ProcessLoad> processes,
      List<StackWeight> stacks,
      LoadRange loadFilter,
      GroupBy groupBy) {
    this(runs, processes, SortedStacks.of(stacks), loadFilter, groupBy, "", "", "",
        new FilteredOutProcesses());
  }

  /**
   * @param sampleFilter the --tid, --cpu and --time selection applied, or ""
   * @param nothingLeftNote why no process is left after the --pid/--comm filters, or ""
   * @param processSelection the --pid/--comm selection ({@link #processSelection}), or ""
   * @param filteredOut the processes the --pid/--comm filters left out
   */
  Analysis(
      List<RunInfo> runs,
      List<ProcessLoad> processes,
      SortedStacks stacks,
      LoadRange loadFilter,
      GroupBy groupBy,
      String sampleFilter,
      String nothingLeftNote,
      String processSelection,
      FilteredOutProcesses filteredOut) {
    List<RunInfo> r = new ArrayList<>(runs);
    r.sort(Comparator.comparing(run -> run.runId));
    r.forEach(run -> runsById.put(run.runId, run));
    List<ProcessLoad> p = new ArrayList<>(processes);
    p.sort(Comparator.comparing((ProcessLoad x) -> !isSubject(x)).thenComparing(PROCESS_ORDER));
    this.threadStacks = stacks.threadStacks();
    this.runs = List.copyOf(r);
    this.processes = List.copyOf(p);
    this.stacks = stacks.merged();
    this.loadFilter = loadFilter == null ? LoadRange.ALL : loadFilter;
    this.groupBy = groupBy == null ? GroupBy.NONE : groupBy;
    this.sampleFilter = sampleFilter;
    this.nothingLeftNote = nothingLeftNote;
    this.processSelection = processSelection;
    this.filteredOut = filteredOut;
    for (StackWeight w : this.stacks) {
      stacksByProcess.computeIfAbsent(key(w.runId(), w.pid()), k -> new ArrayList<>()).add(w);
    }
    this.names = new ProcessNames(this.runs, this.processes);
    // From here on the reports only read, on all cores: nothing the runs carry changes again.
    for (RunInfo run : this.runs) {
      run.health.freeze();
      run.warnings = List.copyOf(run.warnings);
    }
  }

  /**
   * Why no process is left when the --pid/--comm filters removed them all (the filter and the
   * biggest processes), or "".
   */
  public String nothingLeftNote() {
    return nothingLeftNote;
  }

  /** The --tid, --cpu and --time selection applied (SampleSelection.describe), or "". */
  public String sampleFilter() {
    return sampleFilter;
  }

  /**
   * The --pid/--comm selection the processes were chosen by ("--comm ^mixed$"), or "" when none
   * was given: then compare and nightly choose the subject (dev.loadprof.compare).
   */
  public String processSelection() {
    return processSelection;
  }

  /** The same analysis chosen by {@code description} ({@link #processSelection}). */
  public Analysis withProcessSelection(String description) {
    return new Analysis(runs, processes, new SortedStacks(threadStacks, stacks), loadFilter,
        groupBy, sampleFilter, nothingLeftNote, description, filteredOut);
  }

  /** Whether the process is its run's subject or one that the subject started. */
  public boolean isSubject(ProcessLoad p) {
    RunInfo run = runsById.get(p.runId);
    return run != null && run.isSubject(p.pid);
  }

  /**
   * The same analysis with only the processes kept, each under the name given (compare keeps
   * the subject and gives a new build of it the baseline's name); health and filters as here.
   */
  public Analysis narrowed(Predicate<ProcessLoad> keep, Function<ProcessLoad, String> name) {
    List<ProcessLoad> kept = new ArrayList<>();
    Set<String> keys = new HashSet<>();
    for (ProcessLoad p : processes) {
      if (keep.test(p)) {
        String comm = name.apply(p);
        kept.add(comm.equals(p.comm) ? p : p.withComm(comm));
        keys.add(key(p.runId, p.pid));
      }
    }
    List<StackWeight> keptStacks = new ArrayList<>();
    for (StackWeight w : threadStacks) {
      if (keys.contains(key(w.runId(), w.pid()))) {
        keptStacks.add(w);
      }
    }
    return new Analysis(runs, kept, SortedStacks.of(keptStacks), loadFilter, groupBy,
        sampleFilter, nothingLeftNote, processSelection, filteredOut);
  }

  FilteredOutProcesses filteredOut() {
    return filteredOut;
  }

  /** The run of this id, or null. */
  public RunInfo run(String runId) {
    return runsById.get(runId);
  }

  public List<RunInfo> runs() {
    return runs;
  }

  /** The subject's processes first, then the others; each part in {@link #PROCESS_ORDER}. */
  public List<ProcessLoad> processes() {
    return processes;
  }

  /** All stacks summed per process and symbol stack, sorted, not load-filtered. */
  public List<StackWeight> stacks() {
    return stacks;
  }

  /** All stacks per thread and with frame addresses, as the profile keeps them; sorted. */
  public List<StackWeight> threadStacks() {
    return threadStacks;
  }

  public LoadRange loadFilter() {
    return loadFilter;
  }

  public GroupBy groupBy() {
    return groupBy;
  }

  /**
   * Whether the many-runs outputs (groups.txt, runs.txt, summary.json's run_table and groups)
   * are written: with more than one run, or when a grouping was asked for. A single run without
   * one keeps exactly the outputs it always had.
   */
  public boolean hasManyRunsReports() {
    return runs.size() > 1 || !groupBy.isNone();
  }

  /**
   * The process the run is about: the first in process order (the subject's biggest process
   * when it has samples), skipping pid 0 (the idle task, which is never what one profiles)
   * unless it is all there is. Null when there are none.
   */
  public ProcessLoad headline() {
    for (ProcessLoad p : processes) {
      if (p.pid != 0) {
        return p;
      }
    }
    return processes.isEmpty() ? null : processes.get(0);
  }

  /**
   * The process's critical path (dev.loadprof.critical): computed for the subject's processes
   * (or, without a subject, for the {@link #headline()} process); empty for the others.
   */
  public Optional<CriticalPath> criticalPath(ProcessLoad p) {
    return Optional.ofNullable(p.criticalPath);
  }

  /** The stacks of one process that pass the load filter, sorted. */
  public List<StackWeight> filteredStacksOf(ProcessLoad p) {
    List<StackWeight> out = new ArrayList<>();
    for (StackWeight w : stacksByProcess.getOrDefault(key(p.runId, p.pid), List.of())) {
      if (loadFilter.contains(w.load())) {
        out.add(w);
      }
    }
    return out;
  }

  /** The function table of one process's stacks that pass the load filter, made once. */
  FunctionTable functionTableOf(ProcessLoad p) {
    return functionTables.computeIfAbsent(key(p.runId, p.pid),
        k -> FunctionTable.of(filteredStacksOf(p)));
  }

  /** The stacks of all processes that pass the load filter, sorted. */
  public List<StackWeight> filteredStacks() {
    List<StackWeight> out = new ArrayList<>();
    for (StackWeight w : stacks) {
      if (loadFilter.contains(w.load())) {
        out.add(w);
      }
    }
    return out;
  }

  public String comm(String runId, int pid) {
    return names.comm(runId, pid);
  }

  public long totalSamples() {
    long n = 0;
    for (ProcessLoad p : processes) {
      n += p.samples;
    }
    return n;
  }

  private static String key(String runId, int pid) {
    return runId + "\u0000" + pid;
  }
}
