package dev.loadprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Where a job runs, one rule for analyze, compare and nightly: in this JVM for local traces,
 * archives local or on a store, and a local --out, with no runner and no Beam option but a
 * store's (where S3 is); on Beam otherwise, also when a glob resolved to a store's traces.
 */
class JobPlacementTest {
  @ParameterizedTest(name = "{0} {1} -> out {2}, resolved {3}: in this JVM {4}")
  @CsvSource(delimiter = '|', value = {
      "''               | ''                     | out    | ''            | true",
      "''               | ''                     | s3://b/o | ''          | false",
      "--runner=direct  | ''                     | out    | ''            | false",
      "--runner=flink   | ''                     | out    | ''            | false",
      "''               | --maxBundleSize=1000   | out    | ''            | false",
      "''               | ''                     | out    | archive:s3://b/a | true",
      "''               | --endpoint=http://127.0.0.1:9 | out | archive:s3://b/a | true",
      "''               | --awsRegion=eu-west-1  | out    | archive:s3://b/a | true",
      "--runner=direct  | ''                     | out    | archive:s3://b/a | false",
      "''               | --endpoint=http://127.0.0.1:9 | s3://b/o | archive:s3://b/a | false",
      "''               | ''                     | out    | trace:s3://b/t.txt | false",
      "''               | ''                     | out    | archive:/tmp/a | true",
  })
  void localInputsRunHereAndAnythingElseOnBeam(String runnerOption, String pipelineArg,
      String out, String resolved, boolean here) throws Exception {
    RunnerOptions runner = new RunnerOptions();
    if (!runnerOption.isEmpty()) {
      runner.runner = runnerOption.substring("--runner=".length());
    }
    List<String> args = pipelineArg.isEmpty() ? List.of() : List.of(pipelineArg);
    JobPlacement place = JobPlacement.choose(runner, args, List.of("/tmp/t.txt"),
        out.contains("://") ? out : "/tmp/" + out);
    List<String> traces = resolved.startsWith("trace:")
        ? List.of(resolved.substring("trace:".length())) : List.of("/tmp/t.txt");
    List<String> archives = resolved.startsWith("archive:")
        ? List.of(resolved.substring("archive:".length())) : List.of();
    assertEquals(here, place.inThisJvm(traces, archives));
  }
}
