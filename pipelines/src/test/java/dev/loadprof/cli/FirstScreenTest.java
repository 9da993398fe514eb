package dev.loadprof.cli;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loadprof.cli.CliOptionsTest.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a new user reads first: the README's first screen (record, the report, compare), its
 * two commands still findable, and help texts that say what is true.
 */
class FirstScreenTest {
  private static final Path README = Paths.get("..", "README.md").toAbsolutePath().normalize();

  @Test
  void theReadmesFirstScreenIsRecordReportAndCompare() throws Exception {
    List<String> lines = Files.readAllLines(README);
    String first = String.join("\n", lines.subList(0, 40));
    for (String step : List.of("loadprof record", "report.html", "compare")) {
      assertThat(step, first, containsString(step));
    }
    String all = String.join("\n", lines);
    assertThat(all, containsString("## The two commands"));
    assertThat(all, containsString("./loadprof analyze examples/phases.txt.gz"));
    assertThat(all, containsString("\nmvn -B verify\n")); // .ci/run runs the README's command
  }

  @Test
  void helpTextsSayWhatIsTrue() {
    Run top = CliOptionsTest.cli("--help");
    List<String> lines = top.out().strip().lines().toList();
    assertThat(lines.get(lines.size() - 1), containsString("loadprof record -- CMD"));
    assertThat(top.out(), not(containsString("perf script -i"))); // no manual recipe

    Run analyze = CliOptionsTest.cli("analyze", "--help");
    assertThat(analyze.out(), containsString("Analyze perf.data recordings"));
    assertThat(analyze.out(), containsString("-i, --input=TRACE"));

    Run record = CliOptionsTest.cli("record", "--help");
    assertThat(record.out(), containsString("Where the recording and the outputs go (default:"
        + " ./loadprof-out)"));
    assertThat(record.out(), not(containsString("archive: the archive")));
    assertThat(record.out(), containsString("--mmap-pages"));
    for (String command : List.of("compare", "nightly")) {
      Run help = CliOptionsTest.cli(command, "--help");
      assertEquals(0, help.exit());
      assertThat(help.out(), containsString("(default: ./loadprof-" + command));
    }
  }

  /** --verbose shows the frameworks' lines from INFO up: its help and the README say so. */
  @Test
  void verboseHelpAndReadmeAgree() throws Exception {
    assertThat(CliOptionsTest.cli("analyze", "--help").out(),
        containsString("Also show Beam's and Flink's own log lines from INFO up"));
    String readme = Files.readString(README);
    assertThat(readme, containsString("--verbose          also show Beam's and Flink's own log"
        + " lines from INFO up"));
    assertThat(readme, not(containsString("stay below WARN")));
  }
}
