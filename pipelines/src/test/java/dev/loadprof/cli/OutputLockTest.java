package dev.loadprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.function.IntToLongFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One job per local --out: the OS lock holds for the whole job, a second job fails at once
 * naming the holder, and an ended job leaves no lock file. Jobs in separate JVMs, because POSIX
 * locks are per process (the bug: a second descriptor closed by the holder released its lock).
 */
class OutputLockTest {
  @TempDir Path dir;

  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
  private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

  @Test
  void aSecondClaimInThisJvmFailsNamingTheHolderAndTheEndedJobLeavesNoLockFile()
      throws Exception {
    Path out = dir.resolve("out");
    try (OutputClaim first = OutputClaim.take(out.toString(), err)) {
      assertTrue(Files.exists(out.resolve(OutputLock.FILE)));
      UsageException e = assertThrows(UsageException.class,
          () -> OutputClaim.take(out.toString(), err));
      assertTrue(e.getMessage().startsWith("--out " + out + " is in use by pid "
          + ProcessHandle.current().pid() + " ("), e.getMessage());
      assertTrue(e.getMessage().contains("started 20"), e.getMessage());
    }
    assertFalse(Files.exists(out.resolve(OutputLock.FILE)));
    try (Stream<Path> left = Files.list(out)) {
      assertEquals(List.of(), left.toList(), "the ended job left nothing in --out");
    }
    OutputClaim.take(out.toString(), err).close(); // free again
  }

  @Test
  void theLockIsCheckedAgainstTheFileThePathNamesNow() throws Exception {
    Path file = dir.resolve(OutputLock.FILE);
    try (FileChannel c = FileChannel.open(file, StandardOpenOption.CREATE,
        StandardOpenOption.WRITE)) {
      assertEquals(Boolean.TRUE, OutputLock.stillNamedBy(file));
      Files.delete(file); // what the holder does when it ends
      assertEquals(Boolean.FALSE, OutputLock.stillNamedBy(file));
      Files.createFile(file); // the next job's new file: not the inode this channel locked
      assertEquals(Boolean.FALSE, OutputLock.stillNamedBy(file));
    }
  }

  @Test
  void theHoldersCommandIsTheCliArgumentsAfterItsClass() {
    assertEquals("loadprof analyze x.txt -o out", OutputLock.command(LoadprofCli.class
        .getName() + " analyze x.txt -o out"));
    assertEquals("", OutputLock.command("org.apache.maven.surefire.booter.ForkedBooter x"));
  }

  /**
   * A job in a second JVM that comes while the first holds --out fails at once (it ends while
   * the first still holds it), naming the holder's pid; the first then ends and no lock file is
   * left. {@link OutputLockIT} runs 20 rounds at all timings.
   */
  @Test
  void aSecondJvmComingWhileTheFirstHoldsTheOutIsRefusedAtOnce() throws Exception {
    Path out = Files.createDirectories(dir.resolve("shared"));
    Path release = Files.createFile(dir.resolve("release"));
    ChildJvm first = ChildJvm.start(dir.resolve("logs"), "first", List.of(), ClaimDriver.class,
        "hold", out.toString(), release.toString());
    Path firstOut = dir.resolve("logs/first.out");
    for (int i = 0; i < 6000 && !Files.readString(firstOut).contains("holding"); i++) {
      Thread.sleep(20);
    }
    ChildJvm.Result second = ChildJvm.start(dir.resolve("logs"), "second", List.of(),
        ClaimDriver.class, "hold", out.toString(), "0").finish();
    Files.delete(release);
    ChildJvm.Result held = first.finish();
    assertEquals(ExitCode.OK, held.exit(), held.stderr());
    assertEquals(ExitCode.BAD_INPUT, second.exit(), second.stderr());
    assertTrue(second.stderr().startsWith("loadprof: --out " + out + " is in use by pid "
        + first.pid() + " (started 20"), second.stderr());
    assertEquals("", second.stdout());
    try (Stream<Path> left = Files.list(out)) {
      assertEquals(List.of(), left.toList(), "left in --out");
    }
  }

  /**
   * Two jobs in two JVMs on one --out, the second started {@code delay(round)} ms after the
   * first, each holding it {@code holdMs}: never both inside at once; a refused job is refused
   * at once (it did nothing) and its one line names the other's pid; no lock file is left.
   * Fails on the lock that read its token back through a second descriptor: both jobs held
   * --out. Returns how many rounds refused a job.
   */
  static int twoJobsOnOneOut(Path dir, int rounds, long holdMs, IntToLongFunction delay)
      throws Exception {
    Path out = Files.createDirectories(dir.resolve("shared"));
    int refused = 0;
    for (int round = 0; round < rounds; round++) {
      ChildJvm a = ChildJvm.start(dir.resolve("logs"), round + "-a", List.of(),
          ClaimDriver.class, "hold", out.toString(), Long.toString(holdMs));
      Thread.sleep(delay.applyAsLong(round));
      ChildJvm b = ChildJvm.start(dir.resolve("logs"), round + "-b", List.of(),
          ClaimDriver.class, "hold", out.toString(), Long.toString(holdMs));
      ChildJvm.Result ra = a.finish();
      ChildJvm.Result rb = b.finish();
      for (ChildJvm.Result[] pair : new ChildJvm.Result[][] {{ra, rb}, {rb, ra}}) {
        ChildJvm.Result r = pair[0];
        ChildJvm.Result other = pair[1];
        assertNotEquals(99, r.exit(), "round " + round + ": both held --out: " + r.stderr());
        if (r.exit() == ExitCode.BAD_INPUT) {
          refused++;
          assertTrue(r.stderr().startsWith("loadprof: --out " + out + " is in use by pid "
              + other.pid() + " ("), "round " + round + ": " + r.stderr());
          assertEquals("", r.stdout(), "round " + round + ": the refused job did nothing");
          assertEquals(ExitCode.OK, other.exit(), "round " + round + ": " + other.stderr());
        } else {
          assertEquals(ExitCode.OK, r.exit(), "round " + round + ": " + r.stderr());
        }
      }
      try (Stream<Path> left = Files.list(out)) {
        assertEquals(List.of(), left.toList(), "round " + round + ": left in --out");
      }
    }
    return refused;
  }
}
