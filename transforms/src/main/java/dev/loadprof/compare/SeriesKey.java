package dev.loadprof.compare;

/**
 * What one compared figure is of: a group (empty without --group-by, else the benchmark or
 * group), a process name, a function (null for the whole process) and a metric.
 */
public record SeriesKey(String group, String process, String function, Metric metric)
    implements Comparable<SeriesKey> {
  public boolean isFunction() {
    return function != null;
  }

  /** The same entity, another metric. */
  public SeriesKey with(Metric m) {
    return new SeriesKey(group, process, function, m);
  }

  /** The same metric of the whole process. */
  public SeriesKey onProcess() {
    return new SeriesKey(group, process, null, metric);
  }

  /** "group/process" or "process", plus " fn" for a function. */
  public String entityName() {
    String p = group.isEmpty() ? process : group + "/" + process;
    return function == null ? p : p + " " + function;
  }

  /**
   * By group, process, function (a process's own figures first) and metric. Written out, not a
   * Comparator chain: history's sorted maps compare keys millions of times a nightly.
   */
  @Override
  public int compareTo(SeriesKey o) {
    int c = group.compareTo(o.group);
    if (c == 0) {
      c = process.compareTo(o.process);
    }
    if (c == 0) {
      c = (function == null ? "" : function).compareTo(o.function == null ? "" : o.function);
    }
    return c != 0 ? c : metric.compareTo(o.metric);
  }
}
