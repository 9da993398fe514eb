package dev.loadprof.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.testtools.RequiredTools;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 200 local analyses, 8 at a time, of mixed inputs and options ({@link AnalysisStress}): in this
 * JVM, and in 4 JVMs of 2 at a time each. Every one must give its exit code and the bytes of the
 * same case run alone. Two CI runs had ended in "the job failed: ConcurrentModificationException"
 * on this path; the shared state it could come from is final now (TraceHealth, Analysis) or
 * confined to one thread (the wall views' results, WindowJoiner's accumulators).
 */
class LocalAnalysisStressIT {
  private static final int ANALYSES = 200;
  private static final int AT_A_TIME = 8;
  private static final int JVMS = 4;

  @TempDir static Path dir;
  static Path inputs;
  static Path references;

  @BeforeAll
  static void eachCaseAlone() throws Exception {
    RequiredTools.require(RequiredTools.Tool.PERF); // one case decodes perf.data with perf script
    inputs = dir.resolve("inputs");
    references = dir.resolve("references");
    AnalysisStress.prepare(inputs);
    assertEquals(List.of(), AnalysisStress.references(inputs, references));
  }

  @Test
  void manyAtOnceInOneJvm() throws Exception {
    long start = System.nanoTime();
    List<String> failures = AnalysisStress.run(inputs, references,
        Files.createDirectories(dir.resolve("one-jvm")), ANALYSES, AT_A_TIME, "jvm");
    System.out.printf("%d analyses, %d at a time, in one JVM: %.1f s%n", ANALYSES, AT_A_TIME,
        (System.nanoTime() - start) / 1e9);
    assertEquals(List.of(), failures);
  }

  @Test
  void manyAtOnceInSeveralJvms() throws Exception {
    long start = System.nanoTime();
    List<Process> jvms = new ArrayList<>();
    for (int j = 0; j < JVMS; j++) {
      Path scratch = Files.createDirectories(dir.resolve("jvm-" + j));
      jvms.add(new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"),
          "-Xmx768m", "-Dorg.slf4j.simpleLogger.log.dev.loadprof=warn", "-cp",
          System.getProperty("java.class.path"), AnalysisStress.class.getName(),
          inputs.toString(), references.toString(), scratch.toString(),
          Integer.toString(ANALYSES / JVMS), Integer.toString(AT_A_TIME / JVMS), "jvm" + j)
          .redirectErrorStream(true).redirectOutput(dir.resolve("jvm-" + j + ".log").toFile())
          .start());
    }
    List<String> failed = new ArrayList<>();
    for (int j = 0; j < JVMS; j++) {
      Process p = jvms.get(j);
      assertTrue(p.waitFor(10, TimeUnit.MINUTES), "JVM " + j + " did not end");
      String log = Files.readString(dir.resolve("jvm-" + j + ".log"), StandardCharsets.UTF_8);
      if (p.exitValue() != 0 || !log.contains("DONE jvm" + j + ": 0 failures")) {
        failed.add("JVM " + j + " exit " + p.exitValue() + ":\n" + log);
      }
    }
    System.out.printf("%d analyses, %d at a time, in %d JVMs: %.1f s%n", ANALYSES, AT_A_TIME,
        JVMS, (System.nanoTime() - start) / 1e9);
    assertEquals(List.of(), failed);
  }
}
