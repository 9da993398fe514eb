package dev.loadprof.report;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * critical.pb.gz as go tool pprof reads it: the classic fixture's fork-join path (45 ms: 25 ms of
 * main's serial_setup, 20 ms of a worker's parallel_work) with the labels of profile.pb.gz and
 * kind.
 */
class CriticalPprofTest {
  @Test
  void pprofReadsThePath(@TempDir Path dir) throws Exception {
    GoPprof pprof = GoPprof.inDir(dir);
    Path file = dir.resolve(CriticalPprofReport.FILE_NAME);
    try (var out = Files.newOutputStream(file)) {
      new CriticalPprofReport().write(Fixtures.classic(), out);
    }
    String top = pprof.run("-top", "-unit=ms", file.toString());
    assertThat(top, containsString("45ms total"));
    Map<String, String[]> rows = GoPprof.topRows(top);
    assertEquals("25ms", rows.get("serial_setup")[0], top);
    assertEquals("20ms", rows.get("parallel_work")[0], top);
    String tags = pprof.run("-tags", file.toString());
    for (String key : new String[] {"kind", "pid", "tid", "process", "run"}) {
      assertThat(tags, containsString(" " + key + ": Total"));
    }
    assertThat(tags, containsString("running"));
  }
}
