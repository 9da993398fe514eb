package dev.loadprof.parse;

/**
 * A small open-addressing hash table whose keys are looked up as a range of a char buffer, so that
 * the parser can find the interned value of a comm, event name or frame text without first
 * allocating a String for it. The table is bounded: when it would hold more than {@code maxSize}
 * entries it is cleared and starts again, which keeps memory flat on traces with millions of
 * distinct frames while keeping the hit rate high on the frames that repeat.
 *
 * <p>The hash is the one of {@link String#hashCode()}, so a key can be put by its String.
 */
final class RangeInterner<V> {
  private static final int INITIAL_CAPACITY = 256;

  private final int maxSize;
  private String[] keys;
  private Object[] values;
  private int size;

  RangeInterner(int maxSize) {
    this.maxSize = maxSize;
    this.keys = new String[INITIAL_CAPACITY];
    this.values = new Object[INITIAL_CAPACITY];
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
    String[] ks = keys;
    int mask = ks.length - 1;
    int len = end - start;
    for (int i = spread(h) & mask; ; i = (i + 1) & mask) {
      String k = ks[i];
      if (k == null) {
        return null;
      }
      if (k.length() == len && k.hashCode() == h && sameChars(k, b, start)) {
        return (V) values[i];
      }
    }
  }

  /** Stores value under key (which must not be present). Clears the table when it is full. */
  void put(String key, V value) {
    if (size >= maxSize) {
      clear();
    } else if ((size + 1) * 2 > keys.length) {
      grow();
    }
    insert(keys, values, key, value);
    size++;
  }

  int size() {
    return size;
  }

  void clear() {
    keys = new String[INITIAL_CAPACITY];
    values = new Object[INITIAL_CAPACITY];
    size = 0;
  }

  private void grow() {
    String[] oldKeys = keys;
    Object[] oldValues = values;
    String[] newKeys = new String[oldKeys.length * 2];
    Object[] newValues = new Object[newKeys.length];
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != null) {
        insert(newKeys, newValues, oldKeys[i], oldValues[i]);
      }
    }
    keys = newKeys;
    values = newValues;
  }

  private static void insert(String[] ks, Object[] vs, String key, Object value) {
    int mask = ks.length - 1;
    int i = spread(key.hashCode()) & mask;
    while (ks[i] != null) {
      i = (i + 1) & mask;
    }
    ks[i] = key;
    vs[i] = value;
  }

  private static int spread(int h) {
    return h ^ (h >>> 16);
  }

  private static boolean sameChars(String k, char[] b, int start) {
    for (int i = 0, n = k.length(); i < n; i++) {
      if (k.charAt(i) != b[start + i]) {
        return false;
      }
    }
    return true;
  }
}
