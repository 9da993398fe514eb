package dev.loadprof.report.browser;

import dev.loadprof.testtools.RequiredTools;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A headless Chromium driven over the DevTools protocol: one browser process per test class,
 * started with a throw-away profile and no background traffic, and stopped by its own handle.
 * The DevTools port is chosen by Chromium (port 0) and read from its DevToolsActivePort file.
 */
public final class Chromium implements AutoCloseable {
  private final Process process;
  private final Path profile;
  private final Cdp browser;

  private Chromium(Process process, Path profile, Cdp browser) {
    this.process = process;
    this.profile = profile;
    this.browser = browser;
  }

  /** The browser binary: $LOADPROF_CHROMIUM, else the first of its names on the PATH. */
  public static Optional<Path> find() {
    return RequiredTools.find(RequiredTools.Tool.CHROMIUM, System.getenv());
  }

  /**
   * Launches the installed Chromium, or skips the calling test class (saying how to install it)
   * when there is none, or fails it where tools are required ({@link RequiredTools}); for a
   * @BeforeAll.
   */
  public static Chromium launchOrSkip(String reports) throws IOException, InterruptedException {
    return launch(RequiredTools.require(RequiredTools.Tool.CHROMIUM));
  }

  public static Chromium launch(Path binary) throws IOException, InterruptedException {
    Path profile = Files.createTempDirectory("loadprof-chromium-");
    ProcessBuilder builder = new ProcessBuilder(binary.toString(), "--headless", "--no-sandbox",
        "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--no-default-browser-check",
        "--disable-extensions", "--hide-scrollbars", "--mute-audio",
        "--user-data-dir=" + profile, "--remote-debugging-port=0", "about:blank")
        .redirectErrorStream(true)
        .redirectOutput(profile.resolve("chromium.log").toFile());
    // Its singleton socket's directory goes to TMPDIR, and stayed in /tmp after every stop.
    builder.environment().put("TMPDIR", profile.toString());
    Process p = builder.start();
    Path portFile = profile.resolve("DevToolsActivePort");
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!Files.exists(portFile) || Files.readAllLines(portFile).size() < 2) {
      if (!p.isAlive() || System.nanoTime() > deadline) {
        p.destroyForcibly();
        throw new IOException("chromium did not start; its log: "
            + Files.readString(profile.resolve("chromium.log"), StandardCharsets.UTF_8));
      }
      Thread.sleep(50);
    }
    List<String> lines = Files.readAllLines(portFile);
    URI ws = URI.create("ws://127.0.0.1:" + lines.get(0).trim() + lines.get(1).trim());
    return new Chromium(p, profile, Cdp.connect(ws));
  }

  /** A new tab of the given size, with console, log and page events on. */
  public Tab newTab(int width, int height) throws IOException {
    String targetId = browser.call(null, "Target.createTarget",
        Cdp.params("url", "about:blank"))
        .get("targetId").asText();
    String session = browser.call(null, "Target.attachToTarget",
        Cdp.params("targetId", targetId, "flatten", true)).get("sessionId").asText();
    Tab tab = new Tab(browser, session, width, height);
    tab.enable();
    return tab;
  }

  @Override
  public void close() throws IOException {
    browser.close();
    // Chromium's helpers (zygote, renderer, network service) outlive a signal to the main
    // process for a moment and keep writing into the profile, so stop them all and wait.
    List<ProcessHandle> helpers = process.descendants().toList();
    process.destroy();
    helpers.forEach(ProcessHandle::destroy);
    try {
      if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
      for (ProcessHandle helper : helpers) {
        try {
          helper.onExit().get(5, java.util.concurrent.TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException
            | java.util.concurrent.TimeoutException e) {
          helper.destroyForcibly();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      helpers.forEach(ProcessHandle::destroyForcibly);
    }
    deleteQuietly(profile);
  }

  /**
   * Removes the throw-away profile. A file that vanishes meanwhile (Chromium renames its own
   * temporary files) is not an error, and a left-over temp directory must never fail a test.
   */
  private static void deleteQuietly(Path dir) {
    for (int attempt = 0; attempt < 3 && Files.exists(dir); attempt++) {
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      } catch (IOException | java.io.UncheckedIOException e) {
        // Something was removed under the walk; walk again.
      }
    }
  }
}
