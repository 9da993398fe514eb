package dev.loadprof.report.browser;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/** One page of the browser: navigate, evaluate, click and type as a user, screenshot. */
public final class Tab {
  private final Cdp cdp;
  private final String session;
  private final int width;
  private final int height;
  private final List<String> errors = new ArrayList<>();

  Tab(Cdp cdp, String session, int width, int height) {
    this.cdp = cdp;
    this.session = session;
    this.width = width;
    this.height = height;
  }

  void enable() throws IOException {
    cdp.onEvent(this::collectErrors);
    for (String domain : List.of("Page.enable", "Runtime.enable", "Log.enable")) {
      cdp.call(session, domain, null);
    }
    viewport(height);
  }

  private void viewport(int h) throws IOException {
    cdp.call(session, "Emulation.setDeviceMetricsOverride", Cdp.params("width", width,
        "height", h, "deviceScaleFactor", 1, "mobile", false));
  }

  /** Console errors, uncaught exceptions and error log entries (CSP violations among them). */
  private void collectErrors(JsonNode msg) {
    if (!session.equals(msg.path("sessionId").asText())) {
      return;
    }
    JsonNode p = msg.path("params");
    switch (msg.path("method").asText()) {
      case "Runtime.consoleAPICalled" -> {
        if (p.path("type").asText().equals("error") || p.path("type").asText().equals("assert")) {
          synchronized (errors) {
            errors.add("console: " + p.path("args"));
          }
        }
      }
      case "Runtime.exceptionThrown" -> {
        synchronized (errors) {
          errors.add("exception: " + p.path("exceptionDetails"));
        }
      }
      case "Log.entryAdded" -> {
        if (p.path("entry").path("level").asText().equals("error")) {
          synchronized (errors) {
            errors.add("log: " + p.path("entry").path("text").asText());
          }
        }
      }
      default -> { }
    }
  }

  public List<String> errors() {
    synchronized (errors) {
      return List.copyOf(errors);
    }
  }

  /**
   * Opens the file and waits until the page says it has rendered (body[data-ready]); returns
   * the ms from navigation until the first frame after that, as the page's clock measures it.
   */
  public double open(Path file) throws IOException, InterruptedException {
    cdp.call(session, "Page.navigate", Cdp.params("url", file.toUri().toString()));
    waitUntil("document.readyState === 'complete' && document.body"
        + " && document.body.getAttribute('data-ready') === '1'", "page never became ready");
    return evaluateAsync("new Promise(r => requestAnimationFrame(() => r(performance.now())))")
        .asDouble();
  }

  /**
   * Reloads the page as the browser's reload button does and waits until the new document has
   * rendered: a marker set in the old document must be gone, so the old page's ready flag does
   * not count.
   */
  public void reload() throws IOException, InterruptedException {
    evaluate("window.loadprofBeforeReload = 1");
    cdp.call(session, "Page.reload", null);
    waitUntil("window.loadprofBeforeReload === undefined && document.readyState === 'complete'"
        + " && document.body && document.body.getAttribute('data-ready') === '1'",
        "page never came back after the reload");
  }

  /**
   * Polls the expression until it is true. While the page navigates, the browser may answer
   * an evaluation with "navigated or closed" or "Cannot find context": the old document went
   * away under the call, so the poll asks again rather than failing.
   */
  private void waitUntil(String expression, String failure)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (true) {
      try {
        if (evaluate(expression).asBoolean()) {
          return;
        }
      } catch (IOException e) {
        String m = String.valueOf(e.getMessage());
        if (!m.contains("navigated or closed") && !m.contains("Cannot find context")) {
          throw e;
        }
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(failure + "; errors: " + errors());
      }
      Thread.sleep(20);
    }
  }

  /** The value of a JavaScript expression (returned by value: JSON-able results only). */
  public JsonNode evaluate(String expression) throws IOException {
    return result(cdp.call(session, "Runtime.evaluate",
        Cdp.params("expression", expression, "returnByValue", true)), expression);
  }

  public JsonNode evaluateAsync(String expression) throws IOException {
    return result(cdp.call(session, "Runtime.evaluate",
        Cdp.params("expression", expression, "returnByValue", true, "awaitPromise", true)),
        expression);
  }

  private static JsonNode result(JsonNode r, String expression) {
    if (r.has("exceptionDetails")) {
      throw new AssertionError("evaluating " + expression + ": " + r.get("exceptionDetails"));
    }
    return r.path("result").path("value");
  }

  /**
   * Scrolls the first element matching the selector into view and clicks its centre with real
   * mouse events (move, press, release), as a user would.
   */
  public void click(String selector) throws IOException {
    JsonNode c = centre(selector);
    mouse("mouseMoved", c, 0);
    mouse("mousePressed", c, 1);
    mouse("mouseReleased", c, 1);
  }

  /** Moves the mouse onto the centre of the first element matching the selector. */
  public void hover(String selector) throws IOException {
    mouse("mouseMoved", centre(selector), 0);
  }

  private JsonNode centre(String selector) throws IOException {
    String q = Cdp.JSON.valueToTree(selector).toString();
    JsonNode c = evaluate("(() => { const e = document.querySelector(" + q + ");"
        + " if (!e) return null; e.scrollIntoView({block: 'center', inline: 'center'});"
        + " const r = e.getBoundingClientRect(); return {x: r.left + Math.min(r.width / 2, 40),"
        + " y: r.top + r.height / 2}; })()");
    if (c.isNull() || c.isMissingNode()) {
      throw new AssertionError("no element " + selector);
    }
    return c;
  }

  private void mouse(String type, JsonNode at, int clicks) throws IOException {
    cdp.call(session, "Input.dispatchMouseEvent", Cdp.params("type", type,
        "x", at.get("x").asDouble(), "y", at.get("y").asDouble(), "button",
        clicks > 0 ? "left" : "none", "clickCount", clicks));
  }

  /** Focuses the element and types the text into it. */
  public void type(String selector, String text) throws IOException {
    String q = Cdp.JSON.valueToTree(selector).toString();
    evaluate("document.querySelector(" + q + ").focus()");
    cdp.call(session, "Input.insertText", Cdp.params("text", text));
  }

  /** A PNG of the first element matching the selector, wherever it is on the page. */
  public void screenshotOf(String selector, Path file) throws IOException {
    String q = Cdp.JSON.valueToTree(selector).toString();
    JsonNode r = evaluate("(() => { const r = document.querySelector(" + q + ")"
        + ".getBoundingClientRect(); return {x: r.left + scrollX, y: r.top + scrollY,"
        + " width: r.width, height: r.height, scale: 1}; })()");
    JsonNode shot = cdp.call(session, "Page.captureScreenshot", Cdp.params("format", "png",
        "clip", r, "captureBeyondViewport", true));
    Files.createDirectories(file.getParent());
    Files.write(file, Base64.getDecoder().decode(shot.get("data").asText()));
  }

  /** A PNG of the whole page (up to maxHeight px tall) at the tab's width. */
  public void screenshot(Path file, int maxHeight) throws IOException {
    int h = Math.min(maxHeight, evaluate("document.documentElement.scrollHeight").asInt());
    viewport(h);
    evaluate("window.scrollTo(0, 0)");
    JsonNode shot = cdp.call(session, "Page.captureScreenshot", Cdp.params("format", "png",
        "captureBeyondViewport", false));
    Files.createDirectories(file.getParent());
    Files.write(file, Base64.getDecoder().decode(shot.get("data").asText()));
    viewport(height);
  }
}
