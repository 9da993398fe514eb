package dev.loadprof.parse;

import java.util.Arrays;

/**
 * A small open-addressing hash table whose keys are looked up as a range of a char buffer, so that
 * the parser can find the interned value of a comm, event name or frame text without first
 * allocating a String for it. The table is bounded: when it would hold more than {@code maxSize}
 * entries it is cleared and starts again, which keeps memory flat on traces with millions of
 * distinct frames while keeping the hit rate high on the frames that repeat.
 *
 * <p>The caller chooses the hash of a key (any function of its chars: {@link #hash}, or a
 * cheaper one that looks at fewer of them) and must use the same one for a table's gets and puts.
 * Keys are kept as char arrays and compared in place, range against range.
 */
final class RangeInterner<V> {
  private static final int INITIAL_CAPACITY = 256;

  private final int maxSize;
  private char[][] keys;
  private int[] hashes;
  private Object[] values;
  private int size;

  RangeInterner(int maxSize) {
    this.maxSize = maxSize;
    clear();
  }

  /** String#hashCode of the chars b[start, end). */
  static int hash(char[] b, int start, int end) {
    int h = 0;
    for (int i = start; i < end; i++) {
      h = 31 * h + b[i];
    }
    return h;
  }

  /** The value stored under the text b[start, end) with hash {@code h}, or null. */
  @SuppressWarnings("unchecked")
  V get(char[] b, int start, int end, int h) {
    char[][] ks = keys;
    int mask = ks.length - 1;
    int len = end - start;
    for (int i = spread(h) & mask; ; i = (i + 1) & mask) {
      char[] k = ks[i];
      if (k == null) {
        return null;
      }
      if (hashes[i] == h && k.length == len && Arrays.equals(k, 0, len, b, start, end)) {
        return (V) values[i];
      }
    }
  }

  /**
   * Stores value under the text b[start, end) with hash {@code h} (which must not be present).
   * Clears the table when it is full.
   */
  void put(char[] b, int start, int end, int h, V value) {
    if (size >= maxSize) {
      clear();
    } else if ((size + 1) * 2 > keys.length) {
      grow();
    }
    insert(keys, hashes, values, Arrays.copyOfRange(b, start, end), h, value);
    size++;
  }

  int size() {
    return size;
  }

  void clear() {
    keys = new char[INITIAL_CAPACITY][];
    hashes = new int[INITIAL_CAPACITY];
    values = new Object[INITIAL_CAPACITY];
    size = 0;
  }

  private void grow() {
    char[][] oldKeys = keys;
    int[] oldHashes = hashes;
    Object[] oldValues = values;
    keys = new char[oldKeys.length * 2][];
    hashes = new int[keys.length];
    values = new Object[keys.length];
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != null) {
        insert(keys, hashes, values, oldKeys[i], oldHashes[i], oldValues[i]);
      }
    }
  }

  private static void insert(char[][] ks, int[] hs, Object[] vs, char[] key, int h,
      Object value) {
    int mask = ks.length - 1;
    int i = spread(h) & mask;
    while (ks[i] != null) {
      i = (i + 1) & mask;
    }
    ks[i] = key;
    hs[i] = h;
    vs[i] = value;
  }

  private static int spread(int h) {
    h *= 0x9E3779B1;
    return h ^ (h >>> 16);
  }
}
