package dev.loadprof.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.pipelines.E2e.Cli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jobs that share one --out: --out holds exactly one job's outputs (no file left from another
 * command), and two jobs creating the same new --out are not refused as "not writable". The
 * race of two nightly jobs on one --out is {@link SharedOutIT}.
 */
class SharedOutTest {
  @TempDir Path dir;

  /** The fixtures as nights in dir/NAME, the regression night last when {@code regressed}. */
  static Path nights(Path dir, String name, List<String> fixtures) throws IOException {
    Path traces = Files.createDirectories(dir.resolve(name));
    for (int i = 0; i < fixtures.size(); i++) {
      Files.copy(Path.of(CompareCliTest.fixture(fixtures.get(i))),
          traces.resolve("mixed-" + NightlyCliTest.FIRST.plusDays(i) + ".txt.gz"));
    }
    return traces;
  }

  /** Every regular file in --out by name, with its content. */
  static Map<String, String> files(Path out) throws IOException {
    Map<String, String> files = new TreeMap<>();
    try (Stream<Path> s = Files.walk(out)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        files.put(out.relativize(p).toString(),
            java.util.Base64.getEncoder().encodeToString(Files.readAllBytes(p)));
      }
    }
    return files;
  }

  @Test
  void analyzeAfterCompareLeavesNoCompareOutputs() throws IOException {
    Path out = dir.resolve("out");
    Cli compare = E2e.cli("compare", "--out", out.toString(), "--comm", "^mixed$",
        "--baseline", CompareCliTest.fixture("base-1"), "--baseline",
        CompareCliTest.fixture("base-2"), "--candidate", CompareCliTest.fixture("cpu-1"),
        "--candidate", CompareCliTest.fixture("cpu-2"));
    assertTrue(Files.exists(out.resolve("compare.json")), compare.stderr());
    Cli analyze = E2e.analyze(out, CompareCliTest.fixture("base-1")).assertOk();
    List<String> left = new ArrayList<>(files(out).keySet());
    for (String name : List.of("compare.json", "compare.txt", "compare.html", "baseline.pb.gz",
        "candidate.pb.gz", "diff.folded")) {
      assertFalse(left.contains(name), name + " left beside analyze's outputs: " + left);
    }
    assertTrue(left.contains("summary.json"), analyze.stdout());
  }

  @Test
  void twoJobsCreatingTheSameNewOutAreNeverRefusedAsNotWritable() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 5; round++) {
        Path out = dir.resolve("new-" + round).resolve("out");
        CyclicBarrier start = new CyclicBarrier(2);
        List<Future<Cli>> jobs = new ArrayList<>();
        for (int j = 0; j < 2; j++) {
          jobs.add(pool.submit(() -> {
            start.await();
            return E2e.analyze(out, CompareCliTest.fixture("base-1"));
          }));
        }
        for (Future<Cli> job : jobs) {
          Cli cli = job.get();
          assertFalse(cli.stderr().contains("not writable"), cli.stderr());
          assertTrue(cli.exit() == 0 || cli.stderr().contains("is in use"), cli.stderr());
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
