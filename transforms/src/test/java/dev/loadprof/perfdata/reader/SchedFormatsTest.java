package dev.loadprof.perfdata.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** prev_state as perf script prints it, from sched_switch's print format (kernel 6.x's). */
class SchedFormatsTest {
  private static final String MASK = "(0x00000000 | 0x00000001 | 0x00000002 | 0x00000004"
      + " | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040)";
  private static final String KERNEL_6 = "\"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s"
      + " ==> next_comm=%s next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid,"
      + " REC->prev_prio, (REC->prev_state & ((((" + MASK.substring(1, MASK.length() - 1)
      + ") + 1) << 1) - 1)) ? __print_flags(REC->prev_state & ((((" + MASK.substring(1,
      MASK.length() - 1) + ") + 1) << 1) - 1), \"|\", { 0x00000001, \"S\" }, { 0x00000002, \"D\" },"
      + " { 0x00000004, \"T\" }, { 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { 0x00000020, \"Z\" },"
      + " { 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", REC->prev_state & ((" + MASK
      + " + 1) << 1) ? \"+\" : \"\", REC->next_comm, REC->next_pid, REC->next_prio";

  @Test
  void printsTheLettersOfTheFormat() throws Exception {
    SchedFormats f = SchedFormats.fromPrintFormat(KERNEL_6);
    assertEquals("R", f.prevState(0));
    assertEquals("R+", f.prevState(0x100));
    assertEquals("S", f.prevState(1));
    assertEquals("D", f.prevState(2));
    assertEquals("X", f.prevState(0x10));
    assertEquals("I", f.prevState(0x80));
    assertEquals("S|D", f.prevState(3));
  }

  @Test
  void refusesAFormatItDoesNotKnow() {
    assertThrows(UnsupportedPerfDataException.class,
        () -> SchedFormats.fromPrintFormat("\"prev_state=%ld\", REC->prev_state"));
  }
}
