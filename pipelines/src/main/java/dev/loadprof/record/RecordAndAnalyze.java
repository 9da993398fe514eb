package dev.loadprof.record;

import dev.loadprof.perfdata.PerfMissingException;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The core of {@code loadprof record [options] -- CMD ARGS...}: runs the program under perf record in the mode
 * that works here, then analyzes the recording like {@code analyze} and keeps the perf.data in
 * the output directory under a name of its own ({@link RecordingName}: the program and the
 * time it started), for re-analysis, compare and nightly. Exit code: the program's own when it ran (even if it
 * failed, the recording is analyzed); 2 when perf is missing, not permitted, or the program
 * cannot be started; the analysis' code when the analysis fails.
 */
public final class RecordAndAnalyze {
  static final int BAD_INPUT = 2;


  private RecordAndAnalyze() {}

  /** The mode asked for: system, process or auto; null with a message on err if unknown. */
  public static RecordMode mode(String name, PrintStream err) {
    switch (name) {
      case "auto":
        return RecordMode.auto();
      case "system":
        return RecordMode.SYSTEM;
      case "process":
        return RecordMode.PROCESS;
      default:
        err.println("loadprof record: --mode is system, process or auto, got '" + name + "'");
        return null;
    }
  }

  /**
   * Records {@code command} and analyzes the recording.
   *
   * @param name the recording's file name without .data (--name), or null for the program's
   *     name and the time the recording starts
   * @param mmapPages perf record's -m (pages a CPU, or a size such as 4M), or null for perf's
   *     default
   * @param analyzeArgs options for the analysis (e.g. --window), before the recording's path
   * @param analyze runs "loadprof analyze" with the given arguments and returns its exit code
   */
  public static int run(RecordMode recordMode, String outDir, String name, Integer freqHz,
      String mmapPages, List<String> command, List<String> analyzeArgs, PrintStream err,
      Function<String[], Integer> analyze) {
    String freq = freqHz == null ? null : Integer.toString(freqHz);
    if (command.isEmpty()) {
      err.println("loadprof record: no program given; usage: loadprof record [options] -- CMD"
          + " ARGS...");
      return BAD_INPUT;
    }
    if (freqHz != null && (freqHz < 1 || freqHz > 1_000_000)) {
      err.println("loadprof record: --freq takes a number of Hz, got '" + freq + "'");
      return BAD_INPUT;
    }
    if (mmapPages != null && !mmapPages.matches("[1-9][0-9]*[BKMGbkmg]?")) {
      err.println("loadprof record: --mmap-pages takes a number of pages (a power of 2, e.g."
          + " 2048) or a size such as 8M, got '" + mmapPages + "'");
      return BAD_INPUT;
    }
    try {
      PerfMissingException.check();
    } catch (PerfMissingException e) {
      err.println("loadprof record: " + e.getMessage());
      return BAD_INPUT;
    }
    String refused = recordMode.notPermittedReason();
    if (refused != null) {
      err.println("loadprof record: " + refused);
      return BAD_INPUT;
    }
    String program = command.get(0);
    if (!canRun(program)) {
      err.println("loadprof record: cannot run '" + program + "': not found or not executable"
          + " (exit 127 for a shell); give its path or put it on PATH");
      return BAD_INPUT;
    }
    String stem;
    try {
      stem = RecordingName.stem(program, name, Instant.now());
    } catch (IllegalArgumentException e) {
      err.println("loadprof record: " + e.getMessage());
      return BAD_INPUT;
    }
    Path dir = Path.of(outDir);
    Path data;
    try {
      data = RecordingName.claim(dir, stem);
    } catch (IOException e) {
      err.println("loadprof record: cannot write " + dir.resolve(stem + ".data") + ": "
          + e.getClass().getSimpleName() + " " + e.getMessage() + "; give a directory you can"
          + " write with -o DIR");
      return BAD_INPUT;
    }
    err.println("loadprof record: mode " + recordMode.name().toLowerCase() + " - "
        + recordMode.description);
    List<String> perfCommand = new ArrayList<>(recordMode.perfRecordArgs(data, freq));
    if (mmapPages != null) {
      perfCommand.addAll(List.of("-m", mmapPages)); // perf checks the power of 2 itself
    }
    perfCommand.add("--");
    perfCommand.addAll(command);
    PerfRecorder.Result result;
    try {
      result = PerfRecorder.run(perfCommand, err);
    } catch (IOException e) {
      err.println("loadprof record: cannot run perf: " + e.getMessage());
      return BAD_INPUT;
    }
    if (!isRecording(data)) {
      deleteQuietly(data); // the empty file that claimed the name
      err.println("loadprof record: perf record failed (exit " + result.exitCode() + ") and"
          + " wrote no recording: " + lastLines(result.stderrTail()) + hint(recordMode));
      return BAD_INPUT;
    }
    if (result.interrupted()) {
      err.println("loadprof record: interrupted; analyzing what was recorded");
    } else if (result.exitCode() != 0) {
      err.println("loadprof record: " + program + " exited with code " + result.exitCode()
          + "; analyzing the recording anyway");
    }
    // No --comm: the recording says which program perf started (its subject), and analyze
    // leads with it; a system-wide recording's other processes stay in summary.json.
    List<String> a = new ArrayList<>(List.of("analyze", "--out", outDir));
    a.addAll(analyzeArgs);
    a.add(data.toString());
    int analyzed = analyze.apply(a.toArray(new String[0]));
    err.println("loadprof record: recorded in " + recordMode.name().toLowerCase() + " mode; the"
        + " recording is kept in " + data + ", a file of its own (loadprof analyze " + data
        + (name == null ? "; compare and nightly take " + dir.resolve(
            Path.of(program).getFileName() + "-*.data") + " as they are" : "") + ")");
    if (analyzed != 0) {
      return analyzed;
    }
    return result.interrupted() ? 130 : result.exitCode();
  }

  private static String hint(RecordMode mode) {
    return mode == RecordMode.SYSTEM
        ? " (if not permitted: run as root, set sysctl kernel.perf_event_paranoid=-1, or use"
            + " --mode process)"
        : " (if not permitted: set sysctl kernel.perf_event_paranoid=2 or lower)";
  }

  private static String lastLines(String text) {
    List<String> lines = text.lines().filter(l -> !l.isBlank()).toList();
    return String.join(" / ", lines.subList(Math.max(0, lines.size() - 3), lines.size()));
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // an empty file left behind says nothing wrong
    }
  }

  /** A perf.data with more than its header: perf got as far as writing the recording. */
  private static boolean isRecording(Path data) {
    try {
      return Files.size(data) > 0;
    } catch (IOException e) {
      return false;
    }
  }

  /** A path that is an executable file, or a name found on PATH. */
  static boolean canRun(String program) {
    if (program.contains("/")) {
      return Files.isExecutable(Path.of(program)) && !Files.isDirectory(Path.of(program));
    }
    String path = System.getenv("PATH");
    for (String dir : (path == null ? "" : path).split(File.pathSeparator)) {
      Path p = Path.of(dir.isEmpty() ? "." : dir, program);
      if (Files.isExecutable(p) && !Files.isDirectory(p)) {
        return true;
      }
    }
    return false;
  }
}
