package dev.loadprof.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The counters bench/flink-shuffle.sh reads: each written once, with its value at the end. */
class ShuffleBytesReporterTest {
  @TempDir
  Path dir;

  /** A metric group with the scope variables Flink gives a task's or operator's metrics. */
  private static UnregisteredMetricsGroup group(Map<String, String> variables) {
    return new UnregisteredMetricsGroup() {
      @Override
      public Map<String, String> getAllVariables() {
        return variables;
      }
    };
  }

  @Test
  void writesEachTaskCounterWithItsValueWhenRemovedAndTheRestAtClose() throws Exception {
    Path file = dir.resolve("metrics.tsv");
    ShuffleBytesReporter reporter = (ShuffleBytesReporter) new ShuffleBytesReporter.Factory()
        .createMetricReporter(new Properties());
    MetricConfig config = new MetricConfig();
    config.setProperty("file", file.toString());
    reporter.open(config);
    var task = group(Map.of("<task_name>", "CHAIN A\tx -> B", "<subtask_index>", "1"));
    var operator = group(Map.of("<task_name>", "C", "<subtask_index>", "0",
        "<operator_name>", "C's op"));
    var jobManager = group(Map.of("<job_name>", "j"));
    Counter bytesOut = new SimpleCounter();
    Counter recordsIn = new SimpleCounter();
    Counter notCounted = new SimpleCounter();
    Counter noTask = new SimpleCounter();
    reporter.notifyOfAddedMetric(bytesOut, "numBytesOut", task);
    reporter.notifyOfAddedMetric(recordsIn, "numRecordsIn", operator);
    reporter.notifyOfAddedMetric(notCounted, "numRestarts", task);
    reporter.notifyOfAddedMetric(noTask, "numBytesOut", jobManager);
    bytesOut.inc(100);
    notCounted.inc(5);
    noTask.inc(7);
    reporter.notifyOfRemovedMetric(bytesOut, "numBytesOut", task);
    bytesOut.inc(1); // after its task ended: not written again
    reporter.notifyOfRemovedMetric(notCounted, "numRestarts", task);
    reporter.notifyOfRemovedMetric(noTask, "numBytesOut", jobManager);
    recordsIn.inc(3);
    reporter.close();
    assertEquals(List.of("CHAIN A x -> B\t1\t\tnumBytesOut\t100",
        "C\t0\tC's op\tnumRecordsIn\t3"), Files.readAllLines(file));
  }

  @Test
  void refusesAConfigWithoutAFile() {
    assertThrows(IllegalArgumentException.class,
        () -> new ShuffleBytesReporter().open(new MetricConfig()));
  }
}
