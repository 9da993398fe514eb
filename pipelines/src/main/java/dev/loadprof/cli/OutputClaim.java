package dev.loadprof.cli;

import dev.loadprof.beam.WriteReports;
import dev.loadprof.compare.CompareOutputs;
import dev.loadprof.compare.NightlyOutputs;
import dev.loadprof.report.Reports;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.EmptyMatchTreatment;
import org.apache.beam.sdk.io.fs.MatchResult;
import org.apache.beam.sdk.io.fs.MoveOptions.StandardMoveOptions;
import org.apache.beam.sdk.io.fs.ResolveOptions.StandardResolveOptions;
import org.apache.beam.sdk.io.fs.ResourceId;

/**
 * An --out held by one job from start to end: the job writes into a private staging directory
 * inside --out, the CLI reads the job's summary and exit code from there (no other job writes
 * it), and {@link #publish} then replaces every loadprof output in --out with the staged files.
 * So --out holds exactly one job's outputs, never a mix.
 *
 * <p>A local --out is locked for the whole job ({@value #LOCK_FILE}, an OS file lock, released
 * when the process ends however it ends): a second job on it fails at once with "--out ... is
 * in use". Object stores (s3://, hdfs://, gs://) have no such lock: there a job still reads only
 * its own staged results, but two jobs publishing into one --out at once can interleave; give
 * each concurrent job its own --out.
 */
final class OutputClaim implements AutoCloseable {
  static final String LOCK_FILE = ".loadprof-lock";
  /** Staging directories start like the report writer's, so a killed job's is debris. */
  static final String STAGING_PREFIX = WriteReports.TMP_PREFIX + "job-";

  /** The file names of every loadprof command's outputs (analyze, compare, nightly). */
  static final Set<String> ALL_OUTPUT_NAMES = allOutputNames();

  private final String out;
  private final ResourceId staging;
  private final Lock lock;

  private OutputClaim(String out, ResourceId staging, Lock lock) {
    this.out = out;
    this.staging = staging;
    this.lock = lock;
  }

  /**
   * Checks --out ({@link OutputDir#checkWritable}), locks it when local, removes a killed job's
   * debris and opens a fresh staging directory.
   *
   * @throws UsageException when --out cannot be written or another job holds it
   */
  static OutputClaim take(String out) throws UsageException {
    OutputDir.checkWritable(out);
    Path local = OutputDir.localPath(out);
    Lock lock = null;
    if (local != null) {
      try {
        Files.createDirectories(local); // the job writes into it now
      } catch (IOException e) {
        throw new UsageException("--out " + out + " cannot be created (" + e.getMessage()
            + "); give a directory loadprof can write");
      }
      lock = Lock.take(out, local.resolve(LOCK_FILE));
    } else {
      org.slf4j.LoggerFactory.getLogger(OutputClaim.class).warn("--out {} is not on a local"
          + " disk, where loadprof cannot lock it: two jobs publishing into it at once may"
          + " interleave their files; give each concurrent job its own --out", out);
    }
    try {
      OutputDir.removeDebris(out);
      ResourceId staging = FileSystems.matchNewResource(out, true).resolve(
          STAGING_PREFIX + UUID.randomUUID(), StandardResolveOptions.RESOLVE_DIRECTORY);
      return new OutputClaim(out, staging, lock);
    } catch (UsageException | RuntimeException e) {
      if (lock != null) {
        lock.release();
      }
      throw e;
    }
  }

  /** Where the job writes its outputs: private to this job. */
  String staging() {
    return staging.toString();
  }

  /** --out as given, for messages. */
  String out() {
    return out;
  }

