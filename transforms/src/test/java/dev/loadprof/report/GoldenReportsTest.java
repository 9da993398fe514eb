package dev.loadprof.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
    int checked = 0;
    for (Report r : Reports.ALL) {
      if (r.hasGolden() && r.appliesTo(a)) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        r.write(a, out);
        Golden.check(name + "/" + r.fileName(), out.toString(StandardCharsets.UTF_8));
        checked++;
      }
    }
    // profile.pb.gz, offcpu.pb.gz and critical.pb.gz are binary (go tool pprof reads them in
    // the pipelines' tests); report.html is checked in Chromium (AnalyzeReportBrowserTest).
    assertEquals(Reports.ALL.size() - 4 - (a.hasManyRunsReports() ? 0 : 2), checked);
  }
}
