package dev.loadprof.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.pipelines.E2e.Cli;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two nightly jobs with different inputs started together on one --out, 20 times: each job's
 * console summary and exit code equal its solo run, or it failed at once with "--out ... is in
 * use"; --out holds one job's outputs after every round. An IT: the rounds take minutes.
 */
class SharedOutIT {
  static final int ROUNDS = 20;

  @TempDir Path dir;

  static Cli nightly(Path out, Path traces) {
    return E2e.cli("nightly", "--out", out.toString(), "--comm", "^mixed$",
        traces.resolve("*.txt.gz").toString());
  }

  @Test
  void twoNightlyJobsOnOneOutNeverSwapOrMixTheirResults() throws Exception {
    Path quiet = SharedOutTest.nights(dir, "quiet", NightlyCliTest.base());
    Path regressed = SharedOutTest.nights(dir, "regressed", NightlyCliTest.plus(NightlyCliTest.base(), "cpu-2"));
    Path out = dir.resolve("out");
    Cli soloQuiet = nightly(out, quiet);
    Map<String, String> quietFiles = SharedOutTest.files(out);
    Cli soloRegressed = nightly(out, regressed);
    Map<String, String> regressedFiles = SharedOutTest.files(out);
    assertEquals(0, soloQuiet.exit(), soloQuiet.stderr());
    assertEquals(3, soloRegressed.exit(), soloRegressed.stderr());
    assertFalse(quietFiles.equals(regressedFiles));

    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      int ran = 0;
      for (int round = 0; round < ROUNDS; round++) {
        CyclicBarrier start = new CyclicBarrier(2);
        Future<Cli> a = pool.submit(() -> {
          start.await();
          return nightly(out, quiet);
        });
        Future<Cli> b = pool.submit(() -> {
          start.await();
          return nightly(out, regressed);
        });
        ran += assertOwnResultOrInUse(a.get(), soloQuiet, out, round);
        ran += assertOwnResultOrInUse(b.get(), soloRegressed, out, round);
        Map<String, String> now = SharedOutTest.files(out);
        assertTrue(now.equals(quietFiles) || now.equals(regressedFiles),
            "round " + round + ": --out holds a mix: " + now.keySet());
      }
      assertTrue(ran >= ROUNDS, "at least one job a round ran: " + ran);
    } finally {
      pool.shutdownNow();
    }
  }

  /** 1 when the job ran as it does alone, 0 when it was refused because --out was in use. */
  private static int assertOwnResultOrInUse(Cli cli, Cli solo, Path out, int round) {
    if (cli.exit() == 2 && cli.stderr().contains("--out " + out + " is in use")) {
      assertEquals("", cli.stdout(), "round " + round);
      return 0;
    }
    assertEquals(solo.exit(), cli.exit(), "round " + round + ": " + cli.stderr());
    assertEquals(solo.stdout(), cli.stdout(), "round " + round);
    return 1;
  }

}
