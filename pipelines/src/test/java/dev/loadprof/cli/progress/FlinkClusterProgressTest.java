package dev.loadprof.cli.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;

/**
 * The progress of a job on a Flink cluster, read from answers of the REST API recorded during
 * analyzes of a 330 MB text trace and of an 8 MB perf.data on the local session cluster
 * (scripts/flink-cluster.sh, metrics fetched every 500 ms): each recorded moment shows the stage
 * the job was in and its counts.
 */
class FlinkClusterProgressTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode recorded(String name) throws IOException {
    String path = "/flink-rest/" + name;
    try (InputStream raw = FlinkClusterProgressTest.class.getResourceAsStream(path)) {
      return JSON.readTree(name.endsWith(".gz") ? new GZIPInputStream(raw) : raw);
    }
  }

  private static ProgressView at(String moment) throws IOException {
    return FlinkClusterProgress.view(recorded("job-" + moment + ".json.gz"));
  }

  @Test
  void beforeAnyStageTookInDataTheTasksFinishedOfAllAreShown() throws IOException {
    assertEquals(new ProgressView("running", "tasks", 1, 0, 72), at("nothing-begun"));
  }

  @Test
  void readingCountsTheRecordsTheParsingTaskHandedOn() throws IOException {
    assertEquals(new ProgressView("reading", "records", 1, 0, -1), at("reading-begun"));
    assertEquals(new ProgressView("reading", "records", 1, 65, -1), at("reading"));
  }

  @Test
  void joiningCountsRecordsTakenInOfThoseItsInputsSent() throws IOException {
    // the join task is sorting its first 152 blocks, none taken in by its reducer yet: the
    // line stays on reading, which ended with 451 records (450 blocks, 1 run info)
    assertEquals(new ProgressView("reading", "records", 1, 451, -1), at("joining"));
    // the join finished, the aggregation runs: the line stays on the latest stage begun
    assertEquals(new ProgressView("joining", "records", 1, 450, 450), at("after-joining"));
  }

  /** An analyze of an 8 MB perf.data (--perf-data-reader perf-script), decoded in 2 pieces. */
  @Test
  void perfDataIsDecodedInPiecesOfThosePlannedThenRead() throws IOException {
    // the planning task finished with 2 pieces; perf script is decoding them
    assertEquals(new ProgressView("decoding", "pieces", 1, 0, 2), at("perfdata-decoding"));
    // both decoded: the parsing task has handed on its first records
    assertEquals(new ProgressView("reading", "records", 1, 4, -1), at("perfdata-reading"));
  }

  @Test
  void theJobIsFoundByItsName() throws IOException {
    JsonNode overview = recorded("overview.json");
    assertEquals(Set.of("6acc56b01624c73e8cd3bb5b22a1a308"),
        FlinkClusterProgress.jobIds(overview, "e3"));
    assertEquals(Set.of(), FlinkClusterProgress.jobIds(overview, "another"));
  }

  @Test
  void onlyAFlinkRunnerWithAHostAndPortIsARemoteCluster() {
    assertEquals("http://127.0.0.1:18081", FlinkClusterProgress.restAddress(
        PipelineOptionsFactory.fromArgs("--runner=FlinkRunner", "--flinkMaster=127.0.0.1:18081")
            .create()));
    assertNull(FlinkClusterProgress.restAddress(
        PipelineOptionsFactory.fromArgs("--runner=FlinkRunner", "--flinkMaster=[local]")
            .create()));
    assertNull(FlinkClusterProgress.restAddress(
        PipelineOptionsFactory.fromArgs("--runner=DirectRunner").create()));
  }

  @Test
  void aClusterThatDoesNotAnswerLeavesTheLineAtSubmitting() throws Exception {
    try (FlinkClusterProgress p = FlinkClusterProgress.watch("http://127.0.0.1:9", "job")) {
      Thread.sleep(FlinkClusterProgress.POLL_MS * 2L);
      assertEquals(FlinkClusterProgress.SUBMITTING, p.get());
      assertNull(p.jobId());
    }
  }
}
