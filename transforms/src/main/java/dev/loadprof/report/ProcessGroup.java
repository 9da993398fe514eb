package dev.loadprof.report;

import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.profile.StackWeight;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One group of the many-runs reports: some (run, process) pairs and their figures taken together.
 * The figures are weighted by time: the members' integer ns are summed load by load, never their
 * fractions averaged, so a 3 s run counts three times as much as a 1 s run.
 */
public final class ProcessGroup {
  /** Members in run id, then pid order. */
  static final Comparator<ProcessLoad> MEMBER_ORDER =
      Comparator.comparing((ProcessLoad p) -> p.runId).thenComparingInt(p -> p.pid);

  private final String name;
  private final List<ProcessLoad> members;
  private final ProcessLoad total;
  private final FunctionTable functions;

  /**
   * @param stacks the members' load-filtered stacks: functions merge across members by name, as
   *     in functions.txt
   */
  ProcessGroup(String name, List<ProcessLoad> members, List<StackWeight> stacks) {
    List<ProcessLoad> sorted = new ArrayList<>(members);
    sorted.sort(MEMBER_ORDER);
    this.name = name;
    this.members = List.copyOf(sorted);
    this.total = sum(name, this.members);
    this.functions = FunctionTable.of(stacks);
  }

  /**
   * The members summed into one ProcessLoad, so that its wallNs(), avgLoad() and fractions are
   * those of the group and the histogram code of single processes can draw it.
   */
  public static ProcessLoad sum(String name, List<ProcessLoad> members) {
    ProcessLoad t = new ProcessLoad();
    t.runId = "";
    t.pid = -1;
    t.comm = name;
    int loads = 0;
    int times = 0;
    for (ProcessLoad p : members) {
      loads = Math.max(loads, Math.max(p.cpuNsAtLoad.length, p.samplesAtLoad.length));
      times = Math.max(times, p.timeAtLoadNs.length);
    }
    t.samplesAtLoad = new long[loads];
    t.cpuNsAtLoad = new long[loads];
    t.timeAtLoadNs = new long[times];
    for (ProcessLoad p : members) {
      t.samples += p.samples;
      t.cpuNs += p.cpuNs;
      addInto(t.samplesAtLoad, p.samplesAtLoad);
      addInto(t.cpuNsAtLoad, p.cpuNsAtLoad);
      addInto(t.timeAtLoadNs, p.timeAtLoadNs);
    }
    return t;
  }

  private static void addInto(long[] into, long[] from) {
    for (int k = 0; k < from.length; k++) {
      into[k] += from[k];
    }
  }

  public String name() {
    return name;
  }

  /** In run id, then pid order. */
  public List<ProcessLoad> members() {
    return members;
  }

  /** The summed figures; runId "" and pid -1, comm is the group name. */
  public ProcessLoad total() {
    return total;
  }

  /** The members' functions merged by name, within the load filter. */
  public FunctionTable functions() {
    return functions;
  }

  public SerialFraction serialFraction() {
    return SerialFraction.of(total.timeAtLoadNs);
  }

  /** Distinct runs among the members. */
  public long runCount() {
    return members.stream().map(p -> p.runId).distinct().count();
  }
}
