package dev.loadprof.model;

import java.io.Serializable;
import java.util.Arrays;

/**
 * Where in a run perf lost records (PERF_RECORD_LOST and LOST_SAMPLES, dated by sample_id_all
 * in perf.data and printed so by perf script --show-lost-events), and how many records the run
 * has around them: so that a comparison can tell whether losses fall where its processes ran,
 * and what share of the records there they are (compare.RecordLossRule).
 *
 * <p>The records counted are those placed in the run's blocks (samples, switches and wakeups;
 * not the task records, which perf dates 0 when it made them up at its start), in buckets of time, 2^20 ns (about 1 ms) at first, doubled
 * whenever the run would need more than {@link #MAX_BUCKETS} of them, so a bucket is at most
 * about 1/2048 of the run. The losses are kept with their instants; past {@link #MAX_LOSSES}
 * of them neighbours are merged into time ranges.
 *
 * <p>Losses told without an instant are perf record's totals per event at the end of the
 * recording (PERF_RECORD_LOST_SAMPLES with sample_id 0, from each event's lost-samples counter
 * since perf 6.0): the same drops that the dated PERF_RECORD_LOST records told as they happened
 * (14384 against 14369 in a recording with a one-page buffer), so only what they count beyond
 * the dated losses is a loss of its own, at an unknown instant ({@link #unplaced}). Without
 * dated losses (a perf without sample_id_all) they all are.
 */
public final class LossTimeline implements Serializable {
  public static final int MAX_BUCKETS = 4096;
  public static final int MAX_LOSSES = 1024;
  static final long FIRST_BUCKET_NS = 1L << 20;

  private long bucketNs = FIRST_BUCKET_NS;
  /** Absolute index (time / bucketNs) of counts[0]; counts covers [base, base + MAX_BUCKETS). */
  private long base;
  /**
   * Serialized as the range of buckets that hold any record ({@link #writeObject}). A timeline
   * read back (or made from an archive's form) holds only up to its last counted bucket, not all
   * {@link #MAX_BUCKETS}: a nightly keeps thousands of runs' timelines, at 32 KB each in full
   * (200 of a 450 MB live heap); one that counts again past them gets the full width in
   * {@link #place}. Null while the counts are {@link #packed}.
   */
  private transient long[] counts;
  /**
   * The counts of a timeline read back, as the varints they were stored in (null once unpacked
   * or when there are none): a bucket counts a few records, one byte, not a long's eight. A
   * nightly holds thousands of past runs' timelines (two a run: its manifest's and its stored
   * figures') and asks for no count of a run without losses (compare.RecordLossRule); 140 MB
   * of its live heap were their counts. Unpacked into {@link #counts} on first use, under this
   * timeline's lock: a read-back run's timeline may be asked on several threads at once (the
   * nightly's history), and a reader must never see neither form. Counting ({@link #record})
   * is a single thread's, as ever.
   */
  private transient byte[] packed;
  /** The buckets the packed counts are, from base: counts[packedFrom, packedTo) once unpacked. */
  private transient int packedFrom;
  private transient int packedTo;
  private long lowest = Long.MAX_VALUE;
  private long highest = Long.MIN_VALUE;
  private long[] lossFrom = new long[0];
  private long[] lossTo = new long[0];
  private long[] lossCount = new long[0];
  private int losses;
  private long placed;
  /** Losses told without an instant, as told. */
  private long undated;

  /**
   * The run's warning about its losses (kept word for word as archives stored it, so that a
   * comparison can tell it from the warnings that always leave a run out).
   */
  public static String warning(String source, long lost) {
    return source + ": perf lost " + lost + " events; loads near those instants may be off."
        + " Record with a larger buffer: loadprof record --mmap-pages 2048 (perf record -m"
        + " 2048; the default is 512 KB a CPU), or a lower --freq.";
  }

  /** Whether {@code warning} is the loss warning of {@code run}. */
  public static boolean isWarningOf(RunInfo run, String warning) {
    return warning.equals(warning(run.source, run.health.get(TraceHealth.LOST_EVENTS)));
  }

