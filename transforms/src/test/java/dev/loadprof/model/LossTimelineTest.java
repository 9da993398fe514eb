package dev.loadprof.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Where a run lost records, and the records counted around them. */
class LossTimelineTest {
  static final long MS = 1_000_000L;

  @Test
  void recordsWithinASpanAreCountedWithTheCutBucketsProrated() {
    LossTimeline t = new LossTimeline();
    long start = 5_000 * MS;
    for (long i = 0; i < 2_000; i++) { // 1 record per 0.5 ms for 1 s
      t.record(start + i * MS / 2);
    }
    assertEquals(2_000, t.recordsWithin(0, Long.MAX_VALUE / 2), 1e-9);
    // the middle half: 1000 records, within the error of two cut buckets (~1 ms each)
    assertEquals(1_000, t.recordsWithin(start + 250 * MS, start + 750 * MS - 1), 4);
    assertEquals(0, t.recordsWithin(start - 10 * MS, start - MS), 1e-9);
  }

  /** A long run doubles the buckets: they stay at most MAX_BUCKETS, the counts whole. */
  @Test
  void aLongRunFoldsItsBucketsAndKeepsEveryRecord() {
    LossTimeline t = new LossTimeline();
    long start = 77 * MS;
    long n = 0;
    for (long at = start; at < start + 3_600_000 * MS; at += 50 * MS) { // an hour, 20 Hz
      t.record(at);
      n++;
    }
    t.record(start - 3 * MS); // one out of order, before the first
    n++;
    assertTrue(t.counts().length <= LossTimeline.MAX_BUCKETS, "" + t.counts().length);
    assertTrue(t.bucketNs() > LossTimeline.FIRST_BUCKET_NS);
    assertEquals(n, t.recordsWithin(0, Long.MAX_VALUE / 2), 1e-6);
    long half = t.bucketNs();
    assertEquals(36_000, t.recordsWithin(start, start + 1_800_000 * MS - 1), 2.0 * half / (50 * MS) + 2);
  }

  @Test
  void randomRecordsAreAllCountedWhateverTheirOrder() {
    Random random = new Random(7);
    LossTimeline t = new LossTimeline();
    for (int i = 0; i < 20_000; i++) {
      t.record(1_000 * MS + (long) (random.nextDouble() * 40_000 * MS));
    }
    assertEquals(20_000, t.recordsWithin(0, Long.MAX_VALUE / 2), 1e-6);
    LossTimeline back = LossTimeline.of(t.bucketNs(), t.firstBucket(), t.counts(),
        new long[0], new long[0], new long[0], 0);
    assertEquals(t.recordsWithin(3_000 * MS, 9_000 * MS), back.recordsWithin(3_000 * MS,
        9_000 * MS), 1e-9);
  }

  @Test
  void lossesKeepTheirInstants() {
    LossTimeline t = new LossTimeline();
    assertNull(t.lossRange());
    t.lost(10 * MS, 5);
    t.lost(20 * MS, 7);
    assertEquals(12, t.totalLost());
    assertEquals(5, t.lostWithin(0, 15 * MS));
    assertEquals(12, t.lostWithin(10 * MS, 20 * MS));
    assertArrayEquals(new long[] {10 * MS, 20 * MS}, t.lossRange());
    assertFalse(t.hasRecords());
  }

  /**
   * perf record's undated totals at the end (LOST_SAMPLES) count the dated drops again: only
   * what they count beyond them is lost at an unknown instant; without dated losses, all.
   */
  @Test
  void undatedTotalsCountOnlyBeyondTheDatedLosses() {
    LossTimeline t = new LossTimeline();
    t.lost(10 * MS, 5);
    t.lost(20 * MS, 7);
    t.lost(0, 10);
    t.lost(0, 5);
    assertEquals(15, t.totalLost());
    assertEquals(3, t.unplaced());
    assertEquals(15, t.undated());
    LossTimeline old = new LossTimeline();
    old.lost(-1, 4);
    assertEquals(4, old.totalLost());
    assertEquals(4, old.unplaced());
    assertNull(old.lossRange());
  }

  /** Past MAX_LOSSES, neighbours merge into ranges: no loss is dropped or moved out of it. */
  @Test
  void manyLossesMergeIntoRangesWithoutLosingAny() {
    LossTimeline t = new LossTimeline();
    int n = 3 * LossTimeline.MAX_LOSSES + 5;
    for (int i = 0; i < n; i++) {
      t.lost((i + 1) * MS, 2);
    }
    assertEquals(2L * n, t.totalLost());
    assertTrue(t.losses()[0].length <= LossTimeline.MAX_LOSSES);
    assertEquals(2L * n, t.lostWithin(0, (n + 1) * MS));
    // 100 losses of 2: never fewer (a range that touches counts whole), and not far more
    long early = t.lostWithin(0, 100 * MS);
    assertTrue(early >= 200 && early <= 400, "" + early);
    assertEquals(0, t.lostWithin((n + 2) * MS, (n + 9) * MS));
  }

  @Test
  void aCopyAndTheArchivesFormAreTheSame() {
    LossTimeline t = new LossTimeline();
    for (long i = 0; i < 500; i++) {
      t.record(3 * MS + i * 7 * MS);
    }
    t.lost(40 * MS, 9);
    t.lost(-1, 2);
    LossTimeline copy = t.copy();
    t.record(5 * MS); // the copy is its own
    long[][] losses = copy.losses();
    LossTimeline back = LossTimeline.of(copy.bucketNs(), copy.firstBucket(), copy.counts(),
        losses[0], losses[1], losses[2], copy.undated());
    assertEquals(500, back.recordsWithin(0, Long.MAX_VALUE / 2), 1e-9);
    assertEquals(copy.recordsWithin(100 * MS, 900 * MS), back.recordsWithin(100 * MS, 900 * MS),
        1e-9);
    assertEquals(9, back.totalLost());
    assertEquals(0, back.unplaced());
    assertEquals(2, back.undated());
    assertEquals(9, back.lostWithin(40 * MS, 40 * MS));
    back.record(4_000 * MS); // an archived timeline grows on as a read one does
    assertEquals(501, back.recordsWithin(0, Long.MAX_VALUE / 2), 1e-9);
  }
}
