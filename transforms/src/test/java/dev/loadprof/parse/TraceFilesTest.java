package dev.loadprof.parse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorOutputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorOutputStream;
import org.apache.commons.compress.compressors.zstandard.ZstdCompressorOutputStream;
import org.junit.jupiter.api.Test;

/** Compression is detected from the content, whatever the name; perf.data by its magic. */
class TraceFilesTest {
  private static final byte[] TEXT = ("phases  1599/1599  [000]    47.948620415:     250000"
      + "          cpu-clock: \n\t  12f0 serial_phase (/p)\n\n").repeat(100)
      .getBytes(StandardCharsets.UTF_8);

  interface Compressor {
    OutputStream wrap(OutputStream out) throws IOException;
  }

  private static byte[] compress(Compressor c) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (OutputStream o = c.wrap(bytes)) {
      o.write(TEXT);
    }
    return bytes.toByteArray();
  }

  private static byte[] readBack(byte[] stored) throws IOException {
    try (InputStream in = TraceFiles.open(new ByteArrayInputStream(stored))) {
      return in.readAllBytes();
    }
  }

  @Test
  void everyCompressionIsDetectedFromItsBytes() throws IOException {
    assertArrayEquals(TEXT, readBack(TEXT));
    assertArrayEquals(TEXT, readBack(compress(GZIPOutputStream::new)));
    assertArrayEquals(TEXT, readBack(compress(BZip2CompressorOutputStream::new)));
    assertArrayEquals(TEXT, readBack(compress(XZCompressorOutputStream::new)));
    assertArrayEquals(TEXT, readBack(compress(ZstdCompressorOutputStream::new)));
  }

  @Test
  void perfDataIsRecognisedByItsMagic() throws IOException {
    InputStream data = TraceFiles.open(new ByteArrayInputStream(
        "PERFILE2\0\0\0\0".getBytes(StandardCharsets.US_ASCII)));
    assertTrue(TraceFiles.isPerfData(data));
    assertFalse(TraceFiles.isPerfData(TraceFiles.open(new ByteArrayInputStream(TEXT))));
    assertTrue(TraceFiles.isStream("-"));
    assertFalse(TraceFiles.isStream("/etc/hostname"));
  }
}
