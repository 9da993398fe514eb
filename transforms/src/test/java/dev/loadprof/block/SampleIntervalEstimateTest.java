package dev.loadprof.block;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which events' periods are nanoseconds: a wrong answer weights every sample wrongly. */
class SampleIntervalEstimateTest {
  @ParameterizedTest
  @CsvSource({
      "cpu-clock, true",
      "cpu-clock:u, true",
      "cpu-clock:ppp, true",
      "cpu-clock/freq=500/, true",
      "cpu-clock/period=2000000/u, true",
      "task-clock, true",
      "task-clock/freq=250/:k, true",
      "cycles, false",
      "cycles/freq=500/, false",
      "cpu-cycles:u, false",
      "sched:sched_switch, false"})
  void periodsOfClockEventsAreNanoseconds(String event, boolean nanoseconds) {
    assertEquals(nanoseconds, SampleIntervalEstimate.countsNanoseconds(event), event);
  }
}
