package dev.loadprof.archive.beam;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import org.apache.beam.sdk.io.fs.ResourceId;
import org.apache.beam.sdk.options.PipelineOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A run's figures computed once and stored beside it in the archive, so that later jobs read
 * them instead of its blocks (nightly's per-run figures: report.RunByRunWriter): under its
 * night's partition, as its index entry is, one file per blocks' version and figures' version,
 *
 * <pre>
 * figures/night=NIGHT/RUN_ID/JOB-bBLOCKS_VERSION-KIND.bin
 * </pre>
 *
 * so that a job with many runs of a night to look up lists the night's figures once ({@link
 * #nightGlob}) instead of asking for each run's (a request per run, most of them finding
 * nothing: a nightly's new night). Figures stored under figures/RUN_ID/ by loadprof before
 * this layout are not read: their runs are computed once more where no night figures file
 * holds them ({@link NightFigures}).
 *
 * where JOB is the archive job whose manifest lists the blocks (a run archived again, replaced
 * or repaired, has another), BLOCKS_VERSION how its blocks were built, and KIND the figures'
 * own name and version (raised when a fix changes them). A stale version is never read: the
 * next job computes the run's figures from its blocks and stores them under the new name.
 * Created only if absent, as manifests are: two jobs storing one run's figures at once store
 * the same bytes, and the second finds the first's. The content is checked by its SHA-256; a
 * damaged file is said and the run computed from its blocks.
 */
public final class RunFigures {
  public static final String FIGURES_DIR = "figures";
  private static final Logger LOG = LoggerFactory.getLogger(RunFigures.class);
  private static final byte[] HEADER = "loadprof-run-figures 1\n".getBytes(StandardCharsets.UTF_8);

  private RunFigures() {}

  /** Where the figures of a kind are stored for the run's blocks as its manifest lists them. */
  public static ResourceId file(String archive, String night, String runId, String jobId,
      int blocksVersion, String kind) {
    return ArchiveLayout.resolve(archive, nightDir(night) + runId + "/" + jobId + "-b"
        + blocksVersion + "-" + kind + ".bin");
  }

  /** The glob of every figures file stored of a night's runs (one '*' a level: Hadoop's). */
  static String nightGlob(String archive, String night) {
    return ArchiveLayout.resolve(archive, nightDir(night) + "*/*").toString();
  }

  /** "figures/night=N/", relative to the archive. */
  private static String nightDir(String night) {
    return FIGURES_DIR + "/night=" + night + "/";
  }

  /**
   * Figures as stored: the object and the file's bytes, or null with what is wrong with the
   * file (damaged, or of classes this loadprof cannot read).
   */
  public record Stored(Object figures, String problem, byte[] bytes) {}

  /**
   * The stored figures, or null when there are none. Damaged ones are logged and given with
   * their problem, for the run to be computed again from its blocks.
   */
  public static Stored read(ResourceId file) {
    // One request (on S3 a GET, where asking whether it is there and Beam's open add two HEADs):
    // most runs of a nightly have their figures stored.
    byte[] bytes;
    try {
      bytes = StoreListing.read(file.toString());
    } catch (java.io.FileNotFoundException | java.nio.file.NoSuchFileException e) {
      return null;
    } catch (IOException | RuntimeException e) {
      return ArchiveLayout.exists(file) ? unreadable(file, e) : null;
    }
    return decode(file, bytes);
  }

  /** The figures of a file's bytes as read already, checked. */
  public static Stored decode(ResourceId file, byte[] bytes) {
    return decode(file, bytes, false);
  }

  /**
   * The same; when {@code bytesChecked}, the bytes were checked by a checksum over them already
   * (a night figures file's: {@link NightFigures}), and theirs is not computed again.
   */
  public static Stored decode(ResourceId file, byte[] bytes, boolean bytesChecked) {
    try {
      byte[] payload = ChecksummedBytes.unwrap(bytes, HEADER, "figures file", bytesChecked);
      try (ObjectInputStream objects = new ObjectInputStream(
          new ByteArrayInputStream(payload))) {
        return new Stored(objects.readObject(), null, bytes);
      }
    } catch (IOException | ClassNotFoundException | RuntimeException e) {
      return unreadable(file, e);
    }
  }

  private static Stored unreadable(ResourceId file, Exception e) {
    String problem = file + ": stored figures cannot be read (" + e + "); the run is read"
        + " from its blocks. Delete the file to have them stored again";
    LOG.warn(problem);
    return new Stored(null, problem, null);
  }

  /**
   * For a job that reads stored figures of {@code kind} (not "") instead of blocks: true when
   * the run's are stored, given to {@code stored}; else false, and where they are to be stored
   * given to {@code toStore}. Counted ("figures_read", "figures_computed").
   */
  static boolean readInstead(String archive, dev.loadprof.schemas.RunManifestRecord manifest,
      String kind, boolean noBlocks,
      org.apache.beam.sdk.transforms.DoFn.OutputReceiver<org.apache.beam.sdk.values.KV<String,
          Serializable>> stored,
      org.apache.beam.sdk.transforms.DoFn.OutputReceiver<org.apache.beam.sdk.values.KV<String,
          String>> toStore) {
    if (kind.isEmpty() || noBlocks) {
      return false;
    }
    String runId = manifest.getRunId();
    ResourceId file = file(archive, manifest.getNight(), runId, manifest.getJobId(),
        manifest.getBlocksVersion(), kind);
    Stored found = read(file);
    if (found != null && found.problem() == null) {
      stored.output(org.apache.beam.sdk.values.KV.of(runId, (Serializable) found.figures()));
      org.apache.beam.sdk.metrics.Metrics.counter("loadprof", "figures_read").inc();
      return true;
    }
    toStore.output(org.apache.beam.sdk.values.KV.of(runId, file.toString()));
    org.apache.beam.sdk.metrics.Metrics.counter("loadprof", "figures_computed").inc();
    return false;
  }

  /**
   * Stores figures unless some are there already: the file's bytes when this call stored them,
   * else null. Best effort: a store that fails is said, and the next job computes them again.
   */
  public static byte[] store(ResourceId file, Serializable figures, PipelineOptions options) {
    try {
      byte[] bytes = encode(figures);
      return ExclusiveCreates.createIfAbsent(file, bytes, options) ? bytes : null;
    } catch (IOException | RuntimeException e) {
      LOG.warn("{}: could not store the run's figures ({}); the next job computes them again",
          file, e.toString());
      return null;
    }
  }

  private static byte[] encode(Serializable figures) throws IOException {
    ByteArrayOutputStream payload = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(payload)) {
      out.writeObject(figures);
    }
    return ChecksummedBytes.wrap(HEADER, payload.toByteArray());
  }
}
