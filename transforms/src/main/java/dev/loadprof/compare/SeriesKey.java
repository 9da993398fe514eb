package dev.loadprof.compare;

import java.util.Comparator;

/**
 * What one compared figure is of: a group (empty without --group-by, else the benchmark or
 * group), a process name, a function (null for the whole process) and a metric.
 */
public record SeriesKey(String group, String process, String function, Metric metric)
    implements Comparable<SeriesKey> {
  private static final Comparator<SeriesKey> ORDER =
      Comparator.comparing(SeriesKey::group)
          .thenComparing(SeriesKey::process)
          .thenComparing(k -> k.function == null ? "" : k.function)
          .thenComparing(SeriesKey::metric);

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

  @Override
  public int compareTo(SeriesKey o) {
    return ORDER.compare(this, o);
  }
}
