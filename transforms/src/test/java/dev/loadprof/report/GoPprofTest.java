package dev.loadprof.report;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.loadprof.model.Frame;
import dev.loadprof.profile.StackWeight;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the real {@code go tool pprof} on a written profile. Skipped when go is not on PATH, except
 * under CI=true, where it fails: CI installs go (Debian package golang-go).
 */
class GoPprofTest {
  /** A -top row: flat flat% sum% cum cum% name. */
  /** A functions.txt row: flat% cum% cpu% avgload saved% name. */
  private static final Pattern FUNCTIONS_ROW =
      Pattern.compile("^\\s*(\\d+\\.\\d{2})%\\s+\\S+%\\s+\\S+%\\s+\\S+\\s+\\S+%\\s{2}(.+)$");

  @TempDir static Path dir;
  private static GoPprof pprof;
  private static Path profile;
  private static Map<String, String> functionsFlat;
  private static Analysis analysis;

  @BeforeAll
  static void writeProfile() throws IOException {
    pprof = GoPprof.inDir(dir);
    analysis = Fixtures.singleProcess();
    Reports.writeAll(
        analysis,
        name -> {
          try {
            return Files.newOutputStream(dir.resolve(name));
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
    profile = dir.resolve("profile.pb.gz");
    functionsFlat = new TreeMap<>();
    for (String line : Files.readAllLines(dir.resolve("functions.txt"))) {
      Matcher m = FUNCTIONS_ROW.matcher(line);
      if (m.matches()) {
        functionsFlat.put(m.group(2), m.group(1));
      }
    }
    assertFalse(functionsFlat.isEmpty());
  }

  @Test
  void topFlatPercentEqualsFunctionsTxt() throws Exception {
    Map<String, String> top = topRows(pprof.run("-top", "-sample_index=oncpu_real", profile.toString()));
    assertEquals(functionsFlat.keySet(), top.keySet());
    for (var e : top.entrySet()) {
      double pprofPct = Double.parseDouble(e.getValue());
      double ours = Double.parseDouble(functionsFlat.get(e.getKey()));
      if (pprofPct >= 1.0 && pprofPct < 99.95) {
        // pprof prints %.2f from 1% up, exactly as functions.txt does.
        assertEquals(String.format(Locale.ROOT, "%.2f", ours), e.getValue(), e.getKey());
      } else {
        // "100%" and the %.2g form below 1%.
        assertEquals(pprofPct, ours, 0.01, e.getKey());
      }
    }
  }

  @Test
  void tagfocusLoadOneShowsOnlyLoadOneFunctions() throws Exception {
    Map<String, String> top = topRows(pprof.run("-top", "-tagfocus=load=1", profile.toString()));
    assertEquals(functionsAtLoads(1, 1), top.keySet());
    assertTrue(top.containsKey("spin_lock"));
    assertFalse(top.containsKey("hash_rows"));
  }

  @Test
  void tagfocusLoadRangeShowsOnlyThoseLoads() throws Exception {
    Map<String, String> top = topRows(pprof.run("-top", "-tagfocus=load=2:8", profile.toString()));
    assertEquals(functionsAtLoads(2, 8), top.keySet());
    assertFalse(top.containsKey("spin_lock"));
  }

  @Test
  void tagsListsLoadProcessPidAndRun() throws Exception {
    String out = pprof.run("-tags", profile.toString());
    for (String key : List.of("load", "process", "pid", "run")) {
      assertThat(out, containsString(" " + key + ": Total"));
    }
    assertThat(out, containsString(": db"));
    assertThat(out, containsString(": 200"));
  }

  private static TreeSet<String> functionsAtLoads(int min, int max) {
    TreeSet<String> names = new TreeSet<>();
    for (StackWeight s : analysis.stacks()) {
      if (s.load() >= min && s.load() <= max) {
        for (Frame f : s.stack()) {
          names.add(f.symbol());
        }
      }
    }
    return names;
  }

  /** Function name to flat% of the rows of a -top report. */
  private static Map<String, String> topRows(String report) {
    Map<String, String> rows = new TreeMap<>();
    GoPprof.topRows(report).forEach((name, row) -> rows.put(name, row[1]));
    return rows;
  }
}
