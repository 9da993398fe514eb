package dev.loadprof.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loadprof.pipelines.E2e.Cli;
import dev.loadprof.report.GoPprof;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the stock {@code go tool pprof} makes of loadprof's profiles, by pprof's own conventions:
 * numeric pid and tid labels, mappings with the main binary first, no object file read as source,
 * and a duration that is the sum of the runs' subjects' spans. Skipped when go is not on PATH, except under
 * CI=true, where a missing go fails the test (CI installs golang-go).
 */
class PprofConventionsEndToEndTest {
  private static final int PID = 1599;
  private static final String BINARY = "/tmp/rec/workloads/phases";
  /** A sample header of the recommended layout: "comm PID/TID [cpu] time: period cpu-clock:". */
  private static final Pattern SAMPLE =
      Pattern.compile("\\s(\\d+)/(\\d+)\\s+\\[\\d+\\]\\s+\\S+:\\s+\\d+\\s+cpu-clock:");
  private static final Pattern SHOWN = Pattern.compile("Showing nodes accounting for (\\d+), ");
  private static final Pattern DURATION = Pattern.compile("Duration: ([0-9.]+)s,");
  private static final Pattern DURATION_ANY = Pattern.compile("Duration: ([0-9.]+m?s)");

  @TempDir static Path dir;
  private static GoPprof pprof;
  private static Cli phases;
  private static Cli twoRuns;

  @BeforeAll
  static void analyze() throws IOException {
    pprof = GoPprof.inDir(dir);
    phases = E2e.analyzeCached(E2e.trace("phases").toString());
    twoRuns = E2e.analyzeCached(E2e.trace("phases").toString(), E2e.trace("mixed").toString());
  }

