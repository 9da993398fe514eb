package dev.loadprof.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.perftools.profiles.ProfileProto;
import dev.loadprof.pipelines.E2e.Cli;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * perf's sample filters --tid, -C and --time on the example trace: each keeps in the profile
 * exactly the samples of phases (pid 1599) that the trace text has for it, counted here from
 * the text, and changes neither the process's sample count nor its loads.
 */
class SampleFiltersEndToEndTest {
  private static final int PID = 1599;
  /** "comm PID/TID [cpu] seconds: period cpu-clock:". */
  private static final Pattern SAMPLE = Pattern.compile(
      "\\s(\\d+)/(\\d+)\\s+\\[(\\d+)\\]\\s+(\\d+)\\.(\\d{9}):\\s+\\d+\\s+cpu-clock:");

  /** One sample of phases from the trace text. */
  private record Sample(int tid, int cpu, long timeNs) {}

  @TempDir static Path dir;
  private static List<Sample> samples;
  private static Cli whole;

  @BeforeAll
  static void readTrace() throws IOException {
    samples = new ArrayList<>();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(
        new GZIPInputStream(Files.newInputStream(E2e.trace("phases"))), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        Matcher m = SAMPLE.matcher(line);
        // Before its exec the pid ran perf's exec stub, a process of its own: not phases.
        if (m.find() && Integer.parseInt(m.group(1)) == PID && !line.startsWith("perf-exec")) {
          samples.add(new Sample(Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
              Long.parseLong(m.group(4)) * 1_000_000_000L + Long.parseLong(m.group(5))));
        }
      }
    }
    assertEquals(13981, samples.size());
    whole = E2e.analyzeCached(E2e.trace("phases").toString());
  }

  @Test
  void tidKeepsThoseThreadsSamples() throws IOException {
    Cli only = filtered("tid", "--tid", "1601,1602");
    assertSelected(only, s -> s.tid() == 1601 || s.tid() == 1602, 7987);
    // The main thread's serial phase is gone from the text outputs; the workers' code stays.
    assertThat(whole.file("flame.folded"), containsString("serial_phase"));
    assertThat(only.file("flame.folded"), not(containsString("serial_phase")));
    assertThat(only.file("functions.txt"), not(containsString("serial_phase")));
    assertThat(only.file("flame.folded"), containsString("parallel_phase"));
    assertEquals("--tid 1601,1602", only.summary().get("sample_filter").asText());
    assertThat(only.stdout(), containsString("samples: --tid 1601,1602"));
  }

  @Test
  void cpuKeepsTheSamplesTakenThere() throws IOException {
    Cli only = filtered("cpu", "-C", "1");
    assertSelected(only, s -> s.cpu() == 1, 3987);
    assertEquals("--cpu 1", only.summary().get("sample_filter").asText());
  }

  @Test
  void absoluteTimeKeepsTheSamplesBetweenStartAndEnd() throws IOException {
    Cli only = filtered("abs", "--time", "48.5,49.25");
    assertSelected(only, s -> s.timeNs() >= 48_500_000_000L && s.timeNs() <= 49_250_000_000L,
        4203);
    Cli open = filtered("open", "--time", "50.0,");
    assertSelected(open, s -> s.timeNs() >= 50_000_000_000L, 1989);
  }

  /** Percentages are of the run's span, start_ns to end_ns in summary.json. */
  @Test
  void percentTimeKeepsTheSlicesOfTheRun() throws IOException {
    JsonNode run = whole.summary().get("runs").get(0);
    long start = run.get("start_ns").asLong();
    long span = run.get("end_ns").asLong() - start;
    Cli only = filtered("pct", "--time", "10%/2,50%-60%");
    assertSelected(only, s -> within(s, start, span, 10, 20) || within(s, start, span, 50, 60),
        1000);
  }

  private static boolean within(Sample s, long start, long span, double from, double to) {
    return s.timeNs() >= start + Math.round(span * from / 100.0)
        && s.timeNs() <= start + Math.round(span * to / 100.0);
  }

  private static Cli filtered(String name, String... filter) throws IOException {
    List<String> args = new ArrayList<>(List.of(filter));
    args.add(E2e.trace("phases").toString());
    return E2e.analyze(Files.createDirectories(dir.resolve(name)), args.toArray(new String[0]))
        .assertOk();
  }

  /**
   * The profile holds exactly the selected samples of phases (at least {@code atLeast}, so that
   * the filter is not vacuous); summary.json counts the rest as samples_not_selected, and the
   * process's samples and time at each load are those of the unfiltered analysis.
   */
  private static void assertSelected(Cli only, Predicate<Sample> selected, long atLeast)
      throws IOException {
    long expected = samples.stream().filter(selected).count();
    assertThat("a filter that selects something", expected >= atLeast);
    assertThat("a filter that leaves something out", expected < samples.size());
    assertEquals(expected, profileSamplesOfPid(only.out()));
    JsonNode p = E2e.process(only.summary(), PID);
    JsonNode w = E2e.process(whole.summary(), PID);
    assertEquals(samples.size(), p.get("samples").asLong());
    assertEquals(samples.size() - expected, p.get("health").get("samples_not_selected").asLong());
    assertEquals(w.get("time_at_load_ns"), p.get("time_at_load_ns"));
    assertEquals(w.get("avg_load"), p.get("avg_load"));
    assertEquals(samples.size(), profileSamplesOfPid(whole.out()));
  }

  private static long profileSamplesOfPid(Path out) throws IOException {
    ProfileProto.Profile p;
    try (InputStream in = new GZIPInputStream(Files.newInputStream(out.resolve("profile.pb.gz")))) {
      p = ProfileProto.Profile.parseFrom(in);
    }
    long n = 0;
    for (ProfileProto.Sample s : p.getSampleList()) {
      boolean ofPid = false;
      boolean ofPhases = false;
      for (ProfileProto.Label l : s.getLabelList()) {
        String key = p.getStringTable((int) l.getKey());
        ofPid |= key.equals("pid") && l.getNum() == PID;
        ofPhases |= key.equals("process") && p.getStringTable((int) l.getStr()).equals("phases");
      }
      if (ofPid && ofPhases) {
        n += s.getValue(0);
      }
    }
    return n;
  }
}
