package dev.loadprof.parse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.model.Frame;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Parses the real traces recorded on the project's VM and checks the parser against counts made
 * independently here with plain line matching.
 */
class PerfScriptFixtureTest {
  static final Path EXAMPLE = TraceFixtures.path("phases");

  static Path fixture(String name) {
    return TraceFixtures.path(name);
  }

  /** What a simple line-by-line look at the text says; no knowledge of the parser. */
  static final class LineCounts {
    long samples;
    long switches;
    long switchPeriods;
    long wakeups;
    long taskRecords;
    long sampleFrames;
  }

  static LineCounts count(Path file) throws IOException {
    LineCounts c = new LineCounts();
    boolean inSample = false;
    try (BufferedReader r = new BufferedReader(new InputStreamReader(
        new GZIPInputStream(Files.newInputStream(file)), StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        if (line.startsWith("\t")) {
          if (inSample) {
            c.sampleFrames++;
          }
          continue;
        }
        inSample = false;
        if (line.contains(" cpu-clock:")) {
          c.samples++;
          inSample = true;
        } else if (line.contains(" sched:sched_switch:")) {
          c.switches++;
          // "...:          5 sched:sched_switch:" in -F layout; no period (1) in plain layout.
          String before = line.substring(0, line.indexOf(" sched:sched_switch:")).trim();
          String last = before.substring(before.lastIndexOf(' ') + 1);
          c.switchPeriods += last.endsWith(":") ? 1 : Long.parseLong(last);
        } else if (line.contains(" sched:sched_wakeup:")
            || line.contains(" sched:sched_wakeup_new:")) {
          c.wakeups++;
        } else if (line.contains(": PERF_RECORD_COMM") || line.contains(": PERF_RECORD_FORK")
            || line.contains(": PERF_RECORD_EXIT")) {
          c.taskRecords++;
        }
      }
    }
    return c;
  }

  static RecordingSink parse(Path file) throws IOException {
    RecordingSink sink = new RecordingSink(false);
    try (InputStream in = TraceFiles.open(file)) {
      new PerfScriptParser().read(in, file.getFileName().toString(), sink);
    }
    return sink;
  }

  static Stream<Arguments> fixtures() {
    // name, first and last sample time, first and last switch time, first frame of first sample
    return Stream.of(
        Arguments.of("phases", 47_944_552_429L, 50_949_553_735L, 47_942_788_675L,
            50_949_570_821L, "finish_task_switch.isra.0 ([kernel.kallsyms])"),
        Arguments.of("mixed", 64_545_474_565L, 65_821_741_262L, 64_545_245_104L,
            65_821_712_650L, "inode_permission ([kernel.kallsyms])"),
        Arguments.of("phases_wakeup", 66_709_436_981L, 69_712_537_416L, 66_709_393_496L,
            69_712_578_407L, "_raw_spin_unlock_irqrestore ([kernel.kallsyms])"),
        Arguments.of("phases_freq", 70_882_765_121L, 73_884_528_731L, 70_882_528_449L,
            73_884_738_193L, "xas_start ([kernel.kallsyms])"),
        Arguments.of("phases_plain", 47_944_552_000L, 50_949_553_000L, 47_942_788_000L,
            50_949_570_000L, "finish_task_switch.isra.0 ([kernel.kallsyms])"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fixtures")
  void countsMatchLineMatching(String name, long firstSample, long lastSample, long firstSwitch,
      long lastSwitch, String firstFrame) throws IOException {
    Path file = fixture(name);
    LineCounts expected = count(file);
    RecordingSink sink = parse(file);

    assertEquals(0, sink.malformed, "malformed lines");
    assertTrue(expected.samples > 1000, "the fixture has samples");
    assertEquals(expected.samples, sink.samples, "samples");
    assertEquals(expected.switches, sink.switches, "switches");
    assertEquals(expected.switchPeriods, sink.switchPeriods, "sum of switch periods");
    assertEquals(expected.wakeups, sink.wakeups, "wakeups");
    assertEquals(expected.taskRecords, sink.taskRecords, "task records");
    assertEquals(0, sink.ignored, "ignored records");
    assertEquals(expected.sampleFrames, sink.stacks.stream().mapToLong(s -> s.length).sum(),
        "frames of all samples");

    assertEquals(firstSample, sink.sampleTimes.get(0));
    assertEquals(lastSample, sink.sampleTimes.get(sink.sampleTimes.size() - 1));
    assertEquals(firstSwitch, sink.switchTimes.get(0));
    assertEquals(lastSwitch, sink.switchTimes.get(sink.switchTimes.size() - 1));
    assertEquals(firstFrame, sink.stacks.get(0)[0].toString());
  }

  @Test
  void fixtureSpecifics() throws IOException {
    RecordingSink wakeup = parse(fixture("phases_wakeup"));
    assertTrue(wakeup.wakeups > 0, "phases_wakeup has wakeups");
    RecordingSink freq = parse(fixture("phases_freq"));
    assertTrue(freq.maxSwitchPeriod >= 2 && freq.maxSwitchPeriod <= 8,
        "frequency-sampled switches have periods 2..8, max " + freq.maxSwitchPeriod);
    RecordingSink mixed = parse(fixture("mixed"));
    assertEquals(0, mixed.wakeups);
  }

  @Test
  void userSpaceFramesOfPhases() throws IOException {
    RecordingSink sink = parse(EXAMPLE);
    int i = sink.sampleTimes.indexOf(47_948_620_415L);
    assertTrue(i >= 0);
    Frame[] stack = sink.stacks.get(i);
    assertEquals(new Frame("serial_phase", "/tmp/rec/workloads/phases", 0x12f0), stack[0]);
    assertEquals(new Frame("main", "/tmp/rec/workloads/phases", 0x1559), stack[1]);
    assertEquals(new Frame("__libc_start_call_main", "/usr/lib/x86_64-linux-gnu/libc.so.6",
        0x2724a), stack[2]);
  }

  /** Plain perf script of the same perf.data gives the same samples, times cut to µs. */
  @Test
  void plainLayoutMatchesFieldsLayout() throws IOException {
    RecordingSink fields = parse(EXAMPLE);
    RecordingSink plain = parse(fixture("phases_plain"));
    assertEquals(fields.samples, plain.samples);
    assertEquals(fields.switches, plain.switches);
    for (int i = 0; i < fields.sampleTimes.size(); i++) {
      assertEquals(fields.sampleTimes.get(i) / 1000 * 1000, plain.sampleTimes.get(i));
      assertArrayEquals(fields.stacks.get(i), plain.stacks.get(i), "stack of sample " + i);
    }
  }

  @Test
  void readAcceptsGzipPassedByMistake() throws IOException {
    RecordingSink sink = new RecordingSink(false);
    try (InputStream in = Files.newInputStream(fixture("mixed"))) {
      new PerfScriptParser().read(in, "mixed.txt.gz", sink);
    }
    assertEquals(0, sink.malformed);
    assertEquals(count(fixture("mixed")).samples, sink.samples);
  }

  @Test
  void gzipIsDetectedByContentNotName() throws IOException {
    byte[] gz = Files.readAllBytes(EXAMPLE);
    byte[] text;
    try (InputStream in = new GZIPInputStream(Files.newInputStream(EXAMPLE))) {
      text = in.readAllBytes();
    }
    try (InputStream in = TraceFiles.open(new java.io.ByteArrayInputStream(gz))) {
      assertArrayEquals(text, in.readAllBytes());
    }
    try (InputStream in = TraceFiles.open(new java.io.ByteArrayInputStream(text))) {
      assertArrayEquals(text, in.readAllBytes());
    }
    for (byte[] tiny : List.of(new byte[0], new byte[] {0x1f})) {
      try (InputStream in = TraceFiles.open(new java.io.ByteArrayInputStream(tiny))) {
        assertArrayEquals(tiny, in.readAllBytes());
      }
    }
  }
}
