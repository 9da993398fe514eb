package dev.loadprof.report.browser;

import java.util.List;

/** Names as a hostile binary or trace could carry them; each would set window.__pwned if run. */
public final class Hostile {
  public static final List<String> NAMES = List.of(
      "<img src=x onerror=\"window.__pwned='img'\">",
      "</script><script>window.__pwned='script'</script>",
      "\"'><svg onload=window.__pwned='svg'>",
      "line\u2028sep\u2029para<!--",
      "${window.__pwned='template'}`);window.__pwned='js';//");

  /** True in the page when no payload ran. */
  public static final String NOTHING_RAN = "window.__pwned === undefined";
  /** How many elements payloads made in the page (0 when all names stayed text). */
  public static final String PAYLOAD_ELEMENTS =
      "document.querySelectorAll('img, #app svg svg, iframe').length";

  private Hostile() {}
}
