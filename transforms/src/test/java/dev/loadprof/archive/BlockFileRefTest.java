package dev.loadprof.archive;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.schemas.EventBlockRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Table of blocks and whether each can be a block of the run its manifest describes. */
class BlockFileRefTest {
  static final long S = 1_000_000_000L;
  /** Run 'a', 1 s windows, from 10.5 s to 13.2 s. */
  static final BlockFileRef REF = new BlockFileRef("/x/blocks/a/part-0.avro", 100, "a", S,
      10 * S + S / 2, 13 * S + S / 5, "/x/runs/a.avro", 2, false);

  record Case(String name, EventBlockRecord block, String expected) {}

  /** Only the fields the check reads; the rest stay unset (the record is never written). */
  static EventBlockRecord block(String run, int cpu, long window, long start, long end) {
    EventBlockRecord r = new EventBlockRecord();
    r.setRunId(run);
    r.setCpu(cpu);
    r.setWindow(window);
    r.setWindowStartNs(start);
    r.setWindowEndNs(end);
    return r;
  }

  @Test
  void blocksAgreeOrSayWhyNot() {
    List<Case> cases = List.of(
        new Case("first window", block("a", 0, 10, 10 * S, 11 * S), null),
        new Case("last window", block("a", 7, 13, 13 * S, 14 * S), null),
        new Case("other run", block("b", 0, 11, 11 * S, 12 * S), "holds blocks of run 'b'"),
        new Case("longer window", block("a", 0, 5, 10 * S, 12 * S), "not a window of"),
        new Case("misnumbered", block("a", 0, 12, 11 * S, 12 * S), "not a window of"),
        new Case("before the run", block("a", 0, 9, 9 * S, 10 * S), "outside the run's span"),
        new Case("after the run", block("a", 0, 14, 14 * S, 15 * S), "outside the run's span"),
        new Case("negative cpu", block("a", -3, 11, 11 * S, 12 * S), "CPU -3"));
    for (Case c : cases) {
      String why = REF.disagreement(c.block());
      if (c.expected() == null) {
        assertNull(why, c.name());
      } else {
        assertTrue(why != null && why.contains(c.expected()), c.name() + ": " + why);
      }
    }
  }

  @Test
  void aManifestsCpuCountIsComparedWithItsBlocksCpus() {
    assertNull(BlockFileRef.cpuCountMismatch(REF.cpuCountKey(), 2));
    String why = BlockFileRef.cpuCountMismatch(REF.cpuCountKey(), 3);
    assertTrue(why != null && why.contains("says the run has 2 CPUs, but its blocks are of 3"),
        why);
    org.junit.jupiter.api.Assertions.assertEquals("/x/runs/a.avro",
        BlockFileRef.manifestOf(REF.cpuCountKey()));
  }
}
