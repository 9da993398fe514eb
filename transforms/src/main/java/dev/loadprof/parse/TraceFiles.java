package dev.loadprof.parse;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** Opens trace files, decompressing gzip when the content (not the file name) says it is gzip. */
public final class TraceFiles {
  /** Buffer for decompression and reading; traces are gigabytes, so small buffers cost syscalls. */
  static final int BUFFER_BYTES = 1 << 16;

  private static final int GZIP_MAGIC_1 = 0x1f;
  private static final int GZIP_MAGIC_2 = 0x8b;

  private TraceFiles() {}

  /**
   * Returns a stream of the uncompressed text of {@code in}: a gzip decompressing stream if the
   * first two bytes are the gzip magic (concatenated gzip members are read as one; see {@link
   * GzipText} for damaged ones), else the bytes as they are. The returned stream owns {@code in}: closing it closes {@code in}.
   */
  public static InputStream open(InputStream in) throws IOException {
    BufferedInputStream buffered =
        in instanceof BufferedInputStream b ? b : new BufferedInputStream(in, BUFFER_BYTES);
    if (in instanceof Text) {
      return in;
    }
    if (isGzip(buffered)) {
      // The gzip reader reads through its own buffer; keep the buffered stream under it so the
      // two peeked bytes are not lost.
      GzipText gzip = new GzipText(buffered);
      return new Text(gzip, gzip);
    }
    return new Text(buffered, null);
  }

  /**
   * What ended a stream from {@link #open} early (a cut or corrupt gzip, bytes after the gzip
   * data), with the byte offset; null if it ended cleanly or is not such a stream.
   */
  public static String damage(InputStream opened) {
    return opened instanceof Text t && t.gzip != null ? t.gzip.damage() : null;
  }

  /** The uncompressed text of a trace, which knows how its input ended. */
  private static final class Text extends BufferedInputStream {
    private final GzipText gzip;

    Text(InputStream in, GzipText gzip) {
      super(in, BUFFER_BYTES);
      this.gzip = gzip;
    }
  }

  /** Opens a file, decompressing it if it is gzip. */
  public static InputStream open(Path path) throws IOException {
    InputStream raw = Files.newInputStream(path);
    try {
      return open(raw);
    } catch (IOException | RuntimeException e) {
      raw.close();
      throw e;
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
}
