package dev.loadprof.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/nightly.sh --runner flink-cluster: the script starts the local Flink session cluster
 * (its own state dir here) and both jobs, archive and nightly, run on it; the latest night's
 * parallelism regression is exit 3 with the same nightly.json as on the DirectRunner.
 */
class NightlyScriptOnFlinkClusterIT {
  private static final Path STATE = LocalFlinkCluster.HOME.resolve(
      "pipelines/target/flink-cluster-nightly-it");
  private static LocalFlinkCluster cluster;

  @TempDir Path dir;

  @AfterAll
  static void stopCluster() throws Exception {
    if (cluster != null) {
      cluster.stop();
    }
  }

  @Test
  void nightlyOnTheClusterEqualsTheDirectRunner() throws Exception {
    assumeFalse(Boolean.getBoolean("loadprof.skipCluster"),
        "Flink session cluster tests skipped (-Dloadprof.skipCluster=true)");
    cluster = new LocalFlinkCluster(STATE);
    cluster.start(); // nightly.sh's own start then finds it up
    Path inbox = dir.resolve("inbox");
    NightlyScript.addNights(inbox, 0, List.of("base-1", "base-2", "base-3", "base-4", "base-5",
        "par-1"));
    Map<String, String> env = Map.of("LOADPROF_FLINK_DIR", STATE.toString());
    NightlyScript.Result onCluster = NightlyScript.run(dir, env, "--traces", inbox + "/*.txt.gz",
        "--archive", dir.resolve("archive-cluster").toString(), "--out",
        dir.resolve("cluster").toString(), "--comm", "^mixed$", "--runner", "flink-cluster");
    assertEquals(3, onCluster.exit(), onCluster.output());
    NightlyScript.Result direct = NightlyScript.run(dir, Map.of(), "--traces",
        inbox + "/*.txt.gz", "--archive", dir.resolve("archive-direct").toString(), "--out",
        dir.resolve("direct").toString(), "--comm", "^mixed$");
    assertEquals(3, direct.exit(), direct.output());
    JsonNode json = E2e.JSON.readTree(dir.resolve("cluster/nightly.json").toFile());
    CompareCliTest.assertRegression(json, "parallel_section", "parallelism");
    assertEquals(Files.readString(dir.resolve("direct/nightly.json")),
        Files.readString(dir.resolve("cluster/nightly.json")));
  }
}
