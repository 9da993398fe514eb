package dev.loadprof.cli;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Every temp file of one loadprof process in a directory of its own, removed when the process
 * exits. Embedded Flink left a 22 MB RPC jar and a mini-cluster directory in the temp dir at
 * every run that ended before Flink had closed (207 jars, 4.3 GB, on one machine), and a run
 * stopped with Ctrl-C leaves whatever its libraries had not yet removed. The libraries name
 * their files at random, so only a directory of our own tells which are ours.
 */
final class RunTempDir {
  static final String PREFIX = "loadprof-";

  /** The temp dir the user gave (or the JVM's default), before {@link #claim} moved below it. */
  private static volatile Path userTempDir;

  private RunTempDir() {}

  /**
   * Creates this process's directory below {@code java.io.tmpdir} and points the property at
   * it. Must run first in {@code main}: the JDK and Flink read the property once, at their
   * first temp file. When the directory cannot be made (a full or read-only temp dir) the
   * property stays as it was, and the job's own free-space check speaks.
   */
  static void claim() {
    Path parent = Paths.get(System.getProperty("java.io.tmpdir"));
    userTempDir = parent;
    Path own;
    try {
      own = Files.createTempDirectory(parent, PREFIX + ProcessHandle.current().pid() + "-");
    } catch (IOException | RuntimeException e) {
      return;
    }
    System.setProperty("java.io.tmpdir", own.toString());
    Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(own), "loadprof-temp-cleanup"));
  }

  /** The temp dir to name to the user: theirs, not this process's directory inside it. */
  static Path userTempDir() {
    Path dir = userTempDir;
    return dir != null ? dir : Paths.get(System.getProperty("java.io.tmpdir"));
  }

  /** Deletes {@code root} and everything below it, as far as it can; never throws. */
  static void deleteTree(Path root) {
    try {
      Files.walkFileTree(root, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
          delete(file);
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException e) {
          return FileVisitResult.CONTINUE; // gone already, or not ours to read
        }

        @Override
        public FileVisitResult postVisitDirectory(Path dir, IOException e) {
          delete(dir);
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException | RuntimeException e) {
      // the process is exiting; what stays is in one directory named after it
    }
  }

  private static void delete(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException | RuntimeException e) {
      // a file still written by a closing library, or not ours: leave it
    }
  }
}
