package dev.loadprof.cli;

import dev.loadprof.archive.beam.ArchiveLayout;
import dev.loadprof.archive.RunSelection;
import dev.loadprof.beam.TraceRuns;
import dev.loadprof.compare.Side;
import dev.loadprof.parse.RunIds;
import dev.loadprof.parse.TraceFiles;
import dev.loadprof.perfdata.PerfMissingException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.MatchResult;

/**
 * The inputs of a command resolved before the job starts: archives told from trace specs, globs
 * expanded, every file checked to exist, every trace given a run id unique in the job, and the
 * traces with the same bytes as another found ({@link TraceRuns}: one trace, one run).
 */
final class Inputs {
  /** Trace files and archive directories, each run once, and the ids of all their runs. */
  record Resolved(List<String> traces, List<String> archives, List<String> runIds) {
    int runs() {
      return runIds.size();
    }
  }

  /** compare's inputs: both sides' traces and archives, and the side of each run id. */
  record Sides(List<String> traces, List<String> archives, Map<String, Side> sideByRun) {}

  /** One side's inputs: its trace files, its archives and their runs (id -> manifest). */
  private record Given(List<String> traces, List<String> archives,
      Map<String, String> archivedRuns) {}

  private Inputs() {}

  /**
   * The inputs of analyze: trace specs and archives, in any mix. What the archives' checks find
   * to say (runs missing from an index, archives without checksums) goes to {@code err}.
   */
  static Resolved forAnalyze(List<String> inputs, RunSelection selection, String event,
      Long windowNs, java.io.PrintStream err) throws UsageException {
    Given given = given(inputs, selection, event, windowNs, err);
    TraceRuns runs = traceRuns(given.traces());
    refuseArchivedRunIds(given, runs);
    List<String> runIds = new ArrayList<>(runs.runIds());
    runIds.addAll(given.archivedRuns().keySet());
    return new Resolved(given.traces(), given.archives(), runIds);
  }

  /**
   * The inputs of compare: each side's traces and archives, with run ids unique over both sides
   * (the job reads them as one). A file, or the same bytes, on both sides is refused: a run is
   * a baseline or a candidate, never both.
   */
  static Sides forCompare(List<String> baseline, List<String> candidate, String event,
      Long windowNs, java.io.PrintStream err) throws UsageException {
    Given base = given(baseline, RunSelection.all(), event, windowNs, err);
    Given cand = given(candidate, RunSelection.all(), event, windowNs, err);
    Set<String> baseTraces = new HashSet<>(base.traces());
    for (String file : cand.traces()) {
      if (baseTraces.contains(file)) {
        throw new UsageException(file + " is given as both a baseline and a candidate trace;"
            + " give each recording on one side only");
      }
    }
    List<String> traces = JudgedJob.concat(base.traces(), cand.traces());
    TraceRuns runs = traceRuns(traces);
    for (TraceRuns.Same same : runs.notCounted()) {
      if (baseTraces.contains(same.path()) != baseTraces.contains(same.keptPath())) {
        throw new UsageException("the same trace is on both sides: " + same.keptPath()
            + " and " + same.path() + " hold identical bytes (" + same.fingerprint() + "); give"
            + " each recording on one side only");
      }
    }
    refuseArchivedRunIds(base, runs);
    refuseArchivedRunIds(cand, runs);
    Map<String, Side> sides = new LinkedHashMap<>();
    base.traces().forEach(file -> sides.put(runs.runId(file), Side.BASELINE));
    base.archivedRuns().keySet().forEach(id -> sides.put(id, Side.BASELINE));
    List<String> candidateIds = new ArrayList<>();
    cand.traces().forEach(file -> candidateIds.add(runs.runId(file)));
    candidateIds.addAll(cand.archivedRuns().keySet());
    for (String id : candidateIds) {
      if (sides.put(id, Side.CANDIDATE) != null) {
        throw new UsageException("the run id '" + id + "' is both a baseline and a candidate"
            + " run; give each run on one side only (rename one of the traces if they differ)");
      }
    }
    return new Sides(traces, JudgedJob.concat(base.archives(), cand.archives()), sides);
  }

