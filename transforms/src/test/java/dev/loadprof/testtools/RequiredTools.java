package dev.loadprof.testtools;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * What some tests need from the machine: outside tools (a Chromium browser, perf, go, gcc, make,
 * c++filt, rustc), root, and the workloads of ../shared/workloads. A test asks for each here;
 * without it the test is skipped with a line that says what is missing and how to get it, except
 * when {@value #SWITCH}=1 (set by .ci/run): then the test fails with that line, so that a CI
 * image without a tool cannot pass with its checks never run. No test looks for these by itself.
 */
public final class RequiredTools {
  /** The environment variable that makes every tool required. */
  public static final String SWITCH = "LOADPROF_REQUIRE_TOOLS";
  /** Where the workloads' sources are, when not in a shared/workloads beside an ancestor. */
  public static final String WORKLOADS = "LOADPROF_WORKLOADS";

  /** A tool: the names it may have on the PATH, how to install it, and what needs it. */
  public enum Tool {
    CHROMIUM(List.of("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"),
        "LOADPROF_CHROMIUM", "apt-get install -y chromium", "the HTML reports' browser tests"),
    PERF(List.of("perf"), null, "apt-get install -y linux-perf",
        "the perf.data and record tests"),
    GO(List.of("go"), null, "apt-get install -y golang-go", "the go tool pprof tests"),
    GCC(List.of("gcc"), null, "apt-get install -y gcc",
        "the tests that build programs to record"),
    MAKE(List.of("make"), null, "apt-get install -y make",
        "the tests that build ../shared/workloads"),
    CXXFILT(List.of("c++filt"), null, "apt-get install -y binutils", "the demangler tests"),
    RUSTC(List.of("rustc"), null, "apt-get install -y rustc", "the Rust symbol test"),
    TMUX(List.of("tmux"), null, "apt-get install -y tmux",
        "the progress line's 80-column terminal test");

    final List<String> names;
    final String override;
    final String install;
    final String usedBy;

    Tool(List<String> names, String override, String install, String usedBy) {
      this.names = names;
      this.override = override;
      this.install = install;
      this.usedBy = usedBy;
    }

    String label() {
      return names.get(0);
    }
  }

  private RequiredTools() {}

  /** The tool's path; skips the calling test without it, or fails it when tools are required. */
  public static Path require(Tool tool) {
    return require(tool, System.getenv());
  }

  static Path require(Tool tool, Map<String, String> env) {
    Optional<Path> found = find(tool, env);
    if (found.isPresent()) {
      return found.get();
    }
    missing(tool.label() + " is not on the PATH" + (tool.override == null ? ""
        : " (nor in $" + tool.override + ")") + ": install it (Debian: " + tool.install
        + ") to run " + tool.usedBy, env);
    return null;
  }

  /** Each tool's path, in order (see {@link #require(Tool)}). */
  public static void require(Tool... tools) {
    for (Tool tool : tools) {
      require(tool);
    }
  }

  /**
   * That this process runs as root (uid 0, the owner of /proc/self): perf record -a, its
   * sched tracepoints and runuser need it. Skips the test otherwise, or fails it when tools are
   * required.
   */
  public static void requireRoot(String why) {
    requireRoot(why, uid(), System.getenv());
  }

  static void requireRoot(String why, int uid, Map<String, String> env) {
    if (uid != 0) {
      missing("not root (uid " + uid + "): " + why + "; run the tests as root", env);
    }
  }

  /** The uid this process runs as: the owner of /proc/self. */
  public static int uid() {
    try {
      return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    } catch (IOException | UnsupportedOperationException e) {
      return -1; // no procfs: not Linux, so not root as these tests need it
    }
  }

  /**
   * The sources of the workloads (mixed, phases, stalls and their Makefile): ${@value #WORKLOADS},
   * else shared/workloads beside the working directory or one of its ancestors (the repository's
   * ../shared/workloads, also from a worktree below it). Skips the test without them, or fails
   * it when tools are required.
   */
  public static Path workloads() {
    return workloads(Path.of("").toAbsolutePath(), System.getenv());
  }

  static Path workloads(Path from, Map<String, String> env) {
    String given = env.getOrDefault(WORKLOADS, "");
    if (!given.isBlank()) {
      if (!Files.isRegularFile(Path.of(given, "Makefile"))) {
        missing("$" + WORKLOADS + " (" + given + ") holds no Makefile of the workloads", env);
      }
      return Path.of(given);
    }
    for (Path p = from; p != null; p = p.getParent()) {
      Path candidate = p.resolve("shared").resolve("workloads");
      if (Files.isRegularFile(candidate.resolve("Makefile"))) {
        return candidate;
      }
    }
    missing("no shared/workloads beside " + from + " or above it: put the workloads' sources"
        + " there or name them in $" + WORKLOADS, env);
    return null;
  }

  private static void missing(String what, Map<String, String> env) {
    if (required(env)) {
      fail(what + ". " + SWITCH + "=1 (CI) requires every tool the tests use");
    }
    System.err.println("SKIPPED: " + what); // loudly, in the build's log too, not only its reports
    assumeTrue(false, "SKIPPED: " + what);
  }

  /** True when a missing tool fails the tests ({@value #SWITCH}=1 or true). */
  public static boolean required(Map<String, String> env) {
    String value = env.getOrDefault(SWITCH, "");
    return value.equals("1") || value.equalsIgnoreCase("true");
  }

  /** The tool on the PATH of {@code env} (perf only if it runs: Debian's wrapper may not). */
  public static Optional<Path> find(Tool tool, Map<String, String> env) {
    if (tool.override != null && !env.getOrDefault(tool.override, "").isBlank()) {
      return Optional.of(Path.of(env.get(tool.override)));
    }
    for (String name : tool.names) {
      for (String dir : env.getOrDefault("PATH", "").split(File.pathSeparator)) {
        Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
        if (Files.isExecutable(candidate) && !Files.isDirectory(candidate)
            && (tool != Tool.PERF || runs(candidate, "--version"))) {
          return Optional.of(candidate);
        }
      }
    }
    return Optional.empty();
  }

  private static boolean runs(Path binary, String arg) {
    try {
      Process p = new ProcessBuilder(binary.toString(), arg).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return false;
      }
      return p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
