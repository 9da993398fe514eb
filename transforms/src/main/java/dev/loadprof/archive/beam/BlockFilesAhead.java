package dev.loadprof.archive.beam;

import dev.loadprof.archive.BlockFileRef;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/** A small run's block files on a store read whole, ahead of the run's turn. */
public final class BlockFilesAhead {
  private BlockFilesAhead() {}

  /** A run's block files read ahead in at most: a few runs' worth stays small in memory. */
  public static final long MAX_BYTES = 4L << 20;

  /**
   * The bytes of a small run's block files on a store, each in one request (on S3 a GET, where
   * opening it adds a HEAD), for a job in this JVM to read ahead of the run's turn, many runs at
   * once: read one after another they cost a request's latency each. Empty for local files, a
   * run of more than {@link #MAX_BYTES}, or a file that could not be read so (it is
   * then opened at the run's turn, where what is wrong with it is said).
   */
  public static Map<String, byte[]> of(ReadArchive.LocalRun run) {
    long total = 0;
    for (BlockFileRef file : run.files()) {
      total += file.sizeBytes();
    }
    if (run.files().isEmpty() || total > MAX_BYTES
        || !run.files().get(0).path().contains("://")) {
      return Map.of();
    }
    Map<String, byte[]> read = new HashMap<>();
    for (BlockFileRef file : run.files()) {
      try {
        read.put(file.path(), StoreListing.read(file.path()));
      } catch (IOException | RuntimeException e) {
        // opened at its turn instead, which names what is wrong
      }
    }
    return read;
  }
}