  private static Given given(List<String> inputs, RunSelection selection, String event,
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
    return new Given(traces, archives, archivedRuns);
  }

  /** The run ids of a job's traces, and which hold the same bytes as another (read here). */
  private static TraceRuns traceRuns(List<String> traces) throws UsageException {
    try {
      return TraceRuns.of(traces);
    } catch (IOException e) {
      throw new UsageException("cannot read " + e.getMessage());
    }
  }

  private static void refuseArchivedRunIds(Given given, TraceRuns runs) throws UsageException {
    for (String file : given.traces()) {
      String manifest = given.archivedRuns().get(runs.runId(file));
      if (manifest != null) {
        throw new UsageException(file + " has the run id of an archived run (" + manifest
            + "); give the trace or the archive, not both");
      }
    }
  }

  /**
   * Expands globs and checks that every trace exists; a file given twice (the same path) is
   * read once, a stream given twice is refused.
   */
  static List<String> traceFiles(List<String> specs) throws UsageException {
    Set<String> files = new LinkedHashSet<>();
    for (String spec : specs) {
      for (String file : match(spec)) {
        if (!files.add(file) && TraceFiles.isStream(file)) {
          throw new UsageException(file + " is given twice; a stream can be read only once");
        }
      }
    }
    return new ArrayList<>(files);
  }

  /**
   * The traces of archive: as {@link #traceFiles}, and no two with one run id, since an archive
   * names a run by its file name alone, for good.
   */
  static List<String> archiveTraceFiles(List<String> specs) throws UsageException {
    List<String> files = traceFiles(specs);
    Map<String, String> byRunId = new HashMap<>();
    for (String file : files) {
      String runId = RunIds.of(file);
      String previous = byRunId.put(runId, file);
      if (previous != null) {
        throw new UsageException("two traces have the run id '" + runId + "': " + previous
            + " and " + file + "; an archive names a run by its file name, so rename one");
      }
    }
    return files;
  }

  private static List<String> match(String spec) throws UsageException {
    if (TraceFiles.isStream(spec)) {
      return List.of(spec); // stdin or a pipe: read once, as a stream, by the parse step
    }
    if (isLocalLiteral(spec) && Files.isDirectory(Paths.get(spec))) {
      return recordingsIn(spec);
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

  /**
   * A local directory that is not an archive: the perf.data recordings in it, by name (what
   * {@code loadprof record -o DIR} keeps there, beside its outputs), each its own run.
   */
  private static List<String> recordingsIn(String dir) throws UsageException {
    List<String> recordings = new ArrayList<>();
    try (java.util.stream.Stream<java.nio.file.Path> list = Files.list(Paths.get(dir))) {
      for (java.nio.file.Path f : list.sorted().toList()) {
        if (Files.isRegularFile(f) && TraceFiles.isPerfDataFile(f)) {
          recordings.add(f.toString());
        }
      }
    } catch (IOException e) {
      throw new UsageException("cannot read " + dir + ": " + e.getMessage());
    }
    if (recordings.isEmpty()) {
      throw new UsageException(dir + " is a directory without perf.data recordings and is no"
          + " archive; give trace files, the directory of loadprof record's recordings, or an"
          + " archive");
    }
    List<String> checked = new ArrayList<>();
    for (String recording : recordings) {
      checked.addAll(match(recording)); // perf's presence checked as for a file given alone
    }
    return checked;
  }

  static UsageException noSuchTrace(String spec) {
    return new UsageException("no such trace: " + spec
        + " (give a perf.data recording or perf script output, plain or .gz)");
  }

  /** A local path with no glob characters. */
  static boolean isLocalLiteral(String spec) {
    return !spec.contains("://") && spec.chars().noneMatch(c -> "*?[{".indexOf(c) >= 0);
  }
}