  /** A timed record read at {@code timeNs}. */
  public void record(long timeNs) {
    long i = Math.floorDiv(timeNs, bucketNs);
    // A timeline read back short (see the field) grows in place(), as one past its window does.
    if (counts != null && i >= base && i - base < counts.length) {
      counts[(int) (i - base)]++;
      lowest = Math.min(lowest, i);
      highest = Math.max(highest, i);
      return;
    }
    place(i);
    counts[(int) (Math.floorDiv(timeNs, bucketNs) - base)]++;
  }

  /** {@code count} records lost, told at {@code timeNs} (0 or less: no instant). */
  public void lost(long timeNs, long count) {
    if (count <= 0) {
      return;
    }
    if (timeNs <= 0) {
      undated += count;
      return;
    }
    placed += count;
    if (losses == lossCount.length) {
      if (losses == MAX_LOSSES) {
        mergeNeighbours();
      } else {
        int n = Math.max(8, losses * 2);
        lossFrom = Arrays.copyOf(lossFrom, n);
        lossTo = Arrays.copyOf(lossTo, n);
        lossCount = Arrays.copyOf(lossCount, n);
      }
    }
    lossFrom[losses] = timeNs;
    lossTo[losses] = timeNs;
    lossCount[losses] = count;
    losses++;
  }

  /** Every record lost, dated or not, each counted once. */
  public long totalLost() {
    return placed + unplaced();
  }

  /** Records lost at no known instant: the undated totals beyond the dated losses. */
  public long unplaced() {
    return Math.max(0, undated - placed);
  }

  /** Whether any record was counted: false for a run read before loadprof kept them. */
  public boolean hasRecords() {
    synchronized (this) { // a block, not the method's modifier: that is part of the class's UID
      return counts != null || packed != null;
    }
  }

  /** Records lost at an instant within [fromNs, toNs] (a merged range that touches it counts). */
  public long lostWithin(long fromNs, long toNs) {
    long n = 0;
    for (int i = 0; i < losses; i++) {
      if (lossTo[i] >= fromNs && lossFrom[i] <= toNs) {
        n += lossCount[i];
      }
    }
    return n;
  }

  /** The first and last instant of a loss, or null when none has one. */
  public long[] lossRange() {
    if (losses == 0) {
      return null;
    }
    long from = Long.MAX_VALUE;
    long to = Long.MIN_VALUE;
    for (int i = 0; i < losses; i++) {
      from = Math.min(from, lossFrom[i]);
      to = Math.max(to, lossTo[i]);
    }
    return new long[] {from, to};
  }

  /**
   * Records read within [fromNs, toNs]: whole buckets inside it, and of a bucket it cuts the
   * share of its time that it covers.
   */
  public double recordsWithin(long fromNs, long toNs) {
    long[] counts = unpacked();
    if (counts == null || toNs < fromNs) {
      return 0;
    }
    double n = 0;
    for (long i = Math.max(lowest, Math.floorDiv(fromNs, bucketNs));
        i <= Math.min(highest, Math.floorDiv(toNs, bucketNs)); i++) {
      long start = i * bucketNs;
      long end = start + bucketNs; // exclusive
      long covered = Math.min(end, toNs + 1) - Math.max(start, fromNs);
      n += counts[(int) (i - base)] * (double) covered / bucketNs;
    }
    return n;
  }

  /** A deep copy. */
  public LossTimeline copy() {
    synchronized (this) {
      return copyLocked();
    }
  }

  private LossTimeline copyLocked() {
    LossTimeline c = new LossTimeline();
    c.bucketNs = bucketNs;
    c.base = base;
    c.counts = counts == null ? null : counts.clone();
    c.packed = packed; // never changed: unpacking replaces it
    c.packedFrom = packedFrom;
    c.packedTo = packedTo;
    c.lowest = lowest;
    c.highest = highest;
    c.lossFrom = lossFrom.clone();
    c.lossTo = lossTo.clone();
    c.lossCount = lossCount.clone();
    c.losses = losses;
    c.placed = placed;
    c.undated = undated;
    return c;
  }