  /**
   * -tagfocus=pid=N and tid=N select exactly the samples the trace has for that process and each
   * of its threads, counted here from the trace text. A tid with no samples selects none.
   */
  @Test
  void tagfocusPidAndTidSelectExactlyTheTracesSamples() throws Exception {
    Map<Integer, Integer> byTid = new TreeMap<>();
    int ofPid = 0;
    int ofExecStub = 0;
    try (BufferedReader in = new BufferedReader(new InputStreamReader(
        new GZIPInputStream(Files.newInputStream(E2e.trace("phases"))), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        Matcher m = SAMPLE.matcher(line);
        if (m.find() && Integer.parseInt(m.group(1)) == PID) {
          ofPid++;
          byTid.merge(Integer.parseInt(m.group(2)), 1, Integer::sum);
          // perf's exec stub runs as the pid before the exec: a process of its own.
          ofExecStub += line.startsWith("perf-exec") ? 1 : 0;
        }
      }
    }
    assertEquals(List.of(1599, 1601, 1602), List.copyOf(byTid.keySet()), "main + 2 workers");
    assertEquals(13987, ofPid);
    assertEquals(6, ofExecStub);
    assertEquals(ofPid, selectedSamples("pid=" + PID)); // both processes of the pid
    for (var e : byTid.entrySet()) {
      assertEquals((long) e.getValue(), selectedSamples("tid=" + e.getKey()), "tid " + e.getKey());
    }
    assertEquals(6000, byTid.get(PID), "the main thread: 1.5 s of serial code at 4000 Hz");
    assertEquals(0, selectedSamples("tid=1600"));
    // Regexps still work on the string labels.
    assertEquals(ofPid - ofExecStub, selectedSamples("process=^phases$"));
    assertEquals(ofExecStub, selectedSamples("process=^perf-exec$"));
  }

  @Test
  void pprofNamesTheMainBinaryAndComplainsOfNoMissingOne() throws Exception {
    GoPprof.Output out = pprof.runCapturing("-top", profile(phases));
    assertThat(out.stderr(), not(containsString("Main binary filename not available")));
    assertThat(out.stderr(), not(containsString("binary filenames not available")));
    assertThat(out.stdout(), containsString("File: phases\n"));
  }

  /** -raw lists one mapping per object file, the main binary first, marked symbolized [FN]. */
  @Test
  void rawShowsTheMappings() throws Exception {
    String raw = pprof.run("-raw", profile(phases));
    String mappings = raw.substring(raw.indexOf("Mappings\n"));
    List<String> lines = Arrays.asList(mappings.split("\n"));
    assertEquals("1: 0x0/0x0/0x0 " + BINARY + "  [FN]", lines.get(1));
    for (String file : List.of("/usr/lib/x86_64-linux-gnu/libc.so.6", "[kernel.kallsyms]",
        "[vdso]", "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2")) {
      assertTrue(lines.stream().anyMatch(l -> l.matches("\\d+: 0x0/0x0/0x0 \\Q" + file
          + "\\E  \\[FN\\]")), file + " in\n" + mappings);
    }
    // Locations carry perf's addresses: serial_phase's busy loop is at 0x12e9..0x12f0.
    assertThat(raw, containsString(": 0x12f0 M=1 serial_phase"));
  }

  /**
   * With the traced binary at the path the trace names, {@code -list} must not print it as
   * source: the profile names no source files. The trace is rewritten to name a real ELF file.
   */
  @Test
  void listPrintsNoBinaryBytes() throws Exception {
    Path binary = dir.resolve("bin/phases");
    Files.createDirectories(binary.getParent());
    Files.copy(Path.of("/bin/true"), binary);
    byte[] head = Arrays.copyOf(Files.readAllBytes(binary), 4);
    assertArrayEquals(new byte[] {0x7f, 'E', 'L', 'F'}, head, "an ELF file to tempt pprof");
    Path trace = dir.resolve("traces/phases.txt.gz");
    Files.createDirectories(trace.getParent());
    try (BufferedReader in = new BufferedReader(new InputStreamReader(
            new GZIPInputStream(Files.newInputStream(E2e.trace("phases"))),
            StandardCharsets.UTF_8));
        OutputStream gz = new GZIPOutputStream(Files.newOutputStream(trace));
        Writer out = new OutputStreamWriter(gz, StandardCharsets.UTF_8)) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        out.write(line.replace(BINARY, binary.toString()));
        out.write('\n');
      }
    }
    Cli moved = E2e.analyze(Files.createDirectories(dir.resolve("moved")), trace.toString())
        .assertOk();
    GoPprof.Output list = pprof.runCapturing("-list", "serial_phase", profile(moved));
    assertThat(list.stdout(), containsString("serial_phase"));
    assertFalse(list.stdout().contains("\u0000"), "NUL bytes in\n" + list.stdout());
    assertFalse(list.stdout().contains("ELF"), "the binary's bytes in\n" + list.stdout());
    assertThat(list.stdout() + list.stderr(), containsString("No source information"));
  }

  /**
   * Two traces on unrelated boot clocks: the duration is the sum of the runs' own spans, each
   * its subject's (the program perf started: the wall line's span), not the trace's.
   */
  @Test
  void twoRunDurationIsTheSumOfTheSubjectsSpans() throws Exception {
    double sumS = 0;
    JsonNode runs = twoRuns.summary().get("runs");
    assertEquals(2, runs.size());
    for (JsonNode run : runs) {
      sumS += subjectSpanS(run);
    }
    Matcher m = DURATION.matcher(pprof.run("-top", profile(twoRuns)));
    assertTrue(m.find());
    // pprof prints the duration to 10 ms.
    assertEquals(sumS, Double.parseDouble(m.group(1)), 0.005);
  }

  /**
   * Issue 34's acceptance: {@code go tool pprof -top} of both profiles names the program perf
   * started as {@code File:}, and says a Duration within 1 % of its span (the console's wall
   * line); both carry the run's comment.
   */
  @Test
  void bothProfilesNameTheProgramAndItsSpan() throws Exception {
    double spanS = subjectSpanS(phases.summary().get("runs").get(0));
    for (String file : List.of("profile.pb.gz", "offcpu.pb.gz")) {
      String top = pprof.run("-top", phases.out().resolve(file).toString());
      assertThat(top, containsString("File: phases\n"));
      Matcher m = DURATION_ANY.matcher(top);
      assertTrue(m.find(), top);
      assertEquals(spanS, nanos(m.group(1)) / 1e9, 0.01 * spanS, file + ":\n" + top);
      assertThat(top, containsString("loadprof run "));
    }
  }

  /** The span of the run's subject (the wall line's first figure), from summary.json. */
  private static double subjectSpanS(JsonNode run) {
    int pid = run.get("subject").get("pid").asInt();
    for (JsonNode p : run.get("processes")) {
      if (p.get("pid").asInt() == pid && p.get("subject").asBoolean()) {
        return p.get("thread_states").get("span_s").asDouble();
      }
    }
    throw new AssertionError("no subject process in " + run.get("run_id"));
  }

  /** A pprof duration ("994.50ms", "2.07s") in ns. */
  private static double nanos(String value) {
    return value.endsWith("ms") ? Double.parseDouble(value.replace("ms", "")) * 1e6
        : Double.parseDouble(value.replace("s", "")) * 1e9;
  }

  /** The samples pprof keeps under -tagfocus=FILTER: every node, so none is cut. */
  private static long selectedSamples(String filter) throws Exception {
    String top = pprof.run("-top", "-sample_index=samples", "-nodefraction=0",
        "-nodecount=1000000", "-tagfocus=" + filter, profile(phases));
    Matcher m = SHOWN.matcher(top);
    assertTrue(m.find(), top);
    return Long.parseLong(m.group(1));
  }

  private static String profile(Cli run) {
    return run.out().resolve("profile.pb.gz").toString();
  }
}
