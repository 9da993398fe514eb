package dev.loadprof.report.browser;

import java.io.File;
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
import org.junit.jupiter.api.Assumptions;

/**
 * A headless Chromium driven over the DevTools protocol: one browser process per test class,
 * started with a throw-away profile and no background traffic, and stopped by its own handle.
 * The DevTools port is chosen by Chromium (port 0) and read from its DevToolsActivePort file.
 */
public final class Chromium implements AutoCloseable {
  private static final List<String> NAMES = List.of("chromium", "chromium-browser",
      "google-chrome", "google-chrome-stable");

  private final Process process;
  private final Path profile;
  private final Cdp browser;

  private Chromium(Process process, Path profile, Cdp browser) {
    this.process = process;
    this.profile = profile;
    this.browser = browser;
  }

  /** The browser binary: $LOADPROF_CHROMIUM, else the first of NAMES on the PATH. */
  public static Optional<Path> find() {
    String env = System.getenv("LOADPROF_CHROMIUM");
    if (env != null && !env.isBlank()) {
      return Optional.of(Path.of(env));
    }
    String path = System.getenv().getOrDefault("PATH", "");
    for (String name : NAMES) {
      for (String dir : path.split(File.pathSeparator)) {
        Path candidate = Path.of(dir, name);
        if (Files.isExecutable(candidate)) {
          return Optional.of(candidate);
        }
      }
    }
    return Optional.empty();
  }

  /**
   * Launches the installed Chromium, or skips the calling test class (saying how to install it)
   * when there is none; for a @BeforeAll.
   */
  public static Chromium launchOrSkip(String reports) throws IOException, InterruptedException {
    Optional<Path> binary = find();
    Assumptions.assumeTrue(binary.isPresent(), "SKIPPED: no chromium on the PATH (nor"
        + " $LOADPROF_CHROMIUM); install it (Debian: apt-get install -y chromium) to run the "
        + reports + " browser tests");
    return launch(binary.get());
  }

  public static Chromium launch(Path binary) throws IOException, InterruptedException {
    Path profile = Files.createTempDirectory("loadprof-chromium-");
    Process p = new ProcessBuilder(binary.toString(), "--headless", "--no-sandbox",
        "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--no-default-browser-check",
        "--disable-extensions", "--hide-scrollbars", "--mute-audio",
        "--user-data-dir=" + profile, "--remote-debugging-port=0", "about:blank")
        .redirectErrorStream(true)
        .redirectOutput(profile.resolve("chromium.log").toFile())
        .start();
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
    process.destroy();
    try {
      if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
    try (Stream<Path> files = Files.walk(profile)) {
      files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
  }
}
