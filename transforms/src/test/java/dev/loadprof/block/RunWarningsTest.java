package dev.loadprof.block;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which sampling events count user time only (and so leave kernel time out of histograms). */
class RunWarningsTest {
  @Test
  void theUserOnlyModifierIsRecognizedInPerfsForms() {
    for (String event : new String[] {"cpu-clock:u", "cycles:upp", "cpu-clock/freq=999/u"}) {
      assertTrue(RunWarnings.userOnly(event), event);
    }
    for (String event : new String[] {"cpu-clock", "cpu-clock:k", "cycles:ku", "", "task-clock"}) {
      assertFalse(RunWarnings.userOnly(event), event);
    }
  }
}
