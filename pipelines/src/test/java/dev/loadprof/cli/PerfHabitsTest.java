package dev.loadprof.cli;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.cli.CliOptionsTest.Run;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What a perf report or pprof user types: -i FILE, --top N, --percent-limit P, --sort COL,
 * --tree, and a mistyped option that gets "did you mean", all usage errors in one style.
 */
class PerfHabitsTest {
  private static final Pattern ROW = Pattern.compile(
      "^\\s+([\\d.]+)% +([\\d.]+)% +(\\S+)  (.*)$");

  @TempDir Path tmp;

  /** The console table's rows: real%, cpu%, avgload, function. */
  record Row(double real, double cpu, String name) {}

  static List<Row> table(String out) {
    List<Row> rows = new ArrayList<>();
    boolean in = false;
    for (String line : out.lines().toList()) {
      if (line.startsWith("Top functions by real time")) {
        in = true;
        continue;
      }
      Matcher m = ROW.matcher(line);
      if (in && m.matches()) {
        rows.add(new Row(Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2)),
            m.group(4)));
      } else if (in && !line.strip().startsWith("real%")) {
        break;
      }
    }
    return rows;
  }

  private Run analyze(String name, String... options) {
    List<String> args = new ArrayList<>(List.of("analyze", "-o", tmp.resolve(name).toString()));
    args.addAll(List.of(options));
    Run run = CliOptionsTest.cli(args.toArray(new String[0]));
    assertEquals(0, run.exit(), run.err());
    return run;
  }

  @Test
  void dashIIsAnInputAsInPerfReport() {
    Run named = analyze("i", "-i", CliOptionsTest.phases());
    Run positional = analyze("p", CliOptionsTest.phases());
    assertEquals(table(positional.out()), table(named.out()));
    assertEquals(ConsoleView.DEFAULT_TOP, table(positional.out()).size());
  }

  @Test
  void topPercentLimitAndSortChooseTheRows() {
    String t = CliOptionsTest.phases();
    List<Row> all = table(analyze("all", "--top", "1000", t).out());
    assertThat(all.size(), greaterThanOrEqualTo(ConsoleView.DEFAULT_TOP + 1));
    assertEquals(all.subList(0, 3), table(analyze("top", "--top", "3", t).out()));

    List<Row> limited = table(analyze("limit", "--top", "1000", "--percent-limit", "5", t).out());
    assertEquals(all.stream().filter(r -> r.real() >= 5).toList(), limited);
    assertTrue(limited.size() < all.size(), "some rows are under 5 %: " + all);

    List<Row> byName = table(analyze("name", "--top", "1000", "--sort", "function", t).out());
    List<Row> expected = new ArrayList<>(all);
    expected.sort(Comparator.comparing(Row::name));
    assertEquals(expected, byName);

    List<Row> byCpu = table(analyze("cpu", "--top", "5", "--sort", "CPU", t).out());
    for (int i = 1; i < byCpu.size(); i++) {
      assertThat(byCpu.toString(), byCpu.get(i - 1).cpu(), greaterThanOrEqualTo(byCpu.get(i).cpu()));
    }
  }

  @Test
  void treeShowsCallersAndCalleesOfTheShownFunctions() {
    Run run = analyze("tree", "--top", "2", "--tree", CliOptionsTest.phases());
    List<Row> rows = table(run.out());
    String out = run.out();
    int graph = out.indexOf("Call graph of these functions");
    assertTrue(graph > 0, out);
    String tree = out.substring(graph);
    for (Row r : rows) {
      assertThat(tree, containsString("\n  " + r.name() + "\n    <- "));
    }
    assertThat(tree, containsString("    -> "));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "--outt x.txt|unknown option --outt (did you mean --out?); run 'loadprof analyze --help'",
      "-x x.txt|unknown option -x; run 'loadprof analyze --help' for the options",
      "--frobnicate 1 x.txt|unknown option --frobnicate; run 'loadprof analyze --help'",
      "--percent-limt 5 x.txt|unknown option --percent-limt (did you mean --percent-limit?);",
      "--sort size x.txt|real, cpu, avgload or function; got 'size'; run 'loadprof analyze"})
  void usageErrorsHaveOneStyleAndSuggestTheClosestOption(String args, String expected) {
    List<String> all = new ArrayList<>(List.of("analyze"));
    all.addAll(List.of(args.split(" ")));
    Run run = CliOptionsTest.cli(all.toArray(new String[0]));
    assertEquals(2, run.exit(), run.err());
    assertEquals(1, run.err().strip().lines().count(), run.err());
    assertThat(run.err(), startsWith("loadprof: "));
    assertThat(run.err(), containsString(expected));
  }
}
