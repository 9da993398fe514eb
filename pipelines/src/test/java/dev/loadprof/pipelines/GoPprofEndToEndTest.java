package dev.loadprof.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loadprof.pipelines.E2e.Cli;
import dev.loadprof.report.GoPprof;
import dev.loadprof.pipelines.E2e.FunctionRow;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI's profile.pb.gz for the real phases trace, read by the stock {@code go tool pprof}: the
 * numbers pprof prints must be loadprof's own. Skipped when go is not on PATH, except under
 * CI=true, where a missing go fails the test (CI installs golang-go).
 */
class GoPprofEndToEndTest {
  /** A -top row: flat flat% sum% cum cum% name. */
  /** A -tags value row: "  1.5s (60.12%): 1". */
  private static final Pattern TAG_ROW = Pattern.compile("^\\s*(\\S+)\\s+\\(\\s*(\\S+)%\\):\\s+(.+)$");
  private static final Set<String> PARALLEL = Set.of("parallel_phase", "parallel_worker");

  @TempDir static Path dir;
  private static GoPprof goPprof;
  private static int pid;
  private static Cli all;
  private static Cli loadOne;

  @BeforeAll
  static void analyze() throws IOException {
    goPprof = GoPprof.inDir(dir);
    pid = E2e.windows(E2e.windowsFile("phases")).get(0).pid();
    String trace = E2e.trace("phases").toString();
    // The pid is also perf's exec stub's, before the exec: --comm keeps the one process.
    all = E2e.analyze(Files.createDirectories(dir.resolve("all")), "--pid",
        Integer.toString(pid), "--comm", "^phases$", trace).assertOk();
    loadOne = E2e.analyze(Files.createDirectories(dir.resolve("load1")), "--pid",
        Integer.toString(pid), "--comm", "^phases$", "--load", "1", trace).assertOk();
  }

  @Test
  void topWallFlatPercentEqualsFunctionsTxt() throws Exception {
    Map<String, String[]> top = topRows(pprof(all, "-top", "-sample_index=oncpu_real"));
    List<FunctionRow> rows = E2e.functionsTxt(all.file("functions.txt")).get("phases/" + pid);
    Map<String, String> ours = new LinkedHashMap<>();
    rows.forEach(r -> ours.put(r.name(), r.flat()));
    assertThat(top.keySet(), hasItems("serial_phase", "parallel_phase", "tail_serial"));
    int exact = 0;
    for (var e : top.entrySet()) {
      double pprofPct = Double.parseDouble(e.getValue()[1]);
      String mine = ours.get(e.getKey());
      if (pprofPct == 0) {
        // Frames that are never a leaf (main, start_thread, ...): functions.txt ranks by flat
        // time and keeps 50 rows, so they may be cut; if shown, they must be 0.00 too.
        assertTrue(mine == null ? rows.size() == 50 : mine.equals("0.00"), e.getKey());
        continue;
      }
      assertTrue(mine != null, e.getKey() + " is in pprof -top but not in functions.txt");
      if (pprofPct >= 1.0 && pprofPct < 99.95) {
        // pprof prints %.2f from 1 % up, exactly as functions.txt does: the same 2 decimals.
        assertEquals(mine, e.getValue()[1], e.getKey() + " flat%");
        exact++;
      } else {
        assertEquals(pprofPct, Double.parseDouble(mine), 0.01, e.getKey() + " flat%");
      }
    }
    assertEquals(3, exact, "serial_phase, parallel_phase and tail_serial compared to 2 decimals");
    // The same order of the top three in both.
    assertEquals(List.of("serial_phase", "parallel_phase", "tail_serial"),
        new ArrayList<>(top.keySet()).subList(0, 3));
    assertEquals(List.of("serial_phase", "parallel_phase", "tail_serial"),
        new ArrayList<>(ours.keySet()).subList(0, 3));
    // Absolute figures: pprof's flat ms = summary.json flat_wall_ns (pprof rounds to 0.01 ms).
    Map<String, Double> wallNs = E2e.topFunctions(E2e.process(all.summary(), pid),
        "flat_wall_ns");
    for (String fn : List.of("serial_phase", "parallel_phase", "tail_serial")) {
      assertEquals(wallNs.get(fn), nanos(top.get(fn)[0]), 0.01e6, fn + " flat wall ns");
    }
  }

  /**
   * At load 1 only the main thread should run: serial_phase, tail_serial, and the few kernel and
   * vdso frames it passes through (timer interrupts, clock_gettime of the busy loop). pprof's
   * default -top (nodes of cum > 0.5 %) must show no parallel frame.
   */
  @Test
  void tagfocusLoadOneListsOnlySerialFunctions() throws Exception {
    Map<String, String[]> top = topRows(pprof(all, "-top", "-tagfocus=load=1"));
    assertThat(top.keySet(), hasItems("serial_phase", "tail_serial"));
    for (String p : PARALLEL) {
      assertThat(top.keySet(), not(hasItem(p)));
    }
    double serialFlat = 0;
    for (var e : top.entrySet()) {
      double pct = Double.parseDouble(e.getValue()[1]);
      if (e.getKey().equals("serial_phase") || e.getKey().equals("tail_serial")) {
        serialFlat += pct;
      } else {
        assertTrue(pct < 1.0, e.getKey() + " has " + pct + "% flat at load 1");
      }
    }
    // serial_phase + tail_serial: ~59.5 % of the whole profile's real time (the 60 % at load 1
    // less the clock_gettime and kernel frames under them).
    assertEquals(60.0, serialFlat, 2.0);
  }