  /**
   * Moves the staged outputs into --out after deleting every loadprof output there (of any
   * command) that this job did not write; other files in --out are never touched.
   */
  void publish() throws IOException {
    List<ResourceId> staged = new ArrayList<>();
    for (MatchResult.Metadata m : FileSystems.match(staging.resolve("*",
        StandardResolveOptions.RESOLVE_FILE).toString(), EmptyMatchTreatment.ALLOW).metadata()) {
      if (!m.resourceId().isDirectory()) {
        staged.add(m.resourceId());
      }
    }
    ResourceId dir = FileSystems.matchNewResource(out, true);
    Set<String> names = new LinkedHashSet<>();
    List<ResourceId> targets = new ArrayList<>();
    for (ResourceId s : staged) {
      names.add(s.getFilename());
      targets.add(dir.resolve(s.getFilename(), StandardResolveOptions.RESOLVE_FILE));
    }
    List<ResourceId> stale = new ArrayList<>();
    for (String name : ALL_OUTPUT_NAMES) {
      if (!names.contains(name)) {
        stale.add(dir.resolve(name, StandardResolveOptions.RESOLVE_FILE));
      }
    }
    FileSystems.delete(stale, StandardMoveOptions.IGNORE_MISSING_FILES);
    FileSystems.rename(staged, targets, StandardMoveOptions.IGNORE_MISSING_FILES);
  }

  /** Deletes what is left of the staging directory and releases the lock. */
  @Override
  public void close() {
    try {
      Path local = OutputDir.localPath(staging.toString());
      if (local != null) {
        OutputDir.deleteTree(local);
      } else {
        FileSystems.delete(List.of(staging), StandardMoveOptions.IGNORE_MISSING_FILES);
      }
    } catch (IOException | RuntimeException e) {
      // A leftover staging directory is debris that the next job on this --out removes.
    } finally {
      if (lock != null) {
        lock.release();
      }
    }
  }

  private static Set<String> allOutputNames() {
    Set<String> names = new LinkedHashSet<>();
    Reports.ALL.forEach(r -> names.add(r.fileName()));
    CompareOutputs.WRITERS.forEach(w -> names.add(w.fileName()));
    NightlyOutputs.WRITERS.forEach(w -> names.add(w.fileName()));
    return Set.copyOf(names);
  }

  /**
   * The OS lock on --out's lock file. The file is deleted when released (so --out keeps no
   * trace of it); a job that locked a file that its holder had just deleted sees that the file
   * at the path is not the one it locked (its token is not in it), and reports --out in use.
   */
  private record Lock(Path file, FileChannel channel, FileLock lock) {
    static Lock take(String out, Path file) throws UsageException {
      FileChannel channel = null;
      try {
        channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.READ);
        FileLock lock;
        try {
          lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
          lock = null; // another job of this process holds it
        }
        String token = ProcessHandle.current().pid() + " " + UUID.randomUUID() + "\n";
        if (lock != null) {
          channel.truncate(0);
          channel.write(ByteBuffer.wrap(token.getBytes(StandardCharsets.UTF_8)), 0);
          channel.force(false);
        }
        if (lock == null || !token.equals(readOrNull(file))) {
          if (lock != null) {
            lock.release();
          }
          channel.close();
          throw inUse(out);
        }
        return new Lock(file, channel, lock);
      } catch (IOException e) {
        closeQuietly(channel);
        throw new UsageException("--out " + out + " cannot be locked (" + e.getMessage()
            + "); give a directory loadprof can write");
      }
    }

    void release() {
      try {
        Files.deleteIfExists(file); // still ours: nobody replaces it while we hold the lock
      } catch (IOException e) {
        // Left behind, it is harmless: the next job locks it again.
      }
      try {
        lock.release();
      } catch (IOException e) {
        // Released with the channel below anyway.
      }
      closeQuietly(channel);
    }

    private static String readOrNull(Path file) throws IOException {
      try {
        return Files.readString(file, StandardCharsets.UTF_8);
      } catch (NoSuchFileException e) {
        return null;
      }
    }

    private static void closeQuietly(FileChannel channel) {
      if (channel != null) {
        try {
          channel.close();
        } catch (IOException e) {
          // Nothing more to release.
        }
      }
    }

    private static UsageException inUse(String out) {
      return new UsageException("--out " + out + " is in use by another loadprof job; wait for"
          + " it to finish or give another --out");
    }
  }
}
