package dev.loadprof.report.html;

/**
 * Escaping for the contexts in which untrusted text (symbols, comms, run ids) reaches a page.
 * Data goes into the page only as JSON inside a non-executed script element and is put into the
 * DOM with textContent; the page title is the one place Java writes text into HTML.
 */
public final class Escape {
  private Escape() {}

  /** Text or a double-quoted attribute value in HTML. */
  public static String html(String s) {
    StringBuilder out = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  /**
   * JSON text made safe inside a script element: {@code <}, {@code >} and {@code &} become
   * unicode escapes (so {@code </script>} and {@code <!--} cannot end or change the element), and
   * so do U+2028 and U+2029 (line terminators in older JavaScript). These characters can only
   * occur inside JSON strings, where the escapes mean the same characters.
   */
  public static String jsonInScript(String json) {
    StringBuilder out = new StringBuilder(json.length() + 64);
    for (int i = 0; i < json.length(); i++) {
      char c = json.charAt(i);
      switch (c) {
        case '<' -> out.append("\\u003c");
        case '>' -> out.append("\\u003e");
        case '&' -> out.append("\\u0026");
        case '\u2028' -> out.append("\\u2028");
        case '\u2029' -> out.append("\\u2029");
        default -> out.append(c);
      }
    }
    return out.toString();
  }
}
