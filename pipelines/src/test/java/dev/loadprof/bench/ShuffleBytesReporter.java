package dev.loadprof.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * A Flink metric reporter for bench/flink-shuffle.sh: writes the final value of every task's
 * and operator's byte and record counters (numBytesOut, numBytesIn, numRecordsIn, ...) to a
 * TSV file, one line per counter. A task's metrics are removed when the task ends, so the value
 * read then is the task's total; a periodic reporter (slf4j, JMX) would miss the tasks that end
 * between two reports and the counts after the last one.
 *
 * <p>Flink finds reporters only through {@link MetricReporterFactory} services: the bench script
 * writes the META-INF/services file into a directory of its own on the job's classpath and
 * configures, in a Flink config dir it passes as --flinkConfDir:
 * <pre>
 * metrics.reporters: shuffle
 * metrics.reporter.shuffle.factory.class: dev.loadprof.bench.ShuffleBytesReporter$Factory
 * metrics.reporter.shuffle.file: /tmp/flink-shuffle/metrics.tsv
 * </pre>
 * Columns: task name, subtask index, operator name (empty for a task's own I/O metrics),
 * metric name, value.
 */
public final class ShuffleBytesReporter implements MetricReporter {
  /** The counters written; the rest (gauges, meters, checkpoint counts) are of no use here. */
  static final Set<String> COUNTED = Set.of("numBytesOut", "numBytesIn", "numBytesInLocal",
      "numBytesInRemote", "numRecordsIn", "numRecordsOut", "numBuffersOut");

  private final Map<Counter, String> open = new IdentityHashMap<>();
  private Path file;

  /** Made by Flink through the service loader. */
  public static final class Factory implements MetricReporterFactory {
    @Override
    public MetricReporter createMetricReporter(Properties properties) {
      return new ShuffleBytesReporter();
    }
  }

  @Override
  public void open(MetricConfig config) {
    String name = config.getString("file", null);
    if (name == null) {
      throw new IllegalArgumentException("metrics.reporter.<name>.file is not set: where the"
          + " counters go");
    }
    file = Path.of(name);
  }

  @Override
  public synchronized void notifyOfAddedMetric(Metric metric, String name, MetricGroup group) {
    if (metric instanceof Counter counter && COUNTED.contains(name)) {
      Map<String, String> vars = group.getAllVariables();
      String task = vars.get("<task_name>");
      if (task != null) {
        open.put(counter, clean(task) + "\t" + vars.getOrDefault("<subtask_index>", "")
            + "\t" + clean(vars.getOrDefault("<operator_name>", "")) + "\t" + name);
      }
    }
  }

  @Override
  public synchronized void notifyOfRemovedMetric(Metric metric, String name, MetricGroup group) {
    String key = open.remove(metric);
    if (key != null) {
      write(key + "\t" + ((Counter) metric).getCount() + "\n");
    }
  }

  /** Counters still registered when the cluster closes: written with their last value. */
  @Override
  public synchronized void close() {
    StringBuilder rest = new StringBuilder();
    open.forEach((counter, key) -> rest.append(key).append('\t').append(counter.getCount())
        .append('\n'));
    open.clear();
    if (file != null && rest.length() > 0) {
      write(rest.toString());
    }
  }

  private void write(String lines) {
    try {
      Files.writeString(file, lines, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String clean(String name) {
    return name.replace('\t', ' ').replace('\n', ' ');
  }
}
