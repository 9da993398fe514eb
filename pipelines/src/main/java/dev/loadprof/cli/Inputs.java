package dev.loadprof.cli;

import dev.loadprof.archive.beam.ArchiveLayout;
import dev.loadprof.archive.RunSelection;
import dev.loadprof.beam.ParseTraces;
import dev.loadprof.parse.TraceFiles;
import dev.loadprof.perfdata.PerfMissingException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.MatchResult;

/**
 * The inputs of a command resolved before the job starts: archives told from trace specs, globs
 * expanded, every file checked to exist, and every run id given once.
 */
final class Inputs {
  /** Trace files and archive directories, each run once, and the ids of all their runs. */
  record Resolved(List<String> traces, List<String> archives, List<String> runIds) {
    int runs() {
      return runIds.size();
    }
  }

  private Inputs() {}

  /**
   * The inputs of analyze: trace specs and archives, in any mix. What the archives' checks find
   * to say (runs missing from an index, archives without checksums) goes to {@code err}.
   */
  static Resolved forAnalyze(List<String> inputs, RunSelection selection, String event,
      Long windowNs, java.io.PrintStream err) throws UsageException {
    List<String> archives = new ArrayList<>();
    List<String> specs = new ArrayList<>();
    for (String input : inputs) {
      (ArchiveLayout.isArchive(input) ? archives : specs).add(input);
    }
    if (!selection.isAll() && archives.isEmpty()) {
      throw new UsageException("--nights and --hosts select runs of archives; no archive given");
    }
    Map<String, String> archivedRuns = ArchiveChecks.check(archives, selection, event, windowNs,
        err);
    List<String> traces = specs.isEmpty() ? List.of() : traceFiles(specs);
    for (String file : traces) {
      String manifest = archivedRuns.get(ParseTraces.runIdOf(file));
      if (manifest != null) {
        throw new UsageException(file + " has the run id of an archived run (" + manifest
            + "); give the trace or the archive, not both");
      }
    }
    List<String> runIds = new ArrayList<>();
    traces.forEach(file -> runIds.add(ParseTraces.runIdOf(file)));
    runIds.addAll(archivedRuns.keySet());
    return new Resolved(traces, archives, runIds);
  }

  /** Expands globs, checks every trace exists, and that no two traces have the same run id. */
  static List<String> traceFiles(List<String> specs) throws UsageException {
    List<String> files = new ArrayList<>();
    Map<String, String> byRunId = new HashMap<>();
    for (String spec : specs) {
      for (String file : match(spec)) {
        String runId = ParseTraces.runIdOf(file);
        String previous = byRunId.put(runId, file);
        if (previous != null && TraceFiles.isStream(file)) {
          throw new UsageException(file + " is given twice; a stream can be read only once");
        }
        if (previous != null && !previous.equals(file)) {
          throw new UsageException("two traces have the run id '" + runId + "': " + previous
              + " and " + file + "; rename one");
        }
        if (previous == null) {
          files.add(file);
        }
      }
    }
    return files;
  }

  private static List<String> match(String spec) throws UsageException {
    if (TraceFiles.isStream(spec)) {
      return List.of(spec); // stdin or a pipe: read once, as a stream, by the parse step
    }
    if (isLocalLiteral(spec) && Files.isRegularFile(Paths.get(spec))
        && TraceFiles.isPerfDataFile(Paths.get(spec))) {
      try {
        PerfMissingException.check(); // perf.data needs perf script; say so before the job
      } catch (PerfMissingException e) {
        throw new UsageException(spec + " is perf.data: " + e.getMessage());
      }
    }
    if (isLocalLiteral(spec) && !Files.exists(Paths.get(spec))) {
      // Checked here: Beam's local match of a missing path walks the tree from its nearest
      // existing parent, which for "/missing.txt.gz" is the whole disk.
      throw noSuchTrace(spec);
    }
    MatchResult match;
    try {
      match = FileSystems.match(spec);
    } catch (IOException | IllegalArgumentException e) {
      throw new UsageException("cannot read " + spec + ": " + e.getMessage());
    }
    List<MatchResult.Metadata> found;
    try {
      found = match.status() == MatchResult.Status.OK ? match.metadata() : List.of();
    } catch (IOException e) {
      found = List.of();
    }
    if (found.isEmpty()) {
      throw noSuchTrace(spec);
    }
    List<String> files = new ArrayList<>();
    for (MatchResult.Metadata m : found) {
      if (m.resourceId().isDirectory()) {
        throw new UsageException(spec + " is a directory; give trace files");
      }
      files.add(m.resourceId().toString());
    }
    return files;
  }

  static UsageException noSuchTrace(String spec) {
    return new UsageException("no such trace: " + spec
        + " (give perf script output, plain or .gz)");
  }

  /** A local path with no glob characters. */
  static boolean isLocalLiteral(String spec) {
    return !spec.contains("://") && spec.chars().noneMatch(c -> "*?[{".indexOf(c) >= 0);
  }
}
