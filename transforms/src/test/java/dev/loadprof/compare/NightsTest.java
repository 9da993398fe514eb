package dev.loadprof.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.LocalDate;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A run id's night and benchmark: loadprof record's names (PROGRAM-YYYYMMDD-HHMMSS, with -N
 * when a name was taken) as they are, the older YYYY-MM-DD and YYYYMMDD forms as before, and ids
 * qualified by directories (two traces of one file name in a job).
 */
class NightsTest {
  @ParameterizedTest(name = "{0}: night {1}, benchmark {2}")
  @CsvSource(nullValues = "-", value = {
      // loadprof record's names
      "prog-20261127-224530,        2026-11-27, prog",
      "prog-20261127-224530-2,      2026-11-27, prog",
      "my_bench2-20261127-000001,   2026-11-27, my_bench2",
      "20261127-224530-prog,        2026-11-27, prog",
      "prog-20261127T224530,        2026-11-27, prog",
      // an impossible time is no record stamp; the date alone still is one
      "prog-20261127-250000,        2026-11-27, prog",
      // the older forms
      "mixed-2026-11-01-a,          2026-11-01, mixed",
      "nightly_20261101,            2026-11-01, nightly",
      "20261101-db-load,            2026-11-01, db-load",
      "build-12345678,              -,          build-12345678",
      "prog,                        -,          prog",
      // qualified by directories: the benchmark is the file's own name
      "a/prog-20261127-224530,      2026-11-27, prog",
      "a/prog,                      -,          prog",
      "2026-11-01/prog,             2026-11-01, prog",
      "base/x/mixed-2026-11-02,     2026-11-02, mixed",
  })
  void nightAndBenchmark(String runId, String night, String benchmark) {
    assertEquals(night == null ? null : LocalDate.parse(night), Nights.fromRunId(runId), runId);
    assertEquals(benchmark, Nights.benchmarkOf(runId), runId);
  }
}
