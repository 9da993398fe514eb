package dev.loadprof.pipelines;

import dev.loadprof.cli.LoadprofCli;
import java.io.ByteArrayOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * Many local analyses at once, in this JVM: mixed inputs (the shipped example, the test traces,
 * several traces together, an archive, a perf.data, a FIFO) and options (sample filters, load
 * and time ranges, groups, windows), each compared with the outputs of the same case run
 * alone. Run by LocalAnalysisStressIT in its own JVM and, through {@link #main}, in several
 * JVMs at once.
 */
final class AnalysisStress {
  /**
   * One analysis: its arguments after "analyze -q -o DIR", and the exit code it must give (-1:
   * the one it gives alone, which depends on the machine's perf).
   */
  record Case(String name, List<String> args, int exit) {}

  /** The inputs, as files in {@code inputs} (made by {@link #prepare}). */
  static List<Case> cases(Path inputs) {
    String t = inputs.resolve("traces") + "/";
    return List.of(
        new Case("example", List.of(t + "phases.txt.gz"), 0),
        new Case("load", List.of("--load", "2:", t + "mixed.txt.gz"), 0),
        new Case("time", List.of("--time", "10%,90%", t + "stalls.txt.gz"), 0),
        new Case("cpu", List.of("-C", "0", t + "phases_process_cpu.txt.gz"), 0),
        new Case("groups", List.of("--group-by", "comm", t + "phases_wakeup.txt.gz",
            t + "stalls_busy.txt.gz"), 0),
        new Case("window", List.of("--window", "100ms", t + "phases_plain.txt.gz"), 0),
        new Case("runs", List.of("--comm", "^mixed$", t + "base-1.txt.gz", t + "base-2.txt.gz",
            t + "par-1.txt.gz", t + "par-2.txt.gz"), 0),
        new Case("pair", List.of("--tid", "1,2,3", t + "mixed-per-process.txt.gz",
            t + "mixed-system-wide.txt.gz"), 0),
        new Case("process", List.of(t + "stalls_process.txt.gz", t + "phases_process.txt.gz"),
            0),
        new Case("freq", List.of("-p", "1599", t + "phases_freq.txt.gz"), 0),
        new Case("archive", List.of(inputs.resolve("archive").toString()), 0),
        new Case("perfdata", List.of(inputs.resolve("tiny-mixed.data").toString()), 2),
        new Case("perf-script", List.of("--perf-data-reader", "perf-script", "--decode-pieces",
            "3", inputs.resolve("tiny-mixed.data").toString()), -1),
        new Case("fifo", List.of("FIFO"), 0));
  }

  /** Copies the fixtures to {@code inputs} and archives two of them there. */
  static void prepare(Path inputs) throws IOException {
    Path traces = Files.createDirectories(inputs.resolve("traces"));
    for (String name : List.of("mixed", "stalls", "phases_process_cpu", "phases_wakeup",
        "stalls_busy", "phases_plain", "compare/base-1", "compare/base-2", "compare/par-1",
        "compare/par-2", "pair/mixed-per-process", "pair/mixed-system-wide", "stalls_process",
        "phases_process", "phases_freq")) {
      Path from = Fixture.file("/traces/" + name + ".txt.gz");
      Files.copy(from, traces.resolve(from.getFileName()));
    }
    Files.copy(Fixture.file("/examples/phases.txt.gz"), traces.resolve("phases.txt.gz"));
    Files.copy(Fixture.file("/perfdata/tiny-mixed.data.gz"), inputs.resolve("tiny.gz"));
    try (var in = new java.util.zip.GZIPInputStream(Files.newInputStream(inputs.resolve(
        "tiny.gz")))) {
      Files.copy(in, inputs.resolve("tiny-mixed.data"));
    }
    int archived = cli("archive", "--out", inputs.resolve("archive").toString(),
        traces.resolve("mixed.txt.gz").toString(), traces.resolve("stalls.txt.gz").toString());
    if (archived != 0) {
      throw new IllegalStateException("archive exited " + archived);
    }
  }

  private static int cli(String... args) {
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    return LoadprofCli.run(args, new PrintStream(sink), new PrintStream(sink));
  }

  /**
   * Runs one case into {@code out}; null when it gave the exit code {@code exit} (or any, when
   * -1; it is then written to {@code out}.exit), else what went wrong.
   */
  static String analyze(Case c, int exit, Path inputs, Path out) throws Exception {
    List<String> args = new ArrayList<>(List.of("analyze", "-q", "-o", out.toString()));
    Thread writer = null;
    if (c.args().equals(List.of("FIFO"))) { // a FIFO of its own, which a thread writes
      // Named "phases" in a directory of its own: the run id of every run of the case.
      Path fifo = Files.createDirectories(out.resolveSibling(out.getFileName() + ".fifo"))
          .resolve("phases");
      if (new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() != 0) {
        return "mkfifo " + fifo + " failed";
      }
      byte[] bytes = Files.readAllBytes(inputs.resolve("traces/phases.txt.gz"));
      writer = new Thread(() -> {
        try (OutputStream w = new FileOutputStream(fifo.toFile())) {
          w.write(bytes);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
      writer.start();
      args.add(fifo.toString());
    } else {
      args.addAll(c.args());
    }
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int gave = LoadprofCli.run(args.toArray(new String[0]),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    if (writer != null) {
      writer.join(60_000);
    }
    if (exit < 0) {
      Files.writeString(exitFile(out), Integer.toString(gave));
      return null;
    }
    return gave == exit ? null : c.name() + ": exit " + gave + " (not " + exit + "): "
        + err.toString(StandardCharsets.UTF_8).trim();
  }

  private static Path exitFile(Path out) {
    return out.resolveSibling(out.getFileName() + ".exit");
  }

  /**
   * Every output file of a run, by name. A FIFO's path is in the outputs that name a run's
   * source (summary.json, the reports, the pprof profile): of that case, the others only.
   */
  static Map<String, byte[]> outputs(Case c, Path out) throws IOException {
    Map<String, byte[]> files = new TreeMap<>();
    if (Files.isDirectory(out)) {
      try (Stream<Path> list = Files.list(out)) {
        for (Path f : list.toList()) {
          String name = f.getFileName().toString();
          if (!c.name().equals("fifo") || name.endsWith(".folded") || name.endsWith(".txt")
              && !name.equals("summary.txt")) {
            files.put(name, Files.readAllBytes(f));
          }
        }
      }
    }
    return files;
  }

  /**
   * Runs {@code total} analyses, {@code threads} at a time, cycling through the cases, each
   * compared with the reference outputs under {@code references} (one directory per case);
   * returns what went wrong.
   */
  static List<String> run(Path inputs, Path references, Path scratch, int total, int threads,
      String tag) throws Exception {
    List<Case> cases = cases(inputs);
    Map<String, Map<String, byte[]>> expected = new TreeMap<>();
    Map<String, Integer> exits = new TreeMap<>();
    for (Case c : cases) {
      expected.put(c.name(), outputs(c, references.resolve(c.name())));
      exits.put(c.name(), Integer.parseInt(Files.readString(exitFile(references.resolve(
          c.name())))));
    }
    List<String> failures = Collections.synchronizedList(new ArrayList<>());
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> runs = new ArrayList<>();
      for (int i = 0; i < total; i++) {
        Case c = cases.get(i % cases.size());
        Path out = scratch.resolve(tag + "-" + i + "-" + c.name());
        runs.add(pool.submit(() -> {
          String failed = analyze(c, exits.get(c.name()), inputs, out);
          if (failed == null) {
            failed = differences(c.name(), expected.get(c.name()), outputs(c, out));
          }
          if (failed != null) {
            failures.add(tag + " #" + out.getFileName() + ": " + failed);
          }
          deleteTree(out);
          deleteTree(out.resolveSibling(out.getFileName() + ".fifo"));
          return null;
        }));
      }
      for (Future<?> r : runs) {
        try {
          r.get();
        } catch (java.util.concurrent.ExecutionException e) {
          failures.add(tag + ": " + e.getCause());
        }
      }
    } finally {
      pool.shutdownNow();
    }
    return failures;
  }

  private static String differences(String name, Map<String, byte[]> expected,
      Map<String, byte[]> actual) {
    if (!expected.keySet().equals(actual.keySet())) {
      return name + ": outputs " + actual.keySet() + ", not " + expected.keySet();
    }
    for (String file : expected.keySet()) {
      if (!Arrays.equals(expected.get(file), actual.get(file))) {
        return name + ": " + file + " differs from the case run alone";
      }
    }
    return null;
  }

  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** Each case run alone, one after the other, into {@code references}/NAME. */
  static List<String> references(Path inputs, Path references) throws Exception {
    List<String> failures = new ArrayList<>();
    for (Case c : cases(inputs)) {
      Path out = references.resolve(c.name());
      String failed = analyze(c, c.exit(), inputs, out);
      if (failed != null) {
        failures.add("alone: " + failed);
      } else if (c.exit() >= 0) {
        Files.writeString(exitFile(out), Integer.toString(c.exit()));
      }
    }
    return failures;
  }

  /** INPUTS REFERENCES SCRATCH TOTAL THREADS TAG: one JVM's share; exit 1 with its failures. */
  public static void main(String[] args) throws Exception {
    List<String> failures = run(Path.of(args[0]), Path.of(args[1]), Path.of(args[2]),
        Integer.parseInt(args[3]), Integer.parseInt(args[4]), args[5]);
    failures.forEach(f -> System.out.println("FAILED " + f));
    System.out.println("DONE " + args[5] + ": " + failures.size() + " failures");
    System.exit(failures.isEmpty() ? 0 : 1);
  }
}
