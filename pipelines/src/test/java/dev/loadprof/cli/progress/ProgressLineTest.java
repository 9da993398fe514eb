package dev.loadprof.cli.progress;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.lessThan;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The progress line at every width: fields dropped, never wrapped. */
class ProgressLineTest {
  private static final long SECOND = 1_000_000_000L;
  /** 42 % of a 1 GB .gz read, 1.3 GB of text, in the 4 s of the stage (the job's 6 s). */
  private static final ProgressView START = new ProgressView("reading", ProgressLine.BYTES, 1,
      0, 1L << 30, 0);
  private static final ProgressView NOW = new ProgressView("reading", ProgressLine.BYTES, 1,
      451_000_000L, 1L << 30, 1400L << 20);

  @ParameterizedTest(name = "{0} columns")
  @CsvSource(delimiter = '|', value = {
      "200|reading  42% [===========>                ] 1.4 GB read, 350.0 MB/s, elapsed 0:06,"
          + " left 0:06",
      "80|reading  42% [====>        ] 1.4 GB read, 350.0 MB/s, elapsed 0:06, left 0:06",
      "70|reading  42% 1.4 GB read, 350.0 MB/s, elapsed 0:06, left 0:06",
      "60|reading  42% 1.4 GB read, 350.0 MB/s, left 0:06",
      "40|reading  42% 1.4 GB read, left 0:06",
      "25|reading  42% left 0:06",
      "13|reading  42%",
      "5|read"})
  void fieldsAreDroppedToFitTheWidth(int width, String expected) {
    String line = ProgressLine.render(NOW, START, 4 * SECOND, 6 * SECOND, width);
    assertEquals(expected, line);
    assertThat(line.length(), lessThan(width));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "0|0 B", "999|999 B", "600000|585.9 KB", "629146|614.4 KB", "1048576|1.0 MB",
      "650000|634.8 KB", "681574|665.6 KB", "1395864371|1.3 GB"})
  void bytesHaveALeadingDigit(long bytes, String expected) {
    assertEquals(expected, ProgressLine.bytes(bytes));
  }

  @ParameterizedTest
  @CsvSource({"0,0:00", "59,0:59", "61,1:01", "3599,59:59", "3600,1:00:00", "3725,1:02:05"})
  void clockIsMinutesAndSecondsThenHours(long seconds, String expected) {
    assertEquals(expected, ProgressLine.clock(seconds));
  }
}
