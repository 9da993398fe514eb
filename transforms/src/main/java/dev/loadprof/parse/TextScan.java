package dev.loadprof.parse;

import dev.loadprof.model.TraceEventSink;

/**
 * Scanning of perf script text held in a char buffer, in place: the parser's parts look at ranges
 * {@code b[s, e)} of one buffer, with no String per line and no regex.
 */
final class TextScan {
  private TextScan() {}

  static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  static boolean isHex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }

  /** Chars of a PERF_RECORD_* name: "MMAP2", "LOST_SAMPLES". */
  static boolean isNameChar(char c) {
    return (c >= 'A' && c <= 'Z') || isDigit(c) || c == '_';
  }

  static boolean isBlank(char[] b, int s, int e) {
    for (int i = s; i < e; i++) {
      if (b[i] != ' ' && b[i] != '\t') {
        return false;
      }
    }
    return true;
  }

  static int skipBlanks(char[] b, int i, int e) {
    while (i < e && b[i] == ' ') {
      i++;
    }
    return i;
  }

  static int trimEnd(char[] b, int s, int e) {
    while (e > s && (b[e - 1] == ' ' || b[e - 1] == '\t')) {
      e--;
    }
    return e;
  }

  static boolean startsWith(char[] b, int i, int e, String prefix) {
    int n = prefix.length();
    if (e - i < n) {
      return false;
    }
    for (int k = 0; k < n; k++) {
      if (b[i + k] != prefix.charAt(k)) {
        return false;
      }
    }
    return true;
  }

  static int indexOf(char[] b, int s, int e, char c) {
    for (int i = s; i < e; i++) {
      if (b[i] == c) {
        return i;
      }
    }
    return -1;
  }

  static int lastIndexOf(char[] b, int s, int e, char c) {
    for (int i = e - 1; i >= s; i--) {
      if (b[i] == c) {
        return i;
      }
    }
    return -1;
  }

  static int indexOf(char[] b, int s, int e, String needle) {
    char first = needle.charAt(0);
    int n = needle.length();
    for (int i = s, last = e - n; i <= last; i++) {
      if (b[i] == first && startsWith(b, i, e, needle)) {
        return i;
      }
    }
    return -1;
  }

  /** -1 (perf's "unknown") and values that are not ints become UNKNOWN_ID. */
  static int toId(long v) {
    return v < 0 || v > Integer.MAX_VALUE ? TraceEventSink.UNKNOWN_ID : (int) v;
  }
}
