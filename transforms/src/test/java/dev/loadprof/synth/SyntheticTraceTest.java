package dev.loadprof.synth;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.closeTo;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SyntheticTraceTest {
  private static final Pattern SWITCH = Pattern.compile(
      "prev_comm=(.+) prev_pid=(\\d+) prev_prio=\\d+ prev_state=(\\w) ==> next_comm=(.+) "
          + "next_pid=(\\d+) next_prio=\\d+");
  private static final Pattern WAKEUP =
      Pattern.compile("comm=(.+) pid=(\\d+) prio=\\d+ target_cpu=(\\d{3})");
  private static final Pattern FRAME = Pattern.compile("^\t {0,15}[0-9a-f]{1,16} (\\S+) \\((.+)\\)$");

  /** What the tests need from one pass over a trace's text. */
  static final class Scan {
    final List<String> problems = new ArrayList<>();
    long headers;
    long lines;
    long lastTimeNs = Long.MIN_VALUE;
    boolean sorted = true;
    /** Per CPU: switches whose prev is not the previous switch's next. */
    final Map<Integer, Integer> breaksByCpu = new TreeMap<>();
    final Map<Integer, Integer> lastNext = new HashMap<>();
    final Map<Integer, Integer> switchesByCpu = new TreeMap<>();
    /** "pid function" -> samples, from the leaf frame. */
    final Map<String, Long> samples = new TreeMap<>();
    final Map<String, Long> counts = new TreeMap<>();
    final TreeSet<Long> switchPeriods = new TreeSet<>();
    /** Wakeups seen, "cpu tid", not yet consumed by a switch-in. */
    final Map<String, Integer> pendingWakeups = new HashMap<>();
    long switchInsWithoutWakeup;
    long switchIns;
    private PerfLines.Header current;
    private boolean expectLeaf;

    void line(String line) {
      lines++;
      if (line.isEmpty() || line.startsWith("\t")) {
        if (expectLeaf && line.startsWith("\t")) {
          Matcher f = FRAME.matcher(line);
          if (!f.matches()) {
            problems.add("bad frame: " + line);
          } else {
            samples.merge(current.pid() + " " + f.group(1), 1L, Long::sum);
          }
        }
        expectLeaf = false;
        return;
      }
      PerfLines.Header h = PerfLines.parse(line);
      if (h == null) {
        problems.add("bad header: " + line);
        return;
      }
      headers++;
      current = h;
      expectLeaf = false;
      if (h.timeNs() < lastTimeNs) {
        sorted = false;
      }
      lastTimeNs = h.timeNs();
      if (h.isTaskEvent()) {
        String kind = h.rest().replaceAll("[(: ].*", "");
        counts.merge(kind, 1L, Long::sum);
        return;
      }
      counts.merge(h.event(), 1L, Long::sum);
      switch (h.event()) {
        case "cpu-clock" -> expectLeaf = h.pid() != 0;
        case "sched:sched_switch" -> onSwitch(h);
        case "sched:sched_wakeup" -> {
          Matcher w = WAKEUP.matcher(h.rest());
          assertTrue(w.matches(), h.rest());
          pendingWakeups.merge(Integer.parseInt(w.group(3)) + " " + w.group(2), 1, Integer::sum);
        }
        default -> problems.add("unexpected event " + h.event());
      }
    }

    private void onSwitch(PerfLines.Header h) {
      Matcher m = SWITCH.matcher(h.rest());
      if (!m.matches()) {
        problems.add("bad switch: " + h.rest());
        return;
      }
      switchPeriods.add(h.period());
      int prev = Integer.parseInt(m.group(2));
      int next = Integer.parseInt(m.group(5));
      switchesByCpu.merge(h.cpu(), 1, Integer::sum);
      // Every CPU is idle when a synthetic trace's window opens, so a chain starts at swapper.
      Integer expectedPrev = lastNext.put(h.cpu(), next);
      breaksByCpu.putIfAbsent(h.cpu(), 0);
      if ((expectedPrev == null ? 0 : expectedPrev) != prev) {
        breaksByCpu.merge(h.cpu(), 1, Integer::sum);
      }
      // The header names the prev thread (":-1 pid/-1" once it has exited).
      if (m.group(3).equals("X")) {
        if (!h.comm().equals(":-1") || h.tid() != -1) {
          problems.add("exited prev without :-1 header: " + h);
        }
      } else if (h.tid() != prev) {
        problems.add("header tid " + h.tid() + " is not prev " + prev);
      }
      if (next != 0) {
        switchIns++;
        String key = h.cpu() + " " + next;
        Integer n = pendingWakeups.get(key);
        if (n == null) {
          switchInsWithoutWakeup++;
        } else if (n == 1) {
          pendingWakeups.remove(key);
        } else {
          pendingWakeups.put(key, n - 1);
        }
      }
    }

    long count(String kind) {
      return counts.getOrDefault(kind, 0L);
    }
  }

  static Scan scan(SyntheticTrace trace) throws IOException {
    Scan scan = new Scan();
    try (Writer w = PerfLines.lineWriter(scan::line)) {
      trace.writeTo(w);
    }
    return scan;
  }

  private static SyntheticTrace headline;
  private static Scan headlineScan;

  @BeforeAll
  static void generateHeadline() throws IOException {
    headline = Scenarios.headline64();
    headlineScan = scan(headline);
  }

  @Test
  void everyLineIsWellFormedAndRecordsAreTimeSorted() throws IOException {
    for (Scan s : List.of(headlineScan, scan(Scenarios.small(3)))) {
      assertThat(s.problems, is(List.of()));
      assertTrue(s.sorted, "records out of time order");
      assertThat(s.headers, greaterThan(100L));
    }
  }

  @Test
  void undamagedTraceHasAConsistentSwitchChainOnEveryCpu() throws IOException {
    for (Scan s : List.of(headlineScan, scan(Scenarios.small(5)))) {
      assertThat(s.breaksByCpu.toString(), s.breaksByCpu.values(), everyItem(equalTo(0)));
    }
    assertThat(headlineScan.switchesByCpu.keySet().size(), equalTo(64));
    assertEquals(0, headline.expected().chainBreaks);
  }

  @Test
  void droppedIdleToTaskSwitchesBreakTheChainOnOddCpusOnly() throws IOException {
    SyntheticTrace t = Scenarios.headline64DroppedIdleSwitches();
    Scan s = scan(t);
    assertThat(s.problems, is(List.of()));
    long total = 0;
    for (int cpu = 0; cpu < 64; cpu++) {
      int breaks = s.breaksByCpu.getOrDefault(cpu, 0);
      total += breaks;
      if (cpu % 2 == 1) {
        assertThat("cpu " + cpu, breaks, greaterThan(0));
      } else {
        assertThat("cpu " + cpu, breaks, equalTo(0));
      }
    }
    Expected e = t.expected();
    assertEquals(total, e.chainBreaks);
    assertEquals(32, e.droppedIdleToTaskSwitches);
    assertEquals(headline.expected().switchRecords - 32, e.switchRecords);
    assertEquals(e.trueSwitches - 32, s.count("sched:sched_switch"));
    // The ground truth does not change when records are lost.
    assertArrayEquals(headline.expected().process(Scenarios.HEADLINE_PID).wallNsAtLoad,
        e.process(Scenarios.HEADLINE_PID).wallNsAtLoad);
  }

  @Test
  void samplesPerFunctionMatchExpected() throws IOException {
    for (SyntheticTrace t : List.of(headline, Scenarios.small(7))) {
      Scan s = t == headline ? headlineScan : scan(t);
      Expected e = t.expected();
      Map<String, Long> expected = new TreeMap<>();
      e.processes.values().forEach(p -> p.samplesByFunction
          .forEach((fn, n) -> expected.put(p.pid + " " + fn, n)));
      assertEquals(expected, s.samples);
      assertEquals(e.sampleRecords, s.count("cpu-clock"));
      assertEquals(e.switchRecords, s.count("sched:sched_switch"));
      assertEquals(e.wakeupRecords, s.count("sched:sched_wakeup"));
      assertEquals(e.taskRecords, s.count("PERF_RECORD_COMM") + s.count("PERF_RECORD_FORK")
          + s.count("PERF_RECORD_EXIT"));
    }
  }

  @Test
  void headline64KnownAnswers() {
    Expected.ProcessFigures p = headline.expected().process(Scenarios.HEADLINE_PID);
    String serial = Scenarios.SERIAL_FUNCTION;
    assertThat(100 * p.cpuShare(serial), closeTo(100.0 * 2 / 66, 0.3));
    assertThat(100 * p.realShare(serial), closeTo(100.0 * 2 / 3, 0.5));
    assertThat(100 * p.trueCpuShare(serial), closeTo(100.0 * 2 / 66, 0.3));
    assertThat(100 * p.trueRealShare(serial), closeTo(100.0 * 2 / 3, 0.5));
    // 2 s at load 1 (plus spawn/exit edges), about 1 s at load 64, no time at load 0.
    assertThat((double) p.wallNsAtLoad(1), closeTo(2e9, 2e6));
    assertThat((double) p.wallNsAtLoad(64), closeTo(1e9, 1e6));
    // Load 0 only between the last worker's exit and main's wakeup (5-20 µs).
    assertThat(p.wallNsAtLoad(0), lessThan(30_000L));
    assertEquals(8000, p.samplesByFunction.get(serial), 2);
    assertEquals(64 * 4000, p.samplesByFunction.get(Scenarios.PARALLEL_FUNCTION), 64);
  }

  @Test
  void expectedFiguresAreSelfConsistent() {
    for (SyntheticTrace t : List.of(headline, Scenarios.small(11))) {
      for (Expected.ProcessFigures p : t.expected().processes.values()) {
        long wall = 0;
        long cpu = 0;
        for (int k = 0; k < p.wallNsAtLoad.length; k++) {
          wall += p.wallNsAtLoad[k];
          cpu += k * p.wallNsAtLoad[k];
        }
        assertEquals(p.spanNs(), wall, p.toString());
        assertEquals(p.trueCpuNs, cpu, p.toString());
        double trueReal = p.trueRealNsByFunction.values().stream().mapToDouble(d -> d).sum();
        assertThat(trueReal, closeTo(p.busyWallNs(), 1.0));
        // Sampled real time estimates busy wall time to within a few periods per thread start.
        assertThat(p.sampledRealNs(), closeTo(p.busyWallNs(), 0.01 * p.busyWallNs() + 1e6));
        assertEquals(p.samples, java.util.Arrays.stream(p.samplesAtLoad).sum());
      }
    }
    Expected.ProcessFigures small = Scenarios.small(11).expected().process(1000);
    // The sleep, plus the wake-up gaps after it and after the workers (a few µs each).
    assertThat((double) small.wallNsAtLoad(0), closeTo(5e6, 30e3));
  }

  @Test
  void sameSeedGivesIdenticalBytesAndAnotherSeedDoesNot() throws Exception {
    assertEquals(sha(Scenarios.small(42)), sha(Scenarios.small(42)));
    assertThat(sha(Scenarios.small(42)), not(equalTo(sha(Scenarios.small(43)))));
    assertEquals(sha(Scenarios.headline64()), sha(headline));
  }

  private static String sha(SyntheticTrace t) throws Exception {
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    try (Writer w = PerfLines.lineWriter(
        line -> md.update((line + "\n").getBytes(StandardCharsets.UTF_8)))) {
      t.writeTo(w);
    }
    return java.util.HexFormat.of().formatHex(md.digest());
  }

  @Test
  void taskEventsLookLikePerfs() {
    SyntheticTrace t = Scenarios.small(1);
    String text = t.text();
    assertThat(text, containsString("small  1000/1000  [000]   100.0"));
    assertThat(text, containsString(": PERF_RECORD_COMM exec: small:1000/1000\n"));
    assertThat(text, containsString(": PERF_RECORD_FORK(1000:1001):(1000:1000)\n"));
    assertThat(text, containsString(": PERF_RECORD_EXIT(1000:1001):(999:999)\n"));
    assertThat(text, containsString(": PERF_RECORD_EXIT(1000:1000):(999:999)\n"));
    assertThat(text, containsString("perf     0/0     [000]     0.000000000: "
        + "PERF_RECORD_FORK(1000:1000):(999:999)\n"));
    assertTrue(Pattern.compile("\n:-1  1000/-1    \\[00\\d\\] +[\\d.]+: +1 sched:sched_switch: "
        + "prev_comm=small prev_pid=100\\d prev_prio=120 prev_state=X ==> ").matcher(text).find());
    assertThat(text, containsString("prev_state=Z ==> next_comm=swapper/0"));
    assertThat(text, containsString("prev_state=R ==> next_comm=noised")); // preemption
    assertThat(text, containsString("next_comm=perf-exec next_pid=1000"));
    // Task events have no stack and no blank line after them, as in real output.
    Matcher m = Pattern.compile("PERF_RECORD_[^\n]*\n(.)").matcher(text);
    while (m.find()) {
      assertThat(m.group(), m.group(1), not(equalTo("\n")));
      assertThat(m.group(), m.group(1), not(equalTo("\t")));
    }
    assertEquals(3, t.expected().process(1000).samplesAtLoad.length - 1);
  }

  @Test
  void headersMatchTheRealFixtureLayout() throws IOException {
    // Real lines, one per record kind, from the VM fixture...
    Map<String, String> real = new TreeMap<>();
    try (InputStream in = getClass().getResourceAsStream("/traces/phases_wakeup.txt.gz")) {
      assertNotNull(in, "fixture missing");
      BufferedReader r = new BufferedReader(
          new InputStreamReader(new GZIPInputStream(in), StandardCharsets.UTF_8));
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        String kind = kindOf(line);
        if (kind != null) {
          real.putIfAbsent(kind, line);
        }
      }
    }
    // ... and the synthetic ones must parse with the same strict pattern.
    Map<String, String> synth = new TreeMap<>();
    SyntheticTrace t = SyntheticTrace.builder().cpus(4).seed(2).process(1000, "small", 0)
        .serial(3_000_000L, "a").parallel(3, 3_000_000L, "b").idleSamples(true).wakeups(true)
        .build();
    for (String line : t.text().split("\n")) {
      String kind = kindOf(line);
      if (kind != null) {
        synth.putIfAbsent(kind, line);
      }
    }
    assertThat(synth.keySet(), equalTo(real.keySet()));
    for (String kind : real.keySet()) {
      PerfLines.Header r = PerfLines.parse(real.get(kind));
      PerfLines.Header s = PerfLines.parse(synth.get(kind));
      assertThat(real.get(kind), r, notNullValue());
      assertThat(synth.get(kind), s, notNullValue());
      assertEquals(r.event(), s.event(), kind);
      // Same column positions up to the time field when the comm and pid widths agree.
      assertEquals(columnsAfterComm(real.get(kind)), columnsAfterComm(synth.get(kind)), kind);
    }
    assertThat(headlineScan.problems, is(List.of()));
  }

  /** Record kinds compared between real and synthetic output. */
  private static String kindOf(String line) {
    if (line.startsWith("\t") || line.isEmpty()) {
      return null;
    }
    if (line.contains(" 0.000000000: ")) {
      return null; // synthesized time-0 records: compared in taskEventsLookLikePerfs
    }
    for (String k : new String[] {"cpu-clock:", "sched:sched_switch:", "sched:sched_wakeup:",
        "PERF_RECORD_COMM exec:", "PERF_RECORD_FORK(", "PERF_RECORD_EXIT("}) {
      if (line.contains(k)) {
        String who = line.startsWith(":-1 ") ? "exited " : line.startsWith("swapper ") ? "idle " : "";
        return who + k;
      }
    }
    return null;
  }

  /** The header with comm and numbers blanked: the layout of separators and padding. */
  private static String columnsAfterComm(String line) {
    String afterComm = line.substring(line.indexOf(' ', 1));
    String layout = afterComm.replaceAll("\\d", "9");
    int colon = layout.indexOf(": ");
    return layout.substring(0, colon + 2).replaceAll("9+", "9").replaceAll(" +", " ");
  }

  @Test
  void wakeupsPrecedeEverySwitchIn() throws IOException {
    SyntheticTrace t = Scenarios.headline64Builder().wakeups(true)
        .serial(10_000_000L, "x").build();
    Scan s = scan(t);
    assertThat(s.switchIns, greaterThan(64L));
    assertEquals(0, s.switchInsWithoutWakeup);
    assertEquals(0, scan(Scenarios.small(4)).switchInsWithoutWakeup);
    assertThat(headlineScan.count("sched:sched_wakeup"), equalTo(0L));
  }

  @Test
  void switchSamplingKeepsEveryNthSwitchWithPeriodN() throws IOException {
    SyntheticTrace t = SyntheticTrace.builder().cpus(8).seed(9).process(300, "freq", 0)
        .serial(5_000_000L, "a").parallel(8, 5_000_000L, "b").sleep(1_000_000L)
        .parallel(8, 5_000_000L, "c").switchSamplingPeriod(3).build();
    Scan s = scan(t);
    assertThat(s.switchPeriods, equalTo(new TreeSet<>(List.of(3L))));
    Expected e = t.expected();
    assertEquals(e.switchRecords, s.count("sched:sched_switch"));
    assertThat(e.switchesLostToSampling, greaterThan(e.switchRecords));
    assertThat(s.breaksByCpu.values().stream().mapToInt(Integer::intValue).sum(), greaterThan(0));
  }

  @Test
  void idleSamplesAreSwapperInCpuStartupEntry() {
    SyntheticTrace t = SyntheticTrace.builder().cpus(2).seed(1).process(50, "one", 0)
        .serial(2_000_000L, "work").idleSamples(true).build();
    String text = t.text();
    assertThat(text, containsString("cpu_startup_entry ([kernel.kallsyms])"));
    assertTrue(Pattern.compile("\nswapper     0/0     \\[001\\] +[\\d.]+:     250000 +cpu-clock: \n")
        .matcher(text).find());
    Expected e = t.expected();
    assertThat(e.idleSamples, greaterThan(8L));
    assertEquals(e.sampleRecords, e.idleSamples + e.process(50).samples);
  }

  @Test
  void writesGzipWhenTheNameSaysSo(@TempDir Path dir) throws IOException {
    SyntheticTrace t = Scenarios.small(8);
    Path gz = dir.resolve("small.txt.gz");
    Path txt = dir.resolve("small.txt");
    t.writeTo(gz);
    t.writeTo(txt);
    try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
      assertArrayEquals(Files.readAllBytes(txt), in.readAllBytes());
    }
    assertEquals(t.text(), Files.readString(txt));
  }
}
