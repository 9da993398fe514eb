package dev.loadprof.report;

import dev.loadprof.profile.LoadRange;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every text output of a few small analyses, compared with goldens in testdata/CASE/. */
class GoldenReportsTest {
  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("classic", (Supplier<Analysis>) Fixtures::classic),
        Arguments.of("single", (Supplier<Analysis>) Fixtures::singleProcess),
        Arguments.of("mixed", (Supplier<Analysis>) () -> Fixtures.mixed(LoadRange.ALL)),
        Arguments.of(
            "mixed_load2-8", (Supplier<Analysis>) () -> Fixtures.mixed(LoadRange.parse("2:8"))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void textOutputsMatchGoldens(String name, Supplier<Analysis> input) throws IOException {
    Analysis a = input.get();
    Golden.check(name + "/histogram.txt", new HistogramReport().render(a));
    Golden.check(name + "/functions.txt", new FunctionsReport().render(a));
    Golden.check(name + "/flame.folded", new FoldedReport().render(a));
    ByteArrayOutputStream json = new ByteArrayOutputStream();
    new SummaryJson().write(a, json);
    Golden.check(name + "/summary.json", json.toString(StandardCharsets.UTF_8));
    Golden.check(name + "/console.txt", ConsoleSummary.render(a));
  }
}
