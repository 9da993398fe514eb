package dev.loadprof.perfdata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** perf script's -F gets the cpu field only when every event's samples carry a CPU. */
class PerfDataHeaderTest {
  private static String event(String name, int type, String sampleType) {
    return "# event : name = " + name + ", , id = { 1 }, type = " + type
        + ", size = 128, sample_type = " + sampleType + ", read_format = ID\n";
  }

  @Test
  void aPerProcessRecordingWithTracepointsHasNoCpuField() {
    PerfDataHeader h = PerfDataHeader.parse(
        event("cpu-clock", 1, "IP|TID|TIME|CALLCHAIN|PERIOD|IDENTIFIER")
        + event("sched:sched_switch", 2, "IP|TID|TIME|CALLCHAIN|CPU|PERIOD|RAW|IDENTIFIER"));
    assertFalse(h.samplesHaveCpu());
    assertTrue(h.hasTracepoints());
    assertEquals("comm,pid,tid,time,period,event,trace,ip,sym,dso", PerfScriptDecoder.fields(h));
  }

  @Test
  void aSystemWideRecordingHasItWhateverItsDummyEventSays() {
    PerfDataHeader h = PerfDataHeader.parse(
        event("cpu-clock", 1, "IP|TID|TIME|CALLCHAIN|CPU|PERIOD|IDENTIFIER")
        + event("sched:sched_switch", 2, "IP|TID|TIME|CALLCHAIN|CPU|PERIOD|RAW|IDENTIFIER")
        + event("dummy:HG", 1, "IP|TID|TIME|IDENTIFIER"));
    assertTrue(h.samplesHaveCpu());
    assertEquals("comm,pid,tid,cpu,time,period,event,trace,ip,sym,dso",
        PerfScriptDecoder.fields(h));
  }

  @Test
  void noEventsNoCpu() {
    assertFalse(PerfDataHeader.parse("# nrcpus avail : 2\n").samplesHaveCpu());
  }
}
