package dev.loadprof.report.html;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;

/**
 * One self-contained report page: the shared stylesheet and scripts (and a page's own script),
 * all inline, the data as JSON in a non-executed script element, and a Content-Security-Policy
 * that allows exactly these inline scripts and styles (by hash) and no load from anywhere.
 * analyze, compare and nightly pages differ only in their title, data and page scripts.
 */
public final class HtmlPage {
  private static final String RESOURCES = "/dev/loadprof/report/html/";
  /** Shared by every page: styles, then DOM/format helpers and the charts. */
  private static final String CSS = "page.css";
  private static final List<String> SHARED_SCRIPTS = List.of("common.js", "charts.js",
      "flame.js");

  private HtmlPage() {}

  /**
   * @param title plain text; escaped here
   * @param dataJson the page's data as JSON text
   * @param pageScripts resource names of the page's own scripts (the last one reads the data
   *     element and builds the page)
   */
  public static String render(String title, String dataJson, String... pageScripts) {
    String css = resource(CSS);
    StringBuilder scripts = new StringBuilder();
    for (String s : SHARED_SCRIPTS) {
      scripts.append(resource(s)).append('\n');
    }
    for (String s : pageScripts) {
      scripts.append(resource(s)).append('\n');
    }
    String script = scripts.toString();
    String csp = "default-src 'none'; img-src data:; style-src '" + sha256(css)
        + "'; script-src '" + sha256(script) + "'; base-uri 'none'; form-action 'none'";
    return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        + "<meta http-equiv=\"Content-Security-Policy\" content=\"" + Escape.html(csp) + "\">\n"
        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        + "<title>" + Escape.html(title) + "</title>\n"
        + "<style>" + css + "</style>\n</head>\n<body>\n"
        + "<noscript>This report needs JavaScript; the same figures are in summary.json."
        + "</noscript>\n"
        + "<main id=\"app\"></main>\n"
        + "<script type=\"application/json\" id=\"loadprof-data\">" + Escape.jsonInScript(dataJson)
        + "</script>\n"
        + "<script>" + script + "</script>\n</body>\n</html>\n";
  }

  static String resource(String name) {
    try (InputStream in = HtmlPage.class.getResourceAsStream(RESOURCES + name)) {
      if (in == null) {
        throw new IllegalStateException("missing report resource " + RESOURCES + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String sha256(String text) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return "sha256-" + Base64.getEncoder().encodeToString(d);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
