package dev.loadprof.archive.beam;

import dev.loadprof.parse.TraceFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.apache.beam.sdk.io.FileSystems;

/**
 * The content fingerprint of a trace: SHA-256 of its decompressed text. Hashing the text rather
 * than the file makes x.txt and x.txt.gz (the same run id) the same trace, however it was
 * compressed.
 */
public final class TraceFingerprint {
  private TraceFingerprint() {}

  public static String of(String path) throws IOException {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM has no SHA-256", e);
    }
    try (InputStream in = TraceFiles.open(Channels.newInputStream(
        FileSystems.open(FileSystems.matchSingleFileSpec(path).resourceId())))) {
      byte[] buf = new byte[1 << 16];
      for (int n; (n = in.read(buf)) > 0; ) {
        sha.update(buf, 0, n);
      }
    }
    return "sha256:" + HexFormat.of().formatHex(sha.digest());
  }
}
