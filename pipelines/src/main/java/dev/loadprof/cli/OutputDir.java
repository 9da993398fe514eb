package dev.loadprof.cli;

import dev.loadprof.beam.WriteReports;
import java.io.IOException;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The --out directory, checked before the job starts so that a place loadprof cannot write is
 * exit 2 at once, not an IOException after the whole job. Only local paths are checked; other
 * file systems (gs://, s3://) fail when written, as before.
 */
final class OutputDir {
  private OutputDir() {}

  /**
   * Refuses an --out that is a file, lies under a file or a kernel file system (/proc, /sys),
   * or where a probe file cannot be created and deleted (permissions do not stop root, so the
   * probe writes for real).
   */
  static void checkWritable(String out) throws UsageException {
    Path dir = localPath(out);
    if (dir == null) {
      return;
    }
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw new UsageException("--out " + out + " is an existing file, not a directory; give a"
          + " new or existing directory");
    }
    Path existing = dir;
    while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
      existing = existing.getParent();
    }
    if (existing != null && !Files.isDirectory(existing)) {
      throw new UsageException("--out " + out + " cannot be created: " + existing
          + " is a file, not a directory; give a directory path");
    }
    if (existing != null && isKernelFileSystem(existing)) {
      throw new UsageException("--out " + out + " is under a kernel file system (/proc, /sys)"
          + " where files cannot be written; give a directory on a disk");
    }
    probe(out, dir, existing);
  }

  /**
   * Deletes the temporary directories that a killed job left in {@code out}; only loadprof's
   * own {@value WriteReports#TMP_PREFIX} directories, nothing else. Called only by the job that
   * holds --out ({@link OutputClaim}), so no live job's directory is removed.
   */
  static void removeDebris(String out) throws UsageException {
    Path dir = localPath(out);
    if (dir == null || !Files.isDirectory(dir)) {
      return;
    }
    List<Path> debris = new ArrayList<>();
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, WriteReports.TMP_PREFIX + "*")) {
      s.forEach(debris::add);
    } catch (IOException e) {
      throw new UsageException("cannot list --out " + out + ": " + e.getMessage());
    }
    for (Path d : debris) {
      try {
        deleteTree(d);
      } catch (IOException e) {
        throw new UsageException("cannot remove " + d + ", left by an earlier job: "
            + e.getMessage() + "; delete it by hand");
      }
    }
  }

  /**
   * Creates and deletes a probe file in --out, or in its nearest existing parent when --out is
   * new: the probe creates no directory, so two jobs probing the same new --out cannot remove
   * each other's (which made both fail as "not writable"). The job creates --out when it starts
   * ({@link OutputClaim}).
   */
  private static void probe(String out, Path dir, Path existing) throws UsageException {
    Path where = Files.isDirectory(dir) ? dir : existing;
    if (where == null) {
      return;
    }
    try {
      Path probe = where.resolve(".loadprof-probe-" + UUID.randomUUID());
      Files.createFile(probe);
      Files.delete(probe);
    } catch (IOException e) {
      throw notWritable(out, where, e);
    }
  }

  private static UsageException notWritable(String out, Path where, IOException e) {
    return new UsageException(notWritableLine(out, where, e));
  }

  /**
   * Why {@code where} (--out or its nearest existing parent) cannot be written, and the fix:
   * "Permission denied", a missing directory or a full disk by name, then -o DIR.
   */
  static String notWritableLine(String out, Path where, IOException e) {
    String cause;
    if (e instanceof AccessDeniedException) {
      cause = "Permission denied in " + where + " (for user " + System.getProperty("user.name")
          + ")";
    } else if (e instanceof NoSuchFileException) {
      cause = "no such directory: " + where;
    } else if (e instanceof FileSystemException fs && fs.getReason() != null) {
      cause = fs.getReason() + " in " + where
          + (fs.getReason().contains(FreeSpace.ENOSPC) ? " (the disk is full)" : "");
    } else {
      cause = e.getMessage() + " in " + where;
    }
    return "cannot write --out " + out + ": " + cause + "; give a directory you can write with"
        + " -o DIR" + (e instanceof FileSystemException fs && fs.getReason() != null
        && fs.getReason().contains(FreeSpace.ENOSPC) ? ", or free some space" : "");
  }

  private static boolean isKernelFileSystem(Path existing) {
    try {
      String type = Files.getFileStore(existing).type();
      return type.equals("proc") || type.equals("sysfs");
    } catch (IOException e) {
      return false;
    }
  }

  /** The local path of --out, or null for other file systems. */
  static Path localPath(String out) {
    if (out.startsWith("file:")) {
      return Path.of(URI.create(out)).toAbsolutePath().normalize();
    }
    if (out.matches("^[A-Za-z][A-Za-z0-9+.-]*://.*")) {
      return null;
    }
    return Path.of(out).toAbsolutePath().normalize();
  }

  static void deleteTree(Path root) throws IOException {
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        Files.delete(file);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
        if (e != null) {
          throw e;
        }
        Files.delete(d);
        return FileVisitResult.CONTINUE;
      }
    });
  }
}