  // ------------------------------------------------------------ the archive's form

  /** The bucket width, ns. */
  public long bucketNs() {
    return bucketNs;
  }

  /** The absolute index (time / bucketNs) of the first bucket counted, with {@link #counts}. */
  public long firstBucket() {
    return hasRecords() ? lowest : 0;
  }

  /** The counts of the buckets from {@link #firstBucket} to the last one counted. */
  public long[] counts() {
    long[] counts = unpacked();
    return counts == null ? new long[0]
        : Arrays.copyOfRange(counts, (int) (lowest - base), (int) (highest - base) + 1);
  }

  /** The losses told without an instant, as told (see {@link #unplaced}). */
  public long undated() {
    return undated;
  }

  /** The losses as (from, to, count) triples. */
  public long[][] losses() {
    return new long[][] {Arrays.copyOf(lossFrom, losses), Arrays.copyOf(lossTo, losses),
        Arrays.copyOf(lossCount, losses)};
  }

  /** The timeline an archive stored (see the getters above). */
  public static LossTimeline of(long bucketNs, long firstBucket, long[] counts, long[] from,
      long[] to, long[] count, long undated) {
    java.nio.ByteBuffer varints = dev.loadprof.codec.ColumnBytes.longs(counts, counts.length);
    return ofPacked(bucketNs, firstBucket, Arrays.copyOfRange(varints.array(),
        varints.arrayOffset() + varints.position(), varints.arrayOffset() + varints.limit()),
        counts.length, from, to, count, undated);
  }

  /**
   * The same with the counts as the varints {@link dev.loadprof.codec.ColumnBytes#longs} writes
   * ({@code n} of them), kept so until asked for (see {@link #packed}).
   *
   * @throws IllegalArgumentException when the bytes are not {@code n} whole varints
   */
  public static LossTimeline ofPacked(long bucketNs, long firstBucket, byte[] counts, int n,
      long[] from, long[] to, long[] count, long undated) {
    if (n < 0 || varintCount(counts) != n) {
      throw new IllegalArgumentException("loss timeline: " + counts.length + " bytes of counts"
          + " are not " + n + " varints");
    }
    LossTimeline t = new LossTimeline();
    t.bucketNs = bucketNs;
    if (n > 0) { // up to the last bucket counted (see the field)
      t.base = firstBucket;
      t.packed = counts;
      t.packedTo = n;
      t.lowest = firstBucket;
      t.highest = firstBucket + n - 1;
    }
    t.lossFrom = from.clone();
    t.lossTo = to.clone();
    t.lossCount = count.clone();
    t.losses = count.length;
    for (long c : count) {
      t.placed += c;
    }
    t.undated = undated;
    return t;
  }

  // ------------------------------------------------------------ growing

  /**
   * Makes room for bucket index i: the full width for a timeline read back short, else doubles
   * the buckets until the run fits, and re-bases.
   */
  private void place(long i) {
    unpacked();
    if (counts != null && i >= base && i - base < MAX_BUCKETS) {
      // within the window of a timeline read back short: the full width, the same buckets
      counts = Arrays.copyOf(counts, MAX_BUCKETS);
      lowest = Math.min(lowest, i);
      highest = Math.max(highest, i);
      return;
    }
    if (counts == null) {
      counts = new long[MAX_BUCKETS];
      base = i;
      lowest = i;
      highest = i;
      return;
    }
    long lo = Math.min(lowest, i);
    long hi = Math.max(highest, i);
    int folds = 0;
    while (hi - lo + 1 > MAX_BUCKETS / 2) { // half: room for the run to go on before the next
      lo = Math.floorDiv(lo, 2);
      hi = Math.floorDiv(hi, 2);
      folds++;
    }
    long[] next = new long[MAX_BUCKETS];
    long nextBase = i < lowest ? Math.max(lo, hi - MAX_BUCKETS + 1) : lo;
    for (long j = lowest; j <= highest; j++) {
      long c = counts[(int) (j - base)];
      if (c != 0) {
        next[(int) ((j >> folds) - nextBase)] += c;
      }
    }
    bucketNs <<= folds;
    counts = next;
    base = nextBase;
    lowest = Math.floorDiv(Math.min(lowest, i), 1L << folds);
    highest = Math.floorDiv(Math.max(highest, i), 1L << folds);
  }

