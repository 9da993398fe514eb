package dev.loadprof.archive.beam;

import dev.loadprof.archive.IndexEntry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A binary file loadprof stores beside an archive's runs (a run's figures, a night's figures):
 * a header line naming its kind and version, the SHA-256 of the rest in hex and a newline, then
 * the rest.
 */
final class ChecksummedBytes {
  private static final int SHA_HEX = 64;

  private ChecksummedBytes() {}

  static byte[] wrap(byte[] header, byte[] payload) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(header.length + SHA_HEX + 1
        + payload.length);
    bytes.writeBytes(header);
    bytes.writeBytes(IndexEntry.sha256Hex(payload).getBytes(StandardCharsets.US_ASCII));
    bytes.write('\n');
    bytes.writeBytes(payload);
    return bytes.toByteArray();
  }

  /**
   * The rest after the header and checksum, checked against its checksum unless {@code
   * checkedAlready} (a checksum over these bytes held already).
   *
   * @throws IOException "not a WHAT of this loadprof", or "checksum mismatch"
   */
  static byte[] unwrap(byte[] bytes, byte[] header, String what, boolean checkedAlready)
      throws IOException {
    int body = header.length + SHA_HEX + 1;
    if (bytes.length < body || !Arrays.equals(bytes, 0, header.length, header, 0, header.length)
        || bytes[body - 1] != '\n') {
      throw new IOException("not a " + what + " of this loadprof");
    }
    byte[] payload = Arrays.copyOfRange(bytes, body, bytes.length);
    if (!checkedAlready && !new String(bytes, header.length, SHA_HEX, StandardCharsets.US_ASCII)
        .equals(IndexEntry.sha256Hex(payload))) {
      throw new IOException("checksum mismatch");
    }
    return payload;
  }
}
