package dev.loadprof.beam;

import dev.loadprof.archive.NightRule;
import dev.loadprof.block.UnusablePolicy;
import dev.loadprof.model.RunInfo;
import dev.loadprof.parse.RunIds;
import dev.loadprof.parse.TraceFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.MatchResult;

/**
 * The runs of a job's trace files: one trace, one run. Each file's run id is unique in the job
 * ({@link RunIds#of(List)}: files of one name in different directories are distinct runs), and
 * files with the same bytes are one trace, read once: the run with the smallest id is counted,
 * every other is a run without events whose warning names both, so that analyze lists it and
 * compare and nightly leave it out and list it as excluded, as they do for an archive's runs of
 * one trace (dev.loadprof.archive.beam.ReadArchive).
 *
 * <p>The same bytes: the same size, then the same SHA-256 of the file. Only files whose size
 * another input has are hashed, so a job of recordings of different sizes reads nothing more;
 * hashing ran at about 300 MB/s on the 2-core build VM under load (bench/RESULTS.md section 28).
 * A trace and its gzipped copy are not the same bytes and count as two runs (an archive's
 * fingerprint, of the decompressed text, does tell them apart only when both are archived).
 * Streams (stdin, pipes) are read once and never compared.
 */
public final class TraceRuns implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Fingerprints already taken in this JVM: the CLI's check and its job's see the same. */
  private static final Map<String, String> FINGERPRINTS = new ConcurrentHashMap<>();

  /** A trace file with the same bytes as the one counted instead of it. */
  public record Same(String path, String runId, String keptPath, String keptRunId,
      String fingerprint) implements Serializable {
    /** One line naming both runs and files. */
    public String line() {
      return "run " + runId + " (" + path + ") is the same trace as run " + keptRunId + " ("
          + keptPath + "; identical bytes, " + fingerprint + "): counted once, as run "
          + keptRunId;
    }
  }

  private final LinkedHashMap<String, String> runIds;
  private final TreeMap<String, Same> sameAs;

  private TraceRuns(Map<String, String> runIds, Map<String, Same> sameAs) {
    this.runIds = new LinkedHashMap<>(runIds);
    this.sameAs = new TreeMap<>(sameAs);
  }

  /** The runs of {@code traces} (distinct paths): their ids, and which hold the same bytes. */
  public static TraceRuns of(List<String> traces) throws IOException {
    Map<String, String> ids = RunIds.of(traces);
    Map<Long, List<String>> bySize = new TreeMap<>();
    Map<String, MatchResult.Metadata> files = new TreeMap<>();
    for (String path : traces) {
      if (TraceFiles.isStream(path)) {
        continue;
      }
      MatchResult.Metadata file = FileSystems.matchSingleFileSpec(path);
      files.put(path, file);
      bySize.computeIfAbsent(file.sizeBytes(), k -> new ArrayList<>()).add(path);
    }
    List<String> toHash = new ArrayList<>();
    bySize.values().stream().filter(same -> same.size() > 1).forEach(toHash::addAll);
    Map<String, String> fingerprints = new ConcurrentHashMap<>();
    try {
      toHash.parallelStream().forEach(path -> {
        try {
          fingerprints.put(path, fingerprint(path, files.get(path)));
        } catch (IOException e) {
          throw new UncheckedIOException(path + ": " + e.getMessage(), e);
        }
      });
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    Map<String, List<String>> byContent = new TreeMap<>();
    fingerprints.forEach((path, f) -> byContent.computeIfAbsent(f, k -> new ArrayList<>())
        .add(path));
    Map<String, Same> sameAs = new TreeMap<>();
    byContent.forEach((fingerprint, paths) -> {
      paths.sort(Comparator.comparing(ids::get));
      String kept = paths.get(0);
      for (String path : paths.subList(1, paths.size())) {
        sameAs.put(path, new Same(path, ids.get(path), kept, ids.get(kept), fingerprint));
      }
    });
    return new TraceRuns(ids, sameAs);
  }

  /** The run ids of {@code traces} without reading them: every file counted. */
  public static TraceRuns named(List<String> traces) {
    return new TraceRuns(RunIds.of(traces), Map.of());
  }

  /** The run id of a trace of this job ({@link RunIds#of(String)} for any other path). */
  public String runId(String path) {
    String id = runIds.get(path);
    return id != null ? id : RunIds.of(path);
  }

  /** Every trace's run id, counted or not, in the order the traces were given. */
  public List<String> runIds() {
    return List.copyOf(runIds.values());
  }

  /** The trace counted instead of {@code path}, or null when {@code path} is counted. */
  public Same sameAs(String path) {
    return sameAs.get(path);
  }

  /** The traces not counted, by path. */
  public List<Same> notCounted() {
    return List.copyOf(sameAs.values());
  }

  /**
   * The run of a trace not counted: no events, and the warning that names both runs, which
   * analyze prints and compare and nightly give as the reason it is left out.
   */
  public RunInfo excludedRun(String path) {
    Same same = sameAs.get(path);
    RunInfo run = new RunInfo();
    run.runId = same.runId();
    run.source = path;
    run.warnings.add(same.line());
    NightRule.decide(run, 0, NightRule.today());
    return run;
  }

  /**
   * The run of a trace that could not be read at all (a damaged perf.data among several inputs):
   * no events, and unusable for {@code why}, the one line that names the file, so the job's
   * other runs are still analyzed and the CLI lists it among the traces not analyzed (exit 2).
   */
  public RunInfo unreadableRun(String path, String why) {
    RunInfo run = new RunInfo();
    run.runId = runId(path);
    run.source = path;
    run.unusableReason = why;
    run.warnings.add(UnusablePolicy.WARNING_PREFIX + why);
    NightRule.decide(run, 0, NightRule.today());
    return run;
  }

  /** "sha256:" and the hex SHA-256 of what {@code in} holds from here to its end. */
  public static String sha256(InputStream in) throws IOException {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM has no SHA-256", e);
    }
    byte[] buf = new byte[1 << 16];
    for (int n; (n = in.read(buf)) > 0; ) {
      sha.update(buf, 0, n);
    }
    return "sha256:" + HexFormat.of().formatHex(sha.digest());
  }

  private static String fingerprint(String path, MatchResult.Metadata file) throws IOException {
    String key = path + '\0' + file.sizeBytes() + '\0' + file.lastModifiedMillis();
    String known = FINGERPRINTS.get(key);
    if (known != null) {
      return known;
    }
    String fingerprint;
    try (InputStream in = Channels.newInputStream(FileSystems.open(file.resourceId()))) {
      fingerprint = sha256(in);
    }
    FINGERPRINTS.put(key, fingerprint);
    return fingerprint;
  }
}
