package dev.loadprof.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.loadprof.testtools.RequiredTools;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Stock {@code go tool pprof}, run offline for tests that check what real pprof makes of
 * loadprof's profiles. Without go the test is skipped, or fails where tools are required
 * ({@link RequiredTools}).
 */
public final class GoPprof {
  private final Path go;
  private final Path workDir;

  private GoPprof(Path go, Path workDir) {
    this.go = go;
    this.workDir = workDir;
  }

  /** pprof with its HOME and temp dir under workDir; skips without go (fails on CI). */
  public static GoPprof inDir(Path workDir) {
    return new GoPprof(RequiredTools.require(RequiredTools.Tool.GO), workDir);
  }

  /** What one pprof run printed. */
  public record Output(String stdout, String stderr) {}

  /** Runs {@code go tool pprof ARGS...}; returns its stdout, failing on a non-zero exit. */
  public String run(String... args) throws Exception {
    return runCapturing(args).stdout();
  }

  /** Runs {@code go tool pprof ARGS...}; returns stdout and stderr, failing on a non-zero exit. */
  public Output runCapturing(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(go.toString(), "tool", "pprof"));
    cmd.addAll(List.of(args));
    Path home = Files.createDirectories(workDir.resolve("home"));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(workDir.toFile());
    Map<String, String> env = pb.environment();
    env.put("HOME", home.toString());
    env.put("PPROF_TMPDIR", home.toString());
    env.put("GOPROXY", "off");
    env.put("GOTOOLCHAIN", "local");
    env.put("GOFLAGS", "-mod=mod");
    for (String proxy : List.of("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY")) {
      env.remove(proxy);
    }
    Path stderr = Files.createTempFile(workDir, "pprof", ".stderr");
    pb.redirectError(stderr.toFile());
    Process p = pb.start();
    p.getOutputStream().close();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (InputStream in = p.getInputStream()) {
      in.transferTo(out);
    }
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      fail("go tool pprof timed out: " + cmd);
    }
    String text = out.toString(StandardCharsets.UTF_8);
    // Shown in the test log, so a reader can see what stock pprof made of the profile.
    System.out.println("$ go tool pprof " + String.join(" ", args) + "\n" + text);
    String errors = Files.readString(stderr);
    assertEquals(0, p.exitValue(), "go tool pprof failed: " + errors);
    return new Output(text, errors);
  }

  /** A row of pprof's -top table: flat, flat%, sum%, cum, cum%, name. */
  private static final Pattern TOP_ROW =
      Pattern.compile("^\\s*(\\S+)\\s+(\\S+)%\\s+(\\S+)%\\s+(\\S+)\\s+(\\S+)%\\s+(.+)$");

  /** Function name to {flat, flat%} for the rows of a -top report, in report order. */
  public static Map<String, String[]> topRows(String report) {
    Map<String, String[]> rows = new LinkedHashMap<>();
    boolean inTable = false;
    for (String line : report.split("\n")) {
      if (line.trim().startsWith("flat ")) {
        inTable = true;
        continue;
      }
      Matcher m = TOP_ROW.matcher(line);
      if (inTable && m.matches()) {
        rows.put(m.group(6).trim(), new String[] {m.group(1), m.group(2).trim()});
      }
    }
    return rows;
  }

}
