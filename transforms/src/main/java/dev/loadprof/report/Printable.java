package dev.loadprof.report;

/**
 * Names from a trace made safe for text outputs and the terminal: control characters (C0, DEL,
 * C1) become a visible {@code \xHH}, so an ESC or OSC sequence in a symbol name cannot drive the
 * terminal and a NUL cannot cut a line. JSON and pprof outputs keep the exact names.
 */
public final class Printable {
  private Printable() {}

  public static String escape(String s) {
    int i = 0;
    while (i < s.length() && !isControl(s.charAt(i))) {
      i++;
    }
    if (i == s.length()) {
      return s; // the usual case: nothing to copy
    }
    StringBuilder b = new StringBuilder(s.length() + 8).append(s, 0, i);
    for (; i < s.length(); i++) {
      char c = s.charAt(i);
      if (isControl(c)) {
        b.append(String.format("\\x%02x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  private static boolean isControl(char c) {
    return c < 0x20 || (c >= 0x7f && c <= 0x9f);
  }
}
