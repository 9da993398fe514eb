package dev.loadprof.perfdata.reader;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;

/**
 * The one way the header's sizes, offsets and counts reach the bytes of a perf.data file: each is
 * checked against the file's size, and against the section it lies in, before anything is
 * allocated or indexed. A check that fails is a {@link DamagedHeaderException} naming the byte
 * offset of the field that was wrong. The bounds are tested by subtraction, never by a sum that
 * could overflow ({@code offset + size > end} is false for a size of 2^63 - 1).
 */
final class CheckedFile {
  /**
   * The largest header section read into memory. perf's own sections (tracepoint formats, build
   * ids, event names) are a few MiB even on big machines; a larger size is a damaged field, and
   * allocating it would only risk running out of heap.
   */
  static final int MAX_SECTION_BYTES = 64 << 20;

  private final FileChannel channel;
  final long size;

  CheckedFile(FileChannel channel) throws IOException {
    this.channel = channel;
    this.size = channel.size();
  }

  /**
   * The {@code length} bytes at {@code offset} (both as read from the file, at byte
   * {@code fieldAt}), little-endian, positioned at 0.
   */
  ByteBuffer section(long offset, long length, long fieldAt, String what) throws IOException {
    checkInside(offset, length, 0, size, fieldAt, what);
    if (length > MAX_SECTION_BYTES) {
      throw new DamagedHeaderException(fieldAt, what + " claims " + length + " bytes, more than"
          + " perf writes (" + MAX_SECTION_BYTES + " at most)");
    }
    ByteBuffer b = ByteBuffer.allocate((int) length).order(ByteOrder.LITTLE_ENDIAN);
    while (b.hasRemaining()) {
      if (channel.read(b, offset + b.position()) < 0) { // the file shrank while read
        throw new DamagedHeaderException(offset, "the file ends inside " + what);
      }
    }
    return b.flip();
  }

  /**
   * Checks that {@code [offset, offset + length)} lies in {@code [start, end)}, without sums
   * that overflow; negative values (u64 fields above 2^63) are outside.
   */
  static void checkInside(long offset, long length, long start, long end, long fieldAt,
      String what) throws DamagedHeaderException {
    if (offset < start || length < 0 || offset > end || length > end - offset) {
      throw new DamagedHeaderException(fieldAt, what + " (" + Long.toUnsignedString(length)
          + " bytes at byte " + Long.toUnsignedString(offset) + ") lies outside "
          + (start == 0 ? "the file (" + end + " bytes)" : "bytes " + start + " to " + end));
    }
  }

  /**
   * A count read from a section: checked that {@code count} elements of {@code elementBytes}
   * fit in what is left of {@code b} (at file byte {@code sectionAt + b.position()}).
   */
  static int count(ByteBuffer b, long count, int elementBytes, long sectionAt, String what)
      throws DamagedHeaderException {
    if (count < 0 || count > b.remaining() / elementBytes) {
      throw new DamagedHeaderException(sectionAt + b.position(), what + " " + count
          + " does not fit in the " + b.remaining() + " bytes left of its section");
    }
    return (int) count;
  }

  /** Moves {@code b} on by {@code n} bytes read from the file, checked as {@link #count}. */
  static void skip(ByteBuffer b, long n, long sectionAt, String what)
      throws DamagedHeaderException {
    b.position(b.position() + count(b, n, 1, sectionAt, what));
  }

  /**
   * perf's header string: a u32 length, then that many bytes, NUL-padded; the length checked
   * against its section before the bytes are copied.
   */
  static String string(ByteBuffer b, long sectionAt, String what) throws DamagedHeaderException {
    long lengthAt = sectionAt + b.position();
    if (b.remaining() < 4) {
      throw new DamagedHeaderException(lengthAt, what + ": no room for its length");
    }
    long length = Integer.toUnsignedLong(b.getInt());
    if (length > b.remaining()) {
      throw new DamagedHeaderException(lengthAt, what + " of length " + length
          + " does not fit in the " + b.remaining() + " bytes left of its section");
    }
    int checked = (int) length;
    byte[] bytes = new byte[checked];
    b.get(bytes);
    int end = 0;
    while (end < checked && bytes[end] != 0) {
      end++;
    }
    return new String(bytes, 0, end, StandardCharsets.UTF_8);
  }
}
