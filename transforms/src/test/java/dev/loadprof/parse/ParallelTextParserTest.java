package dev.loadprof.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceHealth;
import dev.loadprof.model.TraceReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A trace read in parts on several threads gives its sink exactly the calls, line numbers, host
 * and line count of one {@link PerfScriptParser} reading it whole: for real recordings and for
 * damaged text, with parts from one byte (a cut at every header line) to many lines, with the rest
 * handed to one parser when no header line comes soon enough, and when reading fails midway.
 */
class ParallelTextParserTest {
  /** Text with the oddities the parser has rules for, around every place a cut can fall. */
  private static final String DAMAGED = String.join("\n",
      "# hostname : first-host",
      "\tdeadbeef orphan (/lib/x.so)",
      "\tdeadbeef orphan (/lib/x.so)",
      "    phases  10/10  [000] 1.000000001:     250000 cpu-clock: ",
      "\t401000 main (/tmp/phases)",
      "\tnot a frame",
      "\t401002 start (/tmp/phases)",
      "",
      "  \t ",
      "    phases  10/10  [000] 1.000000002:     250000 cpu-clock: ",
      "\t401000 main (/tmp/phases)",
      "    phases  10/11  [001] 1.000000003: sched:sched_switch: prev_comm=phases prev_pid=11"
          + " prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120",
      "\tffff0000 __schedule ([kernel.kallsyms])",
      "garbage header line",
      "\t401000 main (/tmp/phases)",
      "# captured on    : Sun Nov 22 20:33:38 2026",
      "# hostname : second-host",
      "    phases  10/10  [000] 1.000000004:     250000 cpu-clock: \r",
      "\t401000 main (/tmp/phases)\r",
      "\r",
      "  phases 10/12 [000] 1.000000005: PERF_RECORD_EXIT(10:12):(10:10)",
      "    phases  10/10  [000] 1.000000006:     250000 cpu-clock:  401000 main (/tmp/phases)",
      "  x \u00e9\u00e8 10/10 [000] 1.000000007:     250000 cpu-clock: ",
      "\t401000 caf\u00e9 (/tmp/phases)",
      "    phases  10/10  [000] 1.000000008:     250000 cpu-clock: ",
      "\t4010");

  static Stream<Arguments> traces() throws IOException {
    List<Arguments> cases = new ArrayList<>();
    cases.add(Arguments.of("damaged text", DAMAGED.getBytes(StandardCharsets.UTF_8)));
    cases.add(Arguments.of("damaged text, cut after a line end",
        (DAMAGED + "\n").getBytes(StandardCharsets.UTF_8)));
    for (String fixture : List.of("phases", "phases_process")) {
      cases.add(Arguments.of(fixture, gunzip(Files.readAllBytes(TraceFixtures.path(fixture)))));
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("traces")
  void partsOnThreadsGiveTheCallsOfOneWholeRead(String name, byte[] text) throws IOException {
    Read whole = read(new PerfScriptParser(), text);
    assertTrue(whole.sink.events.size() > 5, name);
    for (int partBytes : new int[] {1, 97, 4096, 1 << 20}) {
      for (int threads : new int[] {1, 2, 3}) {
        String how = name + ", parts of " + partBytes + " bytes, " + threads + " threads";
        assertSame(whole, read(new ParallelTextParser(threads, partBytes, 1 << 24), text), how);
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("traces")
  void theRestIsReadByOneParserWhenNoHeaderComesSoonEnough(String name, byte[] text)
      throws IOException {
    Read whole = read(new PerfScriptParser(), text);
    for (int maxPartBytes : new int[] {1, 300, 5000}) {
      assertSame(whole, read(new ParallelTextParser(2, 97, maxPartBytes), text),
          name + ", rest after " + maxPartBytes + " bytes");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("traces")
  void aCutGzipGivesTheSameEventsAndDamage(String name, byte[] text) throws IOException {
    byte[] gz = gzip(text);
    byte[] cut = Arrays.copyOf(gz, gz.length * 2 / 3);
    Read whole = read(new PerfScriptParser(), cut);
    assertSame(whole, read(new ParallelTextParser(2, 97, 1 << 24), cut), name + ", cut .gz");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("traces")
  void aReadThatFailsMidwayGivesTheLinesBeforeItThenTheSameError(String name, byte[] text)
      throws IOException {
    int failAt = text.length / 2;
    RecordingSink whole = new RecordingSink();
    PerfScriptParser parser = new PerfScriptParser();
    IOException direct = assertThrows(IOException.class,
        () -> parser.read(new FailingStream(text, failAt), name, whole));
    for (int threads : new int[] {1, 2}) {
      RecordingSink parts = new RecordingSink();
      ParallelTextParser parallel = new ParallelTextParser(threads, 97, 1 << 24);
      IOException split = assertThrows(IOException.class,
          () -> parallel.read(new FailingStream(text, failAt), name, parts));
      assertEquals(direct.getMessage(), split.getMessage());
      assertEquals(whole.events, parts.events, name + ", " + threads + " threads");
      assertEquals(parser.lineCount(), parallel.lineCount());
    }
  }

  /** What a reader gave its sink, and what it tells of the run. */
  private record Read(RecordingSink sink, long lines, String host, String capturedOn) {}

  private static Read read(TraceReader reader, byte[] text) throws IOException {
    RecordingSink sink = new RecordingSink();
    reader.read(new ByteArrayInputStream(text), "trace", sink);
    RunInfo run = new RunInfo();
    reader.describeRun(run);
    return new Read(sink, run.health.get(TraceHealth.LINES), run.host, run.capturedOn);
  }

  private static void assertSame(Read expected, Read actual, String how) {
    assertEquals(expected.sink.events, actual.sink.events, how);
    assertEquals(expected.sink.malformedLines, actual.sink.malformedLines, how);
    for (int i = 0; i < expected.sink.stacks.size(); i++) {
      assertTrue(Arrays.equals(expected.sink.stacks.get(i), actual.sink.stacks.get(i)), how);
    }
    assertEquals(expected.lines, actual.lines, how);
    assertEquals(expected.host, actual.host, how);
    assertEquals(expected.capturedOn, actual.capturedOn, how);
  }

  /** Gives {@code failAt} bytes in small reads, then fails as a broken disk or network would. */
  private static final class FailingStream extends InputStream {
    private final byte[] bytes;
    private final int failAt;
    private int position;

    FailingStream(byte[] bytes, int failAt) {
      this.bytes = bytes;
      this.failAt = failAt;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (position >= failAt) {
        throw new IOException("the disk went away after " + failAt + " bytes");
      }
      int n = Math.min(Math.min(len, 1000), failAt - position);
      System.arraycopy(bytes, position, b, off, n);
      position += n;
      return n;
    }
  }

  private static byte[] gunzip(byte[] gz) throws IOException {
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
      return in.readAllBytes();
    }
  }

  private static byte[] gzip(byte[] text) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(text);
    }
    return out.toByteArray();
  }
}