  private void mergeNeighbours() {
    Integer[] order = new Integer[losses];
    for (int i = 0; i < losses; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Long.compare(lossFrom[a], lossFrom[b]));
    long[] from = new long[lossFrom.length];
    long[] to = new long[lossTo.length];
    long[] count = new long[lossCount.length];
    int n = 0;
    for (int k = 0; k < losses; k += 2) {
      int a = order[k];
      from[n] = lossFrom[a];
      to[n] = lossTo[a];
      count[n] = lossCount[a];
      if (k + 1 < losses) {
        int b = order[k + 1];
        to[n] = Math.max(to[n], lossTo[b]);
        count[n] += lossCount[b];
      }
      n++;
    }
    lossFrom = from;
    lossTo = to;
    lossCount = count;
    losses = n;
  }

  /**
   * The counts as the range of buckets that counted any record, not all 4096 (a short run
   * fills few), as varints (a bucket counts a few records, not 8 bytes' worth): a run's stored figures (read back by every nightly) hold its timeline.
   */
  private void writeObject(java.io.ObjectOutputStream out) throws java.io.IOException {
    unpacked(); // written as ever: the range counted, trimmed of empty buckets at its ends
    out.defaultWriteObject();
    if (counts == null) {
      out.writeInt(-1);
      return;
    }
    int from = 0;
    int to = counts.length;
    while (from < to && counts[from] == 0) {
      from++;
    }
    while (to > from && counts[to - 1] == 0) {
      to--;
    }
    out.writeInt(counts.length);
    out.writeInt(from);
    out.writeInt(to);
    java.nio.ByteBuffer varints = dev.loadprof.codec.ColumnBytes.longs(
        Arrays.copyOfRange(counts, from, to), to - from);
    out.writeInt(varints.remaining());
    out.write(varints.array(), varints.arrayOffset() + varints.position(), varints.remaining());
  }

  private void readObject(java.io.ObjectInputStream in)
      throws java.io.IOException, ClassNotFoundException {
    in.defaultReadObject();
    int length = in.readInt();
    if (length < 0) {
      counts = null;
      return;
    }
    int from = in.readInt();
    int to = in.readInt();
    if (length > (1 << 24) || from < 0 || to < from || to > length) {
      throw new java.io.InvalidObjectException("loss timeline: buckets " + from + ".." + to
          + " of " + length);
    }
    int size = in.readInt();
    if (size < 0 || size > 10 * (to - from)) {
      throw new java.io.InvalidObjectException("loss timeline: " + size + " bytes of counts");
    }
    byte[] varints = new byte[size];
    in.readFully(varints);
    if (varintCount(varints) != to - from) {
      throw new java.io.InvalidObjectException("loss timeline: " + size + " bytes of counts"
          + " are not " + (to - from) + " varints");
    }
    counts = null;
    packed = varints; // up to the last bucket counted (see the field)
    packedFrom = from;
    packedTo = to;
  }

  // ------------------------------------------------------------ packed counts

  /** The counts, the packed ones unpacked into {@link #counts} first (once). */
  private synchronized long[] unpacked() {
    if (packed == null) {
      return counts;
    }
    long[] unpacked = new long[packedTo];
    System.arraycopy(dev.loadprof.codec.ColumnBytes.readLongs(java.nio.ByteBuffer.wrap(packed),
        packedTo - packedFrom, "loss timeline counts"), 0, unpacked, packedFrom,
        packedTo - packedFrom);
    counts = unpacked;
    packed = null;
    return unpacked;
  }

  /** How many whole varints the bytes hold, or -1 when the last one is cut short. */
  private static int varintCount(byte[] varints) {
    int n = 0;
    for (byte b : varints) {
      if (b >= 0) {
        n++; // a varint's last byte has its high bit clear
      }
    }
    return varints.length > 0 && varints[varints.length - 1] < 0 ? -1 : n;
  }
}
