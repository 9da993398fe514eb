package dev.loadprof.perfdata;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.model.BadInput;
import dev.loadprof.testtools.RequiredTools;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * perf failing on an input file is bad input (exit 2, the file named with perf's words), whatever
 * perf says; only a perf that does not run or is killed from outside is a failed job.
 */
class PerfProcessTest {
  private static final String FILE = "/traces/X.data";

  /** What a shell standing in for perf does to the file, as PerfProcess.waitFor sees it. */
  private static IOException failureOf(String shell) throws Exception {
    List<String> cmd = List.of("sh", "-c", shell);
    Process p = PerfProcess.start(cmd);
    p.getOutputStream().close();
    Thread err = PerfProcess.drainLater(p.getErrorStream());
    p.getInputStream().readAllBytes();
    return assertThrows(IOException.class, () -> PerfProcess.waitFor(p, err, cmd, FILE));
  }

  private static void assertBadInputNaming(IOException e, String perfWords) {
    assertInstanceOf(BadInput.class, e, e.getMessage());
    String line = e.getMessage();
    assertTrue(line.startsWith(FILE + ": ") && line.contains(perfWords)
        && line.contains("record it again") && !line.contains("\n"), line);
  }

  @Test
  void perfFailingWithWordsNotKnownAsDamageIsBadInput() throws Exception {
    RequiredTools.require(RequiredTools.Tool.PERF); // perf runs: the failure is the file's
    assertBadInputNaming(failureOf("echo 'Requested CPU 2048 too large. Consider raising"
        + " MAX_NR_CPUS' >&2; exit 255"), "Requested CPU 2048 too large");
  }

  @Test
  void perfCrashingOnTheFileIsBadInput() throws Exception {
    RequiredTools.require(RequiredTools.Tool.PERF);
    assertBadInputNaming(failureOf("kill -SEGV $$"), "exits 139");
  }

  @Test
  void perfSayingTheFileIsDamagedIsBadInput() throws Exception {
    assertBadInputNaming(failureOf("echo '0x334c08 [0]: failed to process type: 9 [Invalid"
        + " argument]' >&2; exit 234"), "failed to process type: 9");
  }

  @Test
  void perfKilledFromOutsideIsAFailedJobNotBadInput() throws Exception {
    IOException e = failureOf("kill -KILL $$");
    assertFalse(e instanceof BadInput, e.getMessage());
    assertTrue(e.getMessage().contains("signal 9"), e.getMessage());
  }

  /** Real perf 6.1 on a real file, asked for a piece it refuses (a damaged nrcpus asks so). */
  @Test
  void realPerfScriptRefusingAPieceIsBadInput(@TempDir Path dir) throws Exception {
    RequiredTools.require(RequiredTools.Tool.PERF);
    Path data = dir.resolve("small.data");
    try (InputStream in = new GZIPInputStream(
        PerfProcessTest.class.getResourceAsStream("/perfdata/small-system-wide.data.gz"))) {
      Files.copy(in, data);
    }
    PerfDataHeader header = PerfDataHeader.read(data);
    DecodePiece cpu2048 = new DecodePiece(DecodePiece.Kind.CPU, 0, 1, 2048, 0, Long.MAX_VALUE);
    IOException e = assertThrows(IOException.class, () -> PerfScriptDecoder.decode(data, header,
        cpu2048, new ByteArrayOutputStream()));
    assertInstanceOf(BadInput.class, e, e.getMessage());
    assertTrue(e.getMessage().startsWith(data + ": ")
        && e.getMessage().contains("Requested CPU 2048 too large"), e.getMessage());
  }
}
