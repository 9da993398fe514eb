package dev.loadprof.parse;

import static dev.loadprof.parse.TextScan.isDigit;
import static dev.loadprof.parse.TextScan.toId;

/**
 * Parses decimal numbers in a char buffer, in place. {@link #end} is the index just past the last
 * number parsed, so that a caller can check what follows it. One instance per parser.
 */
final class Digits {
  /** Index just past the digits of the last number parsed. */
  int end;

  // Results of pair().
  int first;
  int second;

  /** Unsigned decimal digits at b[s..] (up to e); -1 if there are none or they overflow. */
  long unsigned(char[] b, int s, int e) {
    long v = 0;
    int i = s;
    while (i < e && isDigit(b[i])) {
      if (i - s >= 18) {
        end = i;
        return -1;
      }
      v = v * 10 + (b[i++] - '0');
    }
    end = i;
    return i == s ? -1 : v;
  }

  /** Like {@link #unsigned} with an optional '-'; Long.MIN_VALUE if there is no number. */
  long signed(char[] b, int s, int e) {
    boolean negative = s < e && b[s] == '-';
    long v = unsigned(b, negative ? s + 1 : s, e);
    if (v < 0) {
      return Long.MIN_VALUE;
    }
    return negative ? -v : v;
  }

  /** Whether b[s, e) is exactly one signed number. */
  boolean isNumber(char[] b, int s, int e) {
    return signed(b, s, e) != Long.MIN_VALUE && end == e;
  }

  /**
   * Parses "a{sep}b" filling the whole range b[s, e) into {@link #first} and {@link #second}
   * (-1 becomes UNKNOWN_ID): "pid/tid", "pid:tid".
   */
  boolean pair(char[] b, int s, int e, char sep) {
    int at = TextScan.indexOf(b, s, e, sep);
    if (at < 0) {
      return false;
    }
    long x = signed(b, s, at);
    if (x == Long.MIN_VALUE || end != at) {
      return false;
    }
    long y = signed(b, at + 1, e);
    if (y == Long.MIN_VALUE || end != e) {
      return false;
    }
    first = toId(x);
    second = toId(y);
    return true;
  }
}
