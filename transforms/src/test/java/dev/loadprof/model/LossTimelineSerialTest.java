package dev.loadprof.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.testtools.JavaSerialization;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * A loss timeline serialized (a run's stored figures hold it) reads back the same, and holds
 * only the buckets that counted records: not 4096 of 8 bytes each.
 */
class LossTimelineSerialTest {
  static final long MS = 1_000_000L;

  static byte[] serialized(Object o) throws IOException {
    return JavaSerialization.bytes(o);
  }

  static Object read(byte[] bytes) throws IOException, ClassNotFoundException {
    return JavaSerialization.read(bytes);
  }

  /**
   * How many buckets a timeline holds in memory, read from its private field: a method for it
   * would change the class's serialVersionUID, which is part of the stored figures' version,
   * and make every user's next nightly compute every run again.
   */
  static int heldBuckets(LossTimeline t) throws ReflectiveOperationException {
    java.lang.reflect.Field counts = LossTimeline.class.getDeclaredField("counts");
    counts.setAccessible(true);
    long[] held = (long[]) counts.get(t);
    return held == null ? 0 : held.length;
  }

  private static void assertSame(LossTimeline expected, LossTimeline actual) {
    assertEquals(expected.hasRecords(), actual.hasRecords());
    assertEquals(expected.bucketNs(), actual.bucketNs());
    assertEquals(expected.firstBucket(), actual.firstBucket());
    assertArrayEquals(expected.counts(), actual.counts());
    assertEquals(expected.undated(), actual.undated());
    assertEquals(expected.totalLost(), actual.totalLost());
    assertEquals(expected.losses().length, actual.losses().length);
    for (int i = 0; i < expected.losses().length; i++) {
      assertArrayEquals(expected.losses()[i], actual.losses()[i]);
    }
    assertEquals(expected.recordsWithin(0, Long.MAX_VALUE / 2),
        actual.recordsWithin(0, Long.MAX_VALUE / 2));
  }

  @Test
  void aShortRunReadsBackTheSameFromAFewHundredBytes() throws Exception {
    LossTimeline t = new LossTimeline();
    long start = 5_000 * MS;
    for (long i = 0; i < 200; i++) { // 100 ms of records, ~100 buckets of 4096
      t.record(start + i * MS / 2);
    }
    t.lost(start + 20 * MS, 7);
    byte[] bytes = serialized(t);
    assertTrue(bytes.length < 1_500, bytes.length + " bytes"); // all buckets: > 32 KB
    LossTimeline back = (LossTimeline) read(bytes);
    assertSame(t, back);
    // It goes on counting as the original would.
    t.record(start + 300 * MS);
    back.record(start + 300 * MS);
    assertSame(t, back);
  }

  /**
   * Read back, or made from an archive's form, a timeline holds its buckets up to the last one
   * counted, not all 4096 (32 KB a run: a nightly keeps thousands); counting on, before or after
   * them, it grows and counts as the original does.
   */
  @Test
  void aTimelineReadBackHoldsOnlyItsCountedBuckets() throws Exception {
    LossTimeline t = new LossTimeline();
    long start = 5_000 * MS;
    for (long i = 0; i < 200; i++) {
      t.record(start + i * MS / 2);
    }
    assertEquals(LossTimeline.MAX_BUCKETS, heldBuckets(t));
    LossTimeline back = (LossTimeline) read(serialized(t));
    assertTrue(heldBuckets(back) <= 100, heldBuckets(back) + " buckets held");
    LossTimeline fromArchive = LossTimeline.of(t.bucketNs(), t.firstBucket(), t.counts(),
        new long[0], new long[0], new long[0], 0);
    assertTrue(heldBuckets(fromArchive) <= 100, heldBuckets(fromArchive) + " buckets held");
    assertSame(t, fromArchive);
    LossTimeline copy = back.copy();
    assertEquals(heldBuckets(back), heldBuckets(copy));
    for (LossTimeline other : new LossTimeline[] {back, fromArchive, copy}) {
      LossTimeline original = (LossTimeline) read(serialized(t));
      other.record(start + 50 * MS); // within the held buckets
      other.record(start + 2_000 * MS); // beyond them, within the window
      other.record(start - 300 * MS); // before the window's first bucket
      original.record(start + 50 * MS);
      original.record(start + 2_000 * MS);
      original.record(start - 300 * MS);
      assertSame(original, other);
    }
    LossTimeline full = new LossTimeline();
    for (long i = 0; i < 200; i++) {
      full.record(start + i * MS / 2);
    }
    full.record(start + 50 * MS);
    full.record(start + 2_000 * MS);
    full.record(start - 300 * MS);
    assertSame(full, back);
  }

  /** Read back with a span of more than half the buckets, it counts on without folding. */
  @Test
  void aWideTimelineReadBackCountsOnWithTheSameBuckets() throws Exception {
    LossTimeline t = new LossTimeline();
    long start = 5_000 * MS;
    for (long ms = 0; ms < 3_000; ms++) { // 3,000 of the 4,096 1 ms buckets
      t.record(start + ms * MS);
    }
    LossTimeline back = (LossTimeline) read(serialized(t));
    t.record(start + 3_500 * MS);
    back.record(start + 3_500 * MS);
    assertEquals(t.bucketNs(), back.bucketNs());
    assertSame(t, back);
  }

  /**
   * A timeline read back keeps its counts as the varints it was stored in (a nightly holds
   * thousands and asks for the counts of none without losses) until one is asked for; written
   * again, it gives the bytes it gives once unpacked, which read back the same.
   */
  @Test
  void aTimelineReadBackKeepsItsCountsPackedUntilAskedAndWritesTheSameBytes() throws Exception {
    LossTimeline t = new LossTimeline();
    long start = 5_000 * MS;
    for (long ms = 0; ms < 3_000; ms++) {
      t.record(start + ms * MS);
      t.record(start + ms * MS + MS / 2);
    }
    t.lost(start + 1_000 * MS, 7);
    byte[] bytes = serialized(t);
    LossTimeline back = (LossTimeline) read(bytes);
    assertEquals(0, heldBuckets(back), "no long[] held while packed");
    java.lang.reflect.Field packed = LossTimeline.class.getDeclaredField("packed");
    packed.setAccessible(true);
    // 2^20 ns buckets: 2,861 of them over 3 s, each of 2 or 3 records, a byte each
    assertEquals(t.counts().length, ((byte[]) packed.get(back)).length, "a byte a bucket");
    assertTrue(back.hasRecords());
    assertEquals(7, back.totalLost());
    byte[] again = serialized(back);
    LossTimeline copy = back.copy();
    assertSame(t, back); // asks for the counts: unpacked
    assertTrue(heldBuckets(back) >= t.counts().length);
    assertSame(t, copy);
    assertArrayEquals(again, serialized(back), "the same bytes packed and unpacked");
    assertSame(t, (LossTimeline) read(again));
    LossTimeline fromArchive = LossTimeline.of(t.bucketNs(), t.firstBucket(), t.counts(),
        new long[0], new long[0], new long[0], 0);
    assertEquals(0, heldBuckets(fromArchive));
    assertEquals(t.recordsWithin(start, start + 10 * MS),
        fromArchive.recordsWithin(start, start + 10 * MS));
  }

  /**
   * A timeline read back is asked on several threads at once (a nightly's history): each sees
   * its records whichever thread unpacks them, never neither form.
   */
  @Test
  void aTimelineReadBackAskedOnManyThreadsAtOnceAnswersTheSameOnEach() throws Exception {
    LossTimeline t = new LossTimeline();
    long start = 5_000 * MS;
    for (long ms = 0; ms < 2_000; ms++) {
      t.record(start + ms * MS);
    }
    t.lost(start + 700 * MS, 4);
    byte[] bytes = serialized(t);
    double expected = t.recordsWithin(start, start + 1_000 * MS);
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors
        .newFixedThreadPool(4);
    try {
      for (int round = 0; round < 200; round++) {
        LossTimeline back = (LossTimeline) read(bytes);
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        java.util.List<java.util.concurrent.Future<Double>> answers = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) {
          answers.add(pool.submit(() -> {
            go.await();
            return back.hasRecords() ? back.recordsWithin(start, start + 1_000 * MS) : -1;
          }));
        }
        go.countDown();
        for (java.util.concurrent.Future<Double> a : answers) {
          assertEquals(expected, a.get(), "round " + round);
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void emptyFoldedAndTimelinesOfNoRecordsReadBackTheSame() throws Exception {
    LossTimeline none = new LossTimeline();
    LossTimeline back = (LossTimeline) read(serialized(none));
    assertFalse(back.hasRecords());
    assertSame(none, back);

    LossTimeline hour = new LossTimeline(); // folded: buckets doubled, every bucket counted
    for (long at = 77 * MS; at < 77 * MS + 3_600_000 * MS; at += 50 * MS) {
      hour.record(at);
    }
    hour.lost(1_000 * MS, 3);
    hour.lost(-1, 2);
    assertSame(hour, (LossTimeline) read(serialized(hour)));
  }
}
