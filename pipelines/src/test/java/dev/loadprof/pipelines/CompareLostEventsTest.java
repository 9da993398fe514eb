package dev.loadprof.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.matchesPattern;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * compare of the recorded fixtures (--comm '^mixed$') into which PERF_RECORD_LOST lines were
 * written, as perf script --show-lost-events prints them: a run that lost a few records before
 * mixed ran, and one that lost a few while it ran, are kept, their losses stated on the console,
 * in compare.txt and compare.json; one that lost many while mixed ran is left out, saying the
 * share and the limit. Archived, the runs give the same.
 */
class CompareLostEventsTest {
  @TempDir Path dir;

  /**
   * The fixture with "PERF_RECORD_LOST lost N" after the record at {@code at} of the way from
   * mixed's first record (0) to its last (1); a negative {@code at} puts it before mixed's first.
   */
  Path withLoss(String fixture, double at, long lost) throws IOException {
    List<String> lines = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(new GZIPInputStream(
        Files.newInputStream(Path.of(CompareCliTest.fixture(fixture)))), StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        lines.add(line);
      }
    }
    List<Integer> mixed = new ArrayList<>(); // header lines of mixed's records
    List<Integer> headers = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String l = lines.get(i);
      if (!l.startsWith("#") && !l.isEmpty() && !Character.isWhitespace(l.charAt(0))) {
        headers.add(i);
        if (l.startsWith("mixed ")) {
          mixed.add(i);
        }
      }
    }
    int after = at < 0 ? headers.get(headers.indexOf(mixed.get(0)) - 2)
        : mixed.get((int) Math.round(at * (mixed.size() - 1)));
    int next = headers.get(headers.indexOf(after) + 1); // the loss goes before the next record
    String time = lines.get(after).replaceAll("^.*\\]\\s+([0-9.]+):.*$", "$1");
    lines.add(next, String.format(Locale.ROOT, "perf  1234/1234  [000]  %s: PERF_RECORD_LOST"
        + " lost %d", time, lost));
    Path out = dir.resolve(fixture + ".txt.gz");
    try (Writer w = new OutputStreamWriter(new GZIPOutputStream(Files.newOutputStream(out)),
        StandardCharsets.UTF_8)) {
      for (String l : lines) {
        w.write(l);
        w.write('\n');
      }
    }
    return out;
  }

  E2e.Cli compare(Path out, List<String> baseline, List<String> candidate) {
    List<String> args = new ArrayList<>(List.of("compare", "--out", out.toString(), "--comm",
        "^mixed$", "--baseline"));
    args.addAll(baseline);
    args.add("--candidate");
    args.addAll(candidate);
    return E2e.cli(args.toArray(new String[0]));
  }

  @Test
  void lossesLeaveARunOutOnlyWhereMixedRanAndPastTheShare() throws IOException {
    List<String> baseline = List.of(withLoss("base-1", -1, 40).toString(),
        withLoss("base-2", 0.5, 5).toString(), CompareCliTest.fixture("base-3"));
    List<String> candidate = List.of(CompareCliTest.fixture("cpu-1"),
        withLoss("cpu-2", 0.3, 400).toString(), CompareCliTest.fixture("cpu-3"));
    E2e.Cli cli = compare(dir.resolve("out"), baseline, candidate);
    assertTrue(cli.exit() == 0 || cli.exit() == 3, cli.stdout() + cli.stderr());
    JsonNode json = CompareCliTest.json(cli, "compare.json");
    assertEquals("[\"base-1\",\"base-2\",\"base-3\"]", json.get("baseline_runs").toString());
    assertEquals("[\"cpu-1\",\"cpu-3\"]", json.get("candidate_runs").toString());
    JsonNode out = json.get("excluded_runs").get(0);
    assertEquals("cpu-2", out.get("run").asText());
    assertThat(out.get("reason").asText(), matchesPattern("perf lost 400 events, 400 of them"
        + " within the compared processes' span \\([0-9.]+ s to [0-9.]+ s\\): [0-9.]+% of the"
        + " [0-9]+ records read there, more than 1.00% \\(a fifth of the 5.0% threshold\\): the"
        + " figures of the processes that ran meanwhile may be off by more than the smallest"
        + " change reported"));
    String notes = json.get("notes").toString();
    assertThat(notes, containsString("run base-1: perf lost 40 events at "));
    assertThat(notes, containsString(", none within the compared processes' span ("));
    assertThat(notes, matchesPattern(".*run base-2: perf lost 5 events, 5 of them within the"
        + " compared processes' span \\([0-9.]+ s to [0-9.]+ s\\): 0\\.[0-9]+% of the [0-9]+"
        + " records read there, not more than 1.00% \\(a fifth of the 5.0% threshold\\):"
        + " kept.*"));
    for (String shown : List.of(cli.stdout(), cli.file("compare.txt"))) {
      assertThat(shown, containsString("note: run base-1: perf lost 40 events at "));
      assertThat(shown, containsString("note: run base-2: perf lost 5 events, 5 of them"));
      assertThat(shown, containsString("cpu-2: perf lost 400 events, 400 of them within"));
    }

    Path baseArchive = dir.resolve("base-archive");
    for (String trace : baseline.subList(0, 2)) {
      E2e.cli("archive", "--out", baseArchive.toString(), trace).assertOk();
    }
    Path candArchive = dir.resolve("cand-archive");
    E2e.cli("archive", "--out", candArchive.toString(), candidate.get(1)).assertOk();
    E2e.Cli archived = compare(dir.resolve("out-archived"), List.of(baseArchive.toString(),
        baseline.get(2)), List.of(candidate.get(0), candArchive.toString(), candidate.get(2)));
    JsonNode again = CompareCliTest.json(archived, "compare.json");
    assertEquals(json.get("excluded_runs"), again.get("excluded_runs"));
    assertEquals(json.get("notes"), again.get("notes"));
  }
}
