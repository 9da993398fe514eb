package dev.loadprof.parse;

/**
 * Comms, event names and record names as shared Strings, looked up by a range of the parser's
 * buffer so that a name seen before costs no allocation. One instance per parser.
 */
final class InternedText {
  private static final int MAX_STRINGS = 1 << 16;

  private final RangeInterner<String> strings = new RangeInterner<>(MAX_STRINGS);

  /** The String of b[s, e), the same instance for equal text while the table holds it. */
  String of(char[] b, int s, int e) {
    int h = RangeInterner.hash(b, s, e);
    String v = strings.get(b, s, e, h);
    if (v == null) {
      v = new String(b, s, e - s);
      strings.put(b, s, e, h, v);
    }
    return v;
  }
}