  /**
   * Every node (-nodefraction=0): the functions with flat time at load 1 must be exactly those
   * of loadprof's own --load 1 functions.txt. parallel_phase is among them, with 11 samples
   * (2.75 ms, 0.11 %), and that is right: counted independently from the trace's switch records,
   * at exactly 11 parallel_phase samples the other worker was switched out (preempted by
   * kdamond.0, perf, tokio-rt-worker, memfd:sealed-91 ...; RECORDING.md pitfall 6), so the
   * process really had one thread on a CPU then. A regression that gave the whole phase load 1,
   * or none of it, fails here.
   */
  @Test
  void tagfocusLoadOneEveryNodeMatchesLoadFilteredFunctionsTxt() throws Exception {
    Map<String, String[]> top = topRows(pprof(all, "-top", "-nodefraction=0",
        "-edgefraction=0", "-nodecount=100000", "-tagfocus=load=1"));
    TreeSet<String> pprofFlat = new TreeSet<>();
    top.forEach((name, row) -> {
      if (Double.parseDouble(row[1]) > 0) {
        pprofFlat.add(name);
      }
    });
    TreeSet<String> ourFlat = new TreeSet<>();
    E2e.functionsTxt(loadOne.file("functions.txt")).get("phases/" + pid).forEach(r -> {
      if (r.flatPct() > 0) {
        ourFlat.add(r.name());
      }
    });
    assertEquals(ourFlat, pprofFlat, "pprof -tagfocus=load=1 vs loadprof --load 1");
    assertEquals(2.75e6, nanos(top.get("parallel_phase")[0]), 1.0,
        "parallel_phase at load 1: the 11 samples taken while the other worker was preempted");
  }

  @Test
  void tagfocusLoadTwoShowsParallelPhase() throws Exception {
    Map<String, String[]> top = topRows(pprof(all, "-top", "-tagfocus=load=2"));
    assertThat(top.keySet(), hasItem("parallel_phase"));
    assertThat(top.keySet(), not(hasItem("serial_phase")));
    assertThat(top.keySet(), not(hasItem("tail_serial")));
    assertEquals(40.0, Double.parseDouble(top.get("parallel_phase")[1]), 2.0);
  }

  @Test
  void tagsListLoadProcessPidAndRunWithTheHistogram() throws Exception {
    String tags = pprof(all, "-tags");
    for (String key : List.of("load", "process", "pid", "run")) {
      assertThat(tags, containsString(" " + key + ": Total"));
    }
    assertThat(tags, containsString(": " + pid));
    assertThat(tags, containsString(": phases"));
    // The load tag's shares are the real-time histogram of summary.json.
    Map<String, String> load = tagValues(tags, "load");
    JsonNode real = E2e.process(all.summary(), pid).get("realtime_histogram");
    assertEquals(Set.of("1", "2"), load.keySet());
    for (var e : load.entrySet()) {
      assertEquals(String.format(Locale.ROOT, "%.2f",
          100 * E2e.at(real, Integer.parseInt(e.getKey()))), e.getValue(), "load " + e.getKey());
    }
  }

  @Test
  void onlyTheSelectedProcessIsInTheProfile() throws Exception {
    Map<String, String> pids = tagValues(pprof(all, "-tags"), "pid");
    assertEquals(Map.of(Integer.toString(pid), "100"), pids);
    assertFalse(all.file("functions.txt").contains("memfd"), "--pid keeps one process");
  }

  /** The rows of one tag of a -tags report: value -> percent. */
  private static Map<String, String> tagValues(String report, String tag) {
    Map<String, String> values = new LinkedHashMap<>();
    boolean in = false;
    for (String line : report.split("\n")) {
      if (line.trim().startsWith(tag + ": Total")) {
        in = true;
        continue;
      }
      if (in) {
        Matcher m = TAG_ROW.matcher(line);
        if (!m.matches()) {
          break;
        }
        values.put(m.group(3).trim(), m.group(2).trim());
      }
    }
    assertFalse(values.isEmpty(), "no tag " + tag + " in\n" + report);
    return values;
  }

  private static Map<String, String[]> topRows(String report) {
    Map<String, String[]> rows = GoPprof.topRows(report);
    assertFalse(rows.isEmpty(), "no rows in\n" + report);
    return rows;
  }

  /** A pprof duration ("994.50ms", "1.5s", "0", "125us") in ns. */
  private static double nanos(String value) {
    Matcher m = Pattern.compile("^([0-9.]+)(ns|us|ms|s|m|h)?$").matcher(value);
    assertTrue(m.matches(), "not a duration: " + value);
    double v = Double.parseDouble(m.group(1));
    String unit = m.group(2) == null ? "ns" : m.group(2);
    return v * switch (unit) {
      case "ns" -> 1;
      case "us" -> 1e3;
      case "ms" -> 1e6;
      case "s" -> 1e9;
      case "m" -> 60e9;
      default -> 3600e9;
    };
  }

  /** Runs stock go tool pprof on the run's profile. */
  private static String pprof(Cli run, String... args) throws Exception {
    String[] all = java.util.Arrays.copyOf(args, args.length + 1);
    all[args.length] = run.out().resolve("profile.pb.gz").toString();
    return goPprof.run(all);
  }
}
