package dev.loadprof.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.testtools.RequiredTools;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The workloads of ../shared/workloads built in a test's directory, for recordings made there. */
final class BuiltWorkloads {
  private BuiltWorkloads() {}

  /** Copies the workloads' sources into {@code dir}/wl and builds them; returns that directory. */
  static Path in(Path dir) throws Exception {
    RequiredTools.require(RequiredTools.Tool.PERF, RequiredTools.Tool.MAKE,
        RequiredTools.Tool.GCC);
    Path workloads = dir.resolve("wl");
    assertEquals(0, run(List.of("cp", "-r", RequiredTools.workloads().toString(),
        workloads.toString())));
    assertEquals(0, run(List.of("make", "-s", "-C", workloads.toString())));
    return workloads;
  }

  /** Runs {@code command} (its output discarded), at most two minutes; its exit code. */
  static int run(List<String> command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "timed out: " + command);
    return p.exitValue();
  }
}
