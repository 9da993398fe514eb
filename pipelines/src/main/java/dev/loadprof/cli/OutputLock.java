package dev.loadprof.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The OS lock that makes a local --out one job's: an exclusive POSIX lock on
 * {@value #FILE}, held from the claim to the end of the job, released by the kernel when the
 * process dies however it dies.
 *
 * <p>POSIX locks belong to the process, and closing ANY descriptor of the file releases all of
 * the process's locks on it. So the holder's token (pid, start, command) is written and read
 * through the locked channel only, never through a second descriptor (reading it back with
 * Files.readString released the lock: two jobs ran at once on one --out), and a second claim in
 * this JVM is refused from {@link #HELD} without opening the file at all.
 *
 * <p>The file is deleted when the job ends (users asked for no trace in --out). That opens the
 * unlink race: a job that opened the file just before the holder deleted it locks an unlinked
 * inode, and a third job that creates the file anew locks another: both would run. So after
 * locking, a job checks that the path still names the inode it locked (the file keys of the path
 * and of its own descriptor, read from /proc/self/fd without opening the file) and starts again
 * if not. Without /proc (not Linux) that check is impossible: the file is then kept, and a kept
 * file is never a stale lock, since the lock, not the file, says whether --out is in use.
 */
final class OutputLock {
  static final String FILE = ".loadprof-lock";
  /** Unlink races in a row before giving up: each needs a job to end in between. */
  private static final int ATTEMPTS = 20;
  private static final Path OWN_FDS = Path.of("/proc/self/fd");
  private static final DateTimeFormatter STARTED = DateTimeFormatter.ofPattern(
      "yyyy-MM-dd HH:mm:ss");
  /** The --out directories (real paths) this JVM holds, with their tokens. */
  private static final Pattern PID = Pattern.compile("pid (\\d+)");
  private static final Map<Path, String> HELD = new ConcurrentHashMap<>();
  private static final List<FileChannel> KEPT_OPEN = new CopyOnWriteArrayList<>();

  private final Path dir;
  private final Path file;
  private final FileChannel channel;
  private final FileLock lock;
  private final boolean deleteOnRelease;

  private OutputLock(Path dir, FileChannel channel, FileLock lock, boolean deleteOnRelease) {
    this.dir = dir;
    this.file = dir.resolve(FILE);
    this.channel = channel;
    this.lock = lock;
    this.deleteOnRelease = deleteOnRelease;
  }

  /**
   * Locks the existing directory {@code local} (--out {@code out} as given, for messages), at
   * once or not at all; {@code token} ({@link #describeThisJob}) tells other jobs who holds it.
   *
   * @throws UsageException naming the holder when another job holds it
   */
  static OutputLock take(String out, Path local, String token) throws UsageException {
    Path dir;
    try {
      dir = local.toRealPath();
    } catch (IOException e) {
      throw cannotLock(out, e);
    }
    String heldHere = HELD.putIfAbsent(dir, token);
    if (heldHere != null) {
      throw inUse(out, heldHere);
    }
    try {
      for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
        OutputLock taken = tryOnce(out, dir, token);
        if (taken != null) {
          return taken;
        }
      }
      throw new UsageException("--out " + out + " cannot be locked: " + FILE + " was replaced "
          + ATTEMPTS + " times in a row while locking it; try again");
    } catch (UsageException | RuntimeException e) {
      HELD.remove(dir);
      throw e;
    }
  }

  /** This job's lock, or null when the file was unlinked or replaced under it (try again). */
  private static OutputLock tryOnce(String out, Path dir, String token) throws UsageException {
    Path file = dir.resolve(FILE);
    FileChannel channel = null;
    try {
      // NOFOLLOW: a symbolic link planted at the lock file's name is never written through.
      channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
          StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        // This JVM holds it under another path (a bind mount). Closing this descriptor would
        // release that lock: it stays open until the process ends.
        KEPT_OPEN.add(channel);
        throw inUse(out, holder(channel));
      }
      if (lock == null) {
        String holder = holder(channel); // through this channel: this process holds no lock
        channel.close();
        throw inUse(out, holder);
      }
      // First the token, then the end of a longer stale one: a reader sees a whole line.
      byte[] line = (token + "\n").getBytes(StandardCharsets.UTF_8);
      channel.write(ByteBuffer.wrap(line), 0);
      channel.truncate(line.length);
      channel.force(false);
      Boolean named = stillNamedBy(file);
      if (Boolean.FALSE.equals(named)) { // the holder deleted it as we opened it
        channel.close(); // releases the lock on the unlinked inode
        return null;
      }
      return new OutputLock(dir, channel, lock, named != null);
    } catch (IOException e) {
      if (!KEPT_OPEN.contains(channel)) {
        closeQuietly(channel);
      }
      throw cannotLock(out, e);
    }
  }

  /**
   * Deletes the lock file (while still holding the lock, so no job can have locked the path's
   * inode since) and releases the lock. Never throws: the lock goes with the process anyway.
   */
  void release() {
    try {
      if (deleteOnRelease) {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      // Left behind it is harmless: the lock, not the file, says whether --out is in use.
    }
    try {
      lock.release();
    } catch (IOException e) {
      // Released with the channel below anyway.
    }
    closeQuietly(channel);
    HELD.remove(dir);
  }

  /**
   * Whether the path names the inode of one of this process's open descriptors, i.e. the one
   * just locked ({@link #HELD} keeps any other descriptor of this file out of this JVM); null
   * when /proc/self/fd cannot tell.
   */
  static Boolean stillNamedBy(Path file) {
    Object key;
    try {
      key = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
          .fileKey();
    } catch (NoSuchFileException e) {
      return false;
    } catch (IOException e) {
      return null;
    }
    if (key == null || !Files.isDirectory(OWN_FDS)) {
      return null;
    }
    String name = file.getFileName().toString();
    try (DirectoryStream<Path> fds = Files.newDirectoryStream(OWN_FDS)) {
      for (Path fd : fds) {
        try {
          // The link's text names the file ("... (deleted)" once unlinked); stat follows it to
          // the open inode itself without opening the file.
          if (Files.readSymbolicLink(fd).getFileName().toString().startsWith(name)
              && key.equals(Files.readAttributes(fd, BasicFileAttributes.class).fileKey())) {
            return true;
          }
        } catch (IOException | RuntimeException e) {
          // A descriptor closed meanwhile, or not a file: not ours.
        }
      }
    } catch (IOException e) {
      return null;
    }
    return false;
  }

  /** This job for the user: "pid N (loadprof ARGS, started T)". */
  static String describeThisJob() {
    String command = command(System.getProperty("sun.java.command", ""));
    String started = LocalDateTime.now().truncatedTo(ChronoUnit.SECONDS).format(STARTED);
    return "pid " + ProcessHandle.current().pid() + " (" + (command.isEmpty() ? "" : command
        + ", ") + "started " + started + ")";
  }

  /**
   * "loadprof ARGS" from the JVM's main class and arguments (the launcher's property
   * sun.java.command; ProcessHandle has no arguments of a JVM with a long classpath), cut at
   * 120 chars; empty when the CLI is not the main class (a test).
   */
  static String command(String javaCommand) {
    String main = LoadprofCli.class.getName();
    if (!javaCommand.startsWith(main + " ")) {
      return "";
    }
    String command = "loadprof " + javaCommand.substring(main.length() + 1).strip();
    return command.length() <= 120 ? command : command.substring(0, 117) + "...";
  }

  /**
   * The holder's token. The holder writes it just after locking, over the token of a killed
   * job: until then the file is empty or names a dead pid, so the reader looks again for up to
   * a second.
   */
  private static String holder(FileChannel channel) throws IOException {
    String token = read(channel);
    for (int i = 0; i < 50 && !namesALiveProcess(token); i++) {
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      token = read(channel);
    }
    return token;
  }

  private static boolean namesALiveProcess(String token) {
    Matcher pid = PID.matcher(token);
    return pid.lookingAt() && ProcessHandle.of(Long.parseLong(pid.group(1)))
        .map(ProcessHandle::isAlive).orElse(false);
  }

  private static String read(FileChannel channel) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(4096, channel.size()));
    while (buffer.hasRemaining() && channel.read(buffer, buffer.position()) > 0) {
      // read what the holder wrote
    }
    String text = new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8);
    return text.lines().findFirst().orElse("").strip();
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

  private static UsageException inUse(String out, String holder) {
    String by = Objects.requireNonNullElse(holder, "").isEmpty() ? "another loadprof job"
        : holder;
    return new UsageException("--out " + out + " is in use by " + by + "; wait for it to"
        + " finish or give another --out");
  }

  private static UsageException cannotLock(String out, IOException e) {
    return new UsageException("--out " + out + " cannot be locked (" + e.getMessage()
        + "); give a directory loadprof can write");
  }
}
