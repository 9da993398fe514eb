package dev.loadprof.archive.beam;

import dev.loadprof.beam.TraceRuns;
import dev.loadprof.parse.TraceFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import org.apache.beam.sdk.io.FileSystems;

/**
 * The content fingerprint of a trace: SHA-256 of its decompressed text. Hashing the text rather
 * than the file makes x.txt and x.txt.gz (the same run id) the same trace, however it was
 * compressed.
 */
public final class TraceFingerprint {
  private TraceFingerprint() {}

  public static String of(String path) throws IOException {
    try (InputStream in = TraceFiles.open(Channels.newInputStream(
        FileSystems.open(FileSystems.matchSingleFileSpec(path).resourceId())))) {
      return TraceRuns.sha256(in);
    }
  }
}
