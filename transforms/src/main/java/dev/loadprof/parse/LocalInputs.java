package dev.loadprof.parse;

import java.io.BufferedInputStream;
import java.io.FileInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What a local input is (a file, a FIFO, a shell's pipe, a device, a socket) and whether it can
 * be read as a trace: the checks that turn a read that would hang or fail late into one line at
 * once. A character device (/dev/zero, a terminal) is no trace; a FIFO is read only when a
 * writer holds it ({@link #openFifo}); a file this user may not read is named as such.
 */
public final class LocalInputs {
  /** How long a FIFO's reader waits for a writer to write, or to connect, before it gives up. */
  public static final long FIFO_WRITER_GRACE_MS = 2_000;
  /** Without leave to open the FIFO for writing too, the wait for a writer's open instead. */
  static final long FIFO_OPEN_WAIT_MS = 10_000;
  private static final int S_IFMT = 0170000;
  private static final int S_IFIFO = 0010000;
  private static final int S_IFCHR = 0020000;
  private static final int S_IFBLK = 0060000;
  private static final int S_IFSOCK = 0140000;

  /** Kinds of local input. A PIPE is anonymous (a shell's {@code <(...)}, /dev/fd/N). */
  public enum Kind { FILE, DIRECTORY, FIFO, PIPE, CHARACTER_DEVICE, BLOCK_DEVICE, SOCKET, MISSING }

  private LocalInputs() {}

  /** What {@code path} is, following links (a FIFO behind /dev/fd/N is a PIPE). */
  public static Kind kind(Path path) {
    int mode;
    try {
      mode = (Integer) Files.getAttribute(path, "unix:mode");
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return Files.isDirectory(path) ? Kind.DIRECTORY
          : Files.exists(path) ? Kind.FILE : Kind.MISSING;
    }
    return switch (mode & S_IFMT) {
      case S_IFIFO -> anonymousPipe(path) ? Kind.PIPE : Kind.FIFO;
      case S_IFCHR -> Kind.CHARACTER_DEVICE;
      case S_IFBLK -> Kind.BLOCK_DEVICE;
      case S_IFSOCK -> Kind.SOCKET;
      default -> Files.isDirectory(path) ? Kind.DIRECTORY : Kind.FILE;
    };
  }

  /** A link chain that ends in "pipe:[N]": an anonymous pipe reached through /proc. */
  private static boolean anonymousPipe(Path path) {
    Path p = path;
    for (int hops = 0; hops < 40 && Files.isSymbolicLink(p); hops++) {
      try {
        Path target = Files.readSymbolicLink(p);
        if (target.toString().startsWith("pipe:[")) {
          return true;
        }
        p = p.toAbsolutePath().getParent().resolve(target);
      } catch (IOException e) {
        return false;
      }
    }
    return false;
  }

  /**
   * Why {@code name} cannot be read as a trace (one line that names it and says what to give),
   * or null when it can be tried: checked before a job starts, and again where it is opened.
   */
  public static String whyUnreadable(String name) {
    Path path = Path.of(name);
    String what = switch (kind(path)) {
      case CHARACTER_DEVICE -> "is a character device (such as /dev/zero or a terminal), not a"
          + " trace";
      case SOCKET -> "is a socket";
      case BLOCK_DEVICE -> "is a block device";
      case FILE, FIFO, PIPE -> Files.isReadable(path) ? null
          : "cannot be read by this user (permission denied: " + permissions(path) + ")";
      default -> null;
    };
    return what == null ? null : name + " " + what + ": give a perf script trace (plain or"
        + " compressed) or a perf.data file that this user can read, a FIFO or pipe that a"
        + " program writes, or - for stdin";
  }

  private static String permissions(Path path) {
    try {
      return Files.getAttribute(path, "unix:owner", LinkOption.NOFOLLOW_LINKS) + " "
          + java.nio.file.attribute.PosixFilePermissions.toString(
              Files.getPosixFilePermissions(path));
    } catch (IOException | UnsupportedOperationException e) {
      return "its mode";
    }
  }

  /** The exception for a local input that failed to open, named as bad input when it is. */
  public static IOException unreadable(String name, IOException e) {
    if (e instanceof UnreadableTraceException || name.contains("://")) {
      return e;
    }
    String why = Files.exists(Path.of(name)) ? whyUnreadable(name) : null;
    return why == null ? e : new UnreadableTraceException(why);
  }

  /**
   * Opens a named FIFO to read once, when a program writes it; else throws at once (within
   * {@link #FIFO_WRITER_GRACE_MS}) with one line, where a plain open would wait forever for a
   * writer. This reader opens it for reading and writing first, which Linux never blocks, so the
   * read end opens at once and a writer already waiting in its open goes on; it waits up to the
   * grace for bytes (a writer late by a moment still counts), then lets go of its own write end:
   * from there the read ends only when every writer has closed, at once when there is none.
   */
  public static InputStream openFifo(String name) throws IOException {
    BufferedInputStream in;
    RandomAccessFile ownWriteEnd;
    try {
      ownWriteEnd = new RandomAccessFile(name, "rw");
    } catch (FileNotFoundException e) { // not ours to write: wait for a writer's open instead
      return firstByteOrNoWriter(name, new BufferedInputStream(openBounded(name)));
    }
    try (RandomAccessFile writeEnd = ownWriteEnd) {
      FileInputStream raw = new FileInputStream(name);
      in = new BufferedInputStream(raw, TraceFiles.BUFFER_BYTES);
      long deadline = System.nanoTime() + FIFO_WRITER_GRACE_MS * 1_000_000L;
      while (raw.available() == 0 && System.nanoTime() < deadline) {
        sleep(10);
      }
    }
    return firstByteOrNoWriter(name, in);
  }

  private static InputStream firstByteOrNoWriter(String name, BufferedInputStream in)
      throws IOException {
    in.mark(1);
    if (in.read() < 0) {
      in.close();
      throw new UnreadableTraceException(name + " is a FIFO that no program writes (nothing was"
          + " written to it): start the program that writes it first (e.g. perf script ... > "
          + name + " &), then loadprof, or give a file");
    }
    in.reset();
    return in;
  }

  /** A blocking open of the FIFO on a thread of its own, given up after FIFO_OPEN_WAIT_MS. */
  private static InputStream openBounded(String name) throws IOException {
    FutureTask<FileInputStream> open = new FutureTask<>(() -> new FileInputStream(name));
    Thread opener = new Thread(open, "loadprof-fifo-open");
    opener.setDaemon(true);
    opener.start();
    try {
      return open.get(FIFO_OPEN_WAIT_MS, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new UnreadableTraceException(name + " is a FIFO that no program opened to write"
          + " within " + FIFO_OPEN_WAIT_MS / 1000 + " s: start the program that writes it first,"
          + " then loadprof, or give a file");
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while opening " + name);
    }
  }

  private static void sleep(long ms) throws java.io.InterruptedIOException {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while waiting for a FIFO's writer");
    }
  }
}
