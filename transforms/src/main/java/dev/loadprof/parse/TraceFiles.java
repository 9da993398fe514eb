package dev.loadprof.parse;

import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.function.LongConsumer;
import org.apache.commons.compress.compressors.CompressorException;
import org.apache.commons.compress.compressors.CompressorStreamFactory;

/**
 * Opens traces: decompresses gzip, bzip2, xz and zstd when the content (not the file name) says
 * so, recognises perf.data by its magic, and reads stdin ({@code -}) and pipes as streams.
 */
public final class TraceFiles {
  /** Buffer for decompression and reading; traces are gigabytes, so small buffers cost syscalls. */
  static final int BUFFER_BYTES = 1 << 16;

  /** The input name that means standard input. */
  public static final String STDIN = "-";

  private static final int GZIP_MAGIC_1 = 0x1f;
  private static final int GZIP_MAGIC_2 = 0x8b;
  /** perf.data starts with "PERFILE2" (file and pipe mode alike). */
  private static final byte[] PERF_DATA_MAGIC = "PERFILE2".getBytes(StandardCharsets.US_ASCII);

  private TraceFiles() {}

  /**
   * Returns a stream of the uncompressed text of {@code in}: gzip (concatenated members read as
   * one; see {@link GzipText} for damaged ones), bzip2, xz and zstd are detected from their first
   * bytes; anything else is returned as it is. The returned stream owns {@code in}: closing it
   * closes {@code in}.
   */
  public static InputStream open(InputStream in) throws IOException {
    BufferedInputStream buffered =
        in instanceof BufferedInputStream b ? b : new BufferedInputStream(in, BUFFER_BYTES);
    if (in instanceof Text || in instanceof Counted) { // opened already
      return in;
    }
    if (isGzip(buffered)) {
      // The gzip reader reads through its own buffer; keep the buffered stream under it so the
      // two peeked bytes are not lost.
      GzipText gzip = new GzipText(buffered);
      return new Text(readAhead(gzip), gzip);
    }
    String other = otherCompression(buffered);
    if (other == null) {
      return new Text(buffered, null);
    }
    try {
      return new Text(readAhead(
          CompressorStreamFactory.getSingleton().createCompressorInputStream(other, buffered, true)),
          null);
    } catch (CompressorException e) {
      throw new IOException("cannot decompress " + other + ": " + e.getMessage(), e);
    }
  }

  /**
   * Decompression on a thread of its own, ahead of the parser (bench/run.sh gzip).
   * {@code -Dloadprof.readAhead=false} decompresses on the reading thread, to measure.
   */
  private static InputStream readAhead(InputStream decompressed) {
    return Boolean.parseBoolean(System.getProperty("loadprof.readAhead", "true"))
        ? new ReadAhead(decompressed) : decompressed;
  }

  /**
   * What ended a stream from {@link #open} early (a cut or corrupt gzip, bytes after the gzip
   * data), with the byte offset; null if it ended cleanly or is not such a stream.
   */
  public static String damage(InputStream opened) {
    if (opened instanceof Counted c) {
      return damage(c.opened);
    }
    return opened instanceof Text t && t.gzip != null ? t.gzip.damage() : null;
  }

  /**
   * {@code opened} (from {@link #open}) telling {@code bytesRead} how many bytes of text each
   * read returned (the console's progress counts text, not compressed bytes); how the input
   * ended is still known ({@link #damage}).
   */
  public static InputStream counting(InputStream opened, LongConsumer bytesRead) {
    return new Counted(opened, bytesRead);
  }

  private static final class Counted extends FilterInputStream {
    private final InputStream opened;
    private final LongConsumer bytesRead;

    Counted(InputStream opened, LongConsumer bytesRead) {
      super(opened);
      this.opened = opened;
      this.bytesRead = bytesRead;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        bytesRead.accept(1);
      }
      return b;
    }

    @Override
    public int read(byte[] buf, int off, int len) throws IOException {
      int n = super.read(buf, off, len);
      if (n > 0) {
        bytesRead.accept(n);
      }
      return n;
    }
  }

  /** The uncompressed text of a trace, which knows how its input ended. */
  private static final class Text extends BufferedInputStream {
    private final GzipText gzip;

    Text(InputStream in, GzipText gzip) {
      super(in, BUFFER_BYTES);
      this.gzip = gzip;
    }
  }

  /** Opens a file, decompressing it if it is compressed. */
  public static InputStream open(Path path) throws IOException {
    InputStream raw = Files.newInputStream(path);
    try {
      return open(raw);
    } catch (IOException | RuntimeException e) {
      raw.close();
      throw e;
    }
  }

  /**
   * True for stdin and for local pipes (FIFOs, {@code /dev/fd/N} of a shell's {@code <(...)}):
   * inputs that can be read only once, as a stream, and have no size.
   */
  public static boolean isStream(String name) {
    if (name.equals(STDIN)) {
      return true;
    }
    if (name.contains("://")) {
      return false;
    }
    try {
      Path p = Paths.get(name);
      return Files.exists(p) && !Files.isRegularFile(p) && !Files.isDirectory(p);
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** Opens a stream input (see {@link #isStream}) once; stdin is not closed by closing this. */
  public static InputStream openStream(String name) throws IOException {
    if (name.equals(STDIN)) {
      return new java.io.FilterInputStream(System.in) {
        @Override
        public void close() {
          // System.in stays open for whoever else reads it.
        }
      };
    }
    String why = LocalInputs.whyUnreadable(name);
    if (why != null) {
      throw new UnreadableTraceException(why); // a device or socket would be read forever
    }
    if (LocalInputs.kind(Paths.get(name)) == LocalInputs.Kind.FIFO) {
      return LocalInputs.openFifo(name); // a FIFO nothing writes would block the open forever
    }
    // Not Files.newInputStream: its available() asks the channel for its position, which a
    // pipe or FIFO does not have ("Illegal seek"); FileInputStream asks the kernel instead.
    return new java.io.FileInputStream(name);
  }

  /** True when the (decompressed) stream starts with perf.data's magic; nothing is consumed. */
  public static boolean isPerfData(InputStream decompressed) throws IOException {
    if (!decompressed.markSupported()) {
      return false;
    }
    byte[] head = new byte[PERF_DATA_MAGIC.length];
    decompressed.mark(head.length);
    int n = decompressed.readNBytes(head, 0, head.length);
    decompressed.reset();
    return n == head.length && Arrays.equals(head, PERF_DATA_MAGIC);
  }

  /** True when a local file starts with perf.data's magic (uncompressed). */
  public static boolean isPerfDataFile(Path path) {
    try (InputStream in = new BufferedInputStream(Files.newInputStream(path), 16)) {
      return isPerfData(in);
    } catch (IOException e) {
      return false;
    }
  }

  /** Peeks at the first two bytes without consuming them. */
  private static boolean isGzip(BufferedInputStream in) throws IOException {
    in.mark(2);
    int b1 = in.read();
    int b2 = b1 < 0 ? -1 : in.read();
    in.reset();
    return b1 == GZIP_MAGIC_1 && b2 == GZIP_MAGIC_2;
  }

  /** The commons-compress name of a bzip2, xz or zstd stream, or null. */
  private static String otherCompression(BufferedInputStream in) {
    try {
      String name = CompressorStreamFactory.detect(in);
      return switch (name) {
        case CompressorStreamFactory.BZIP2, CompressorStreamFactory.XZ,
            CompressorStreamFactory.ZSTANDARD -> name;
        default -> null;
      };
    } catch (CompressorException e) {
      return null; // no known signature: plain text (or perf.data)
    }
  }
}
