package dev.loadprof.pipelines;

import dev.loadprof.cli.LoadprofCli;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Helpers shared by the end-to-end tests: where the fixtures are, running the CLI in-process
 * (LoadprofCli.run, never System.exit), reading summary.json with Jackson, and parsing
 * functions.txt and the workloads' WINDOW ground-truth lines.
 */
final class E2e {
  static final ObjectMapper JSON = new ObjectMapper();
  /** A functions.txt row: flat% cum% cpu% avgload saved% name. */
  static final Pattern FUNCTIONS_ROW = Pattern.compile(
      "^\\s*(\\d+\\.\\d{2})%\\s+(\\d+\\.\\d{2})%\\s+(\\d+\\.\\d{2})%\\s+(\\S+)\\s+(\\S+)%\\s{2}(.+)$");
  /** A functions.txt process header: "run R pid P (comm): ...". */
  static final Pattern PROCESS_HEADER = Pattern.compile("^run (\\S+) pid (\\d+) \\((.*)\\):.*$");

  private static final Map<String, Cli> CACHE = new ConcurrentHashMap<>();
  private static Path scratch;

  private E2e() {}

  /**
   * A fixture trace by name, from the classpath: "phases" is the shipped example (examples/ is
   * a test resource directory), the others are transforms' test traces.
   */
  static Path trace(String name) {
    return fixture(name + ".txt.gz");
  }

  static Path windowsFile(String name) {
    return fixture(name + ".windows");
  }

  private static Path fixture(String file) {
    String resource = file.startsWith("phases.") ? "/examples/" + file : "/traces/" + file;
    return Fixture.file(resource);
  }

  /** The result of one CLI invocation. */
  record Cli(int exit, String stdout, String stderr, Path out) {
    JsonNode summary() {
      try {
        return JSON.readTree(out.resolve("summary.json").toFile());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    String file(String name) {
      try {
        return Files.readString(out.resolve(name), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    byte[] bytes(String name) {
      try {
        return Files.readAllBytes(out.resolve(name));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    Cli assertOk() {
      assertEquals(0, exit, () -> "loadprof exit " + exit + "\nstdout:\n" + stdout
          + "\nstderr:\n" + stderr);
      return this;
    }
  }

  /** How many times {@code part} occurs in {@code text}, overlapping ones counted. */
  static int occurrences(String text, String part) {
    int n = 0;
    for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
      n++;
    }
    return n;
  }

  /** Runs "loadprof ARGS..." in-process. */
  static Cli cli(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      exit = LoadprofCli.run(args, o, e);
    }
    Path outDir = null;
    for (int i = 0; i + 1 < args.length; i++) {
      if (args[i].equals("--out")) {
        outDir = Path.of(args[i + 1]);
      }
    }
    return new Cli(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8),
        outDir);
  }

  /** "loadprof analyze --out DIR ARGS..." into the given directory. */
  static Cli analyze(Path out, String... args) {
    List<String> all = new ArrayList<>(List.of("analyze", "--out", out.toString()));
    all.addAll(List.of(args));
    return cli(all.toArray(new String[0]));
  }

  /**
   * The same as {@link #analyze}, once per JVM for the same arguments: several test classes look
   * at the outputs of the same fixture, and a run costs seconds. Callers must not modify the
   * outputs.
   */
  static Cli analyzeCached(String... args) {
    String key = String.join("\u0000", args);
    return CACHE.computeIfAbsent(key, k -> {
      try {
        Path out = Files.createTempDirectory(scratch(), "run");
        return analyze(out, args).assertOk();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  private static synchronized Path scratch() throws IOException {
    if (scratch == null) {
      scratch = Files.createTempDirectory("loadprof-e2e");
      Path dir = scratch;
      Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(dir)));
    }
    return scratch;
  }

  static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException ignored) {
      // best effort
    }
  }

  /** The summary.json process with this pid in the first (only) run. */
  static JsonNode process(JsonNode summary, int pid) {
    for (JsonNode p : summary.get("runs").get(0).get("processes")) {
      if (p.get("pid").asInt() == pid) {
        return p;
      }
    }
    fail("no process " + pid + " in summary.json");
    return null;
  }

  /** The summary.json process named comm (the one with the most samples). */
  static JsonNode processByComm(JsonNode summary, String comm) {
    for (JsonNode p : summary.get("runs").get(0).get("processes")) {
      if (p.get("comm").asText().equals(comm)) {
        return p; // processes are in process order: most samples first
      }
    }
    fail("no process " + comm + " in summary.json");
    return null;
  }

  /** "k" -> value of a summary histogram object. */
  static double at(JsonNode histogram, int k) {
    JsonNode v = histogram.get(Integer.toString(k));
    return v == null ? 0 : v.asDouble();
  }

  /** top_functions name -> the named figure. */
  static Map<String, Double> topFunctions(JsonNode process, String field) {
    Map<String, Double> m = new LinkedHashMap<>();
    for (JsonNode f : process.get("top_functions")) {
      m.put(f.get("name").asText(), f.get(field).asDouble());
    }
    return m;
  }

  /** One row of functions.txt. */
  record FunctionRow(String flat, String cum, String cpu, String avgLoad, String saved,
      String name) {
    double flatPct() {
      return Double.parseDouble(flat);
    }

    double cpuPct() {
      return Double.parseDouble(cpu);
    }
  }

  /** functions.txt rows per "run/pid", in file order. */
  static Map<String, List<FunctionRow>> functionsTxt(String text) {
    Map<String, List<FunctionRow>> byProcess = new LinkedHashMap<>();
    List<FunctionRow> current = null;
    for (String line : text.split("\n")) {
      Matcher h = PROCESS_HEADER.matcher(line);
      if (h.matches()) {
        current = new ArrayList<>();
        byProcess.put(h.group(1) + "/" + h.group(2), current);
        continue;
      }
      Matcher m = FUNCTIONS_ROW.matcher(line);
      if (m.matches() && current != null) {
        current.add(new FunctionRow(m.group(1), m.group(2), m.group(3), m.group(4), m.group(5),
            m.group(6)));
      }
    }
    return byProcess;
  }

  /** A ground-truth line "WINDOW pid name start end expected_load" (seconds). */
  record Window(int pid, String name, double start, double end, int load) {
    double seconds() {
      return end - start;
    }
  }

  static List<Window> windows(Path file) {
    List<Window> out = new ArrayList<>();
    try {
      for (String line : Files.readAllLines(file)) {
        String[] p = line.trim().split("\\s+");
        if (p.length == 6 && p[0].equals("WINDOW")) {
          out.add(new Window(Integer.parseInt(p[1]), p[2], Double.parseDouble(p[3]),
              Double.parseDouble(p[4]), Integer.parseInt(p[5])));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (out.isEmpty()) {
      fail("no WINDOW lines in " + file);
    }
    return out;
  }

}
