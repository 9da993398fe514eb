package dev.loadprof.cli;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * analyze --help says, for each option that narrows the profile, what it narrows in the
 * whole-wall view too: the off-CPU profile, its folded stacks and thread_states.
 */
class NarrowingHelpTest {
  /** The option's help entry, from its names to the next option, on one line. */
  private static String entry(String help, String name) {
    Matcher m = Pattern.compile("(?ms)^\\s+(?:-\\w, )?" + Pattern.quote(name)
        + "=\\S+(.*?)(?=^\\s+-)").matcher(help);
    if (!m.find()) {
      throw new AssertionError("no entry for " + name + " in\n" + help);
    }
    return m.group(1).replaceAll("\\s+", " ");
  }

  @ParameterizedTest
  @ValueSource(strings = {"--time", "--tid", "--cpu", "--load"})
  void eachNarrowingOptionSaysWhatItNarrowsInTheWallView(String option) {
    CliOptionsTest.Run analyze = CliOptionsTest.cli("analyze", "--help");
    assertEquals(0, analyze.exit(), analyze.err());
    String text = entry(analyze.out(), option);
    for (String output : new String[] {"samples", "offcpu.pb.gz", "offcpu.folded",
        "thread_states", "wall line"}) {
      assertThat(option, text, containsString(output));
    }
    assertThat(option, text, containsString(
        option.equals("--tid") || option.equals("--cpu") ? "totals stay" : "totals included"));
  }
}
