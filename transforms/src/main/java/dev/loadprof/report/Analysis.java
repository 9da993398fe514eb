package dev.loadprof.report;

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
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Everything the reports render, in a fixed order: runs by id; processes by most samples, then
 * run id, then pid; stacks in {@link StackOrder#STACKS}. Stacks arrive per thread and with frame
 * addresses, as the profile keeps them; the reports see them summed per process and symbol
 * ({@link ProcessStacks}). Processes and stacks arrive already
 * filtered by pid/comm. The load filter is carried along but applies only to the profile, the
 * function table and the folded stacks: the load histograms must always see every load.
 */
public final class Analysis {
  /** Most samples first, then run id, then pid: the order of processes in every output. */
  public static final Comparator<ProcessLoad> PROCESS_ORDER =
      Comparator.comparingLong((ProcessLoad p) -> p.samples)
          .reversed()
          .thenComparing(p -> p.runId)
          .thenComparingInt(p -> p.pid);

  private final List<RunInfo> runs;
  private final List<ProcessLoad> processes;
  private final List<StackWeight> threadStacks;
  private final List<StackWeight> stacks;
  private final LoadRange loadFilter;
  private final GroupBy groupBy;
  private final Map<String, List<StackWeight>> stacksByProcess = new HashMap<>();
  /** Function tables made so far: several reports print the same process's. */
  private final Map<String, FunctionTable> functionTables = new ConcurrentHashMap<>();
  private final ProcessNames names;
  private String nothingLeftNote = "";
  private String sampleFilter = "";
  /** The processes the --pid/--comm filters left out, to tell the note of many runs again. */
  private FilteredOutProcesses filteredOut = new FilteredOutProcesses();

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
    List<RunInfo> r = new ArrayList<>(runs);
    r.sort(Comparator.comparing(run -> run.runId));
    List<ProcessLoad> p = new ArrayList<>(processes);
    p.sort(PROCESS_ORDER);
    List<StackWeight> t = new ArrayList<>(stacks);
    TwoCoreSort.sort(t, StackOrder.STACKS);
    // Merged from the sorted stacks, the sums come out in a few sorted runs (one per thread),
    // which the sort merges; the sort's order is total on merged stacks, so the same either way.
    List<StackWeight> s = ProcessStacks.merge(t);
    TwoCoreSort.sort(s, StackOrder.STACKS);
    this.threadStacks = List.copyOf(t);
    this.runs = List.copyOf(r);
    this.processes = List.copyOf(p);
    this.stacks = List.copyOf(s);
    this.loadFilter = loadFilter == null ? LoadRange.ALL : loadFilter;
    this.groupBy = groupBy == null ? GroupBy.NONE : groupBy;
    for (StackWeight w : this.stacks) {
      stacksByProcess.computeIfAbsent(key(w.runId(), w.pid()), k -> new ArrayList<>()).add(w);
    }
    this.names = new ProcessNames(this.runs, this.processes);
    // Fold the runs' pending health adds now: from here on the reports only read, on all cores.
    this.runs.forEach(run -> run.health.counters());
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

  void setSampleFilter(String description) {
    this.sampleFilter = description;
  }

  void setNothingLeftNote(String note) {
    this.nothingLeftNote = note;
  }

  FilteredOutProcesses filteredOut() {
    return filteredOut;
  }

  void setFilteredOut(FilteredOutProcesses filteredOut) {
    this.filteredOut = filteredOut;
  }

  public List<RunInfo> runs() {
    return runs;
  }

  /** In {@link #PROCESS_ORDER}. */
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
   * The process the run is about: the first in process order, skipping pid 0 (the idle task,
   * which is never what one profiles) unless it is all there is. Null when there are none.
   */
  public ProcessLoad headline() {
    for (ProcessLoad p : processes) {
      if (p.pid != 0) {
        return p;
      }
    }
    return processes.isEmpty() ? null : processes.get(0);
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
