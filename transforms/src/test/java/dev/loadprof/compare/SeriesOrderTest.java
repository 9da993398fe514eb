package dev.loadprof.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The order of metrics and series keys, which sorts history.csv and nightly.json: written out
 * for speed (a switch, not a scan), it must stay the tables' fixed order.
 */
class SeriesOrderTest {
  /** The tables' order, as Metric's javadoc gives it. */
  private static final List<String> TABLE_ORDER = List.of("real_time", "cpu_time", "avg_load",
      "serial_fraction", "wall_time", "cpu_wait", "cpu_wait_on_cpu", "cpu_wait_others",
      "cpu_wait_others_on_cpu", "sleeping_thread_time", "disk_thread_time",
      "runnable_others_thread_time", "critical_time", "time_at_load_0", "time_at_load_1",
      "time_at_load_2", "time_at_load_10", "time_at_load_64");

  @Test
  void metricsSortInTheTablesOrderWhateverOrderTheyComeIn() {
    List<Metric> shuffled = new ArrayList<>();
    for (int i = TABLE_ORDER.size() - 1; i >= 0; i--) {
      shuffled.add(Metric.parse(TABLE_ORDER.get(i)));
    }
    java.util.Collections.shuffle(shuffled, new java.util.Random(7));
    shuffled.sort(null);
    assertEquals(TABLE_ORDER, shuffled.stream().map(Metric::id).toList());
    for (String id : TABLE_ORDER) {
      assertEquals(0, Metric.parse(id).compareTo(Metric.parse(id)), id);
    }
  }

  @Test
  void keysSortByGroupProcessFunctionThenMetricWithTheProcessBeforeItsFunctions() {
    List<SeriesKey> expected = List.of(
        new SeriesKey("", "app", null, Metric.REAL_TIME),
        new SeriesKey("", "app", null, Metric.CPU_TIME),
        new SeriesKey("", "app", "alpha", Metric.REAL_TIME),
        new SeriesKey("", "app", "alpha", Metric.timeAtLoad(3)),
        new SeriesKey("", "app", "beta", Metric.AVG_LOAD),
        new SeriesKey("", "db", null, Metric.WALL_TIME),
        new SeriesKey("g1", "app", null, Metric.REAL_TIME));
    List<SeriesKey> sorted = new ArrayList<>(expected);
    java.util.Collections.reverse(sorted);
    sorted.sort(null);
    assertEquals(expected, sorted);
  }
}
