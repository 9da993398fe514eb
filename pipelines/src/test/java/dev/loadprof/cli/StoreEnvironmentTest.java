package dev.loadprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Hadoop configuration loadprof makes bounds a wait for HDFS, as S3's clients are bounded. */
class StoreEnvironmentTest {
  private static JsonNode hdfsConfiguration(List<String> args) throws Exception {
    String arg = args.stream().filter(a -> a.startsWith("--hdfsConfiguration=")).findFirst()
        .orElseThrow();
    return new ObjectMapper().readTree(arg.substring("--hdfsConfiguration=".length())).get(0);
  }

  @Test
  void theHadoopConfigurationLoadprofMakesHasTheWaitsLimits() throws Exception {
    List<String> paths = List.of("hdfs://nn:8020/archive");
    JsonNode conf = hdfsConfiguration(
        StoreEnvironment.withStores(List.of(), paths, Map.of(), Path.of(".")));
    assertEquals("hdfs://nn:8020", conf.get("fs.defaultFS").asText());
    assertEquals("20000", conf.get("ipc.client.rpc-timeout.ms").asText());
    assertEquals("20000", conf.get("dfs.client.socket-timeout").asText());
    assertEquals("5000", conf.get("ipc.client.connect.timeout").asText());
    assertEquals("2", conf.get("ipc.client.connect.max.retries.on.timeouts").asText());
    JsonNode shorter = hdfsConfiguration(StoreEnvironment.withStores(List.of(), paths,
        Map.of("LOADPROF_STORE_SILENCE_S", "3"), Path.of(".")));
    assertEquals("3000", shorter.get("ipc.client.rpc-timeout.ms").asText());
    assertEquals("3000", shorter.get("ipc.client.connect.timeout").asText());
    // With the cluster's own configuration, its settings apply: nothing is added.
    assertFalse(StoreEnvironment.withStores(List.of(), paths,
        Map.of("HADOOP_CONF_DIR", "/etc/hadoop/conf"), Path.of("."))
        .stream().anyMatch(a -> a.startsWith("--hdfsConfiguration=")));
  }
}
