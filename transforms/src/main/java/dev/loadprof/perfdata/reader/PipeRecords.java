package dev.loadprof.perfdata.reader;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The records of a pipe-mode perf.data stream ({@code perf record -o -}, live or saved to a
 * file): a 16-byte header, then records only. What a file's header holds comes as records of
 * their own, which this applies to the {@link PerfDataFile} as they come and does not hand on:
 * HEADER_ATTR (an event and its ids), HEADER_TRACING_DATA (the tracepoint formats, in the
 * {@code size} bytes that follow the record), HEADER_BUILD_ID, HEADER_FEATURE (a feature
 * section). The stream is read once, front to back, through a small buffer: memory does not grow
 * with its length.
 */
final class PipeRecords implements RecordSource {
  static final int HEADER_BYTES = 16;

  // perf's own record types (perf's util/event.h).
  private static final int HEADER_ATTR = 64;
  private static final int HEADER_EVENT_TYPE = 65;
  private static final int HEADER_TRACING_DATA = 66;
  private static final int HEADER_BUILD_ID = 67;
  private static final int HEADER_FEATURE = 80;
  private static final int FINISHED_INIT = 82;
  /** perf_event_attr's first published size (PERF_ATTR_SIZE_VER0). */
  private static final int MIN_ATTR_BYTES = 64;
  /**
   * The largest tracing data read into memory: the kernel's formats are a few MiB at most; a
   * larger size is damage, and allocating it would only risk the heap.
   */
  private static final int MAX_TRACING_DATA_BYTES = 64 << 20;

  private final InputStream in;
  private final PerfDataFile file;
  private final byte[] header = new byte[RecordStream.HEADER_BYTES];
  /** Stream offset of the next byte to read. */
  private long position;
  private long recordOffset;
  /** The first record after the header records, read by {@link #open} and not yet returned. */
  private byte[] pending;
  /** True once a record that is not a header record was read: events may not change after. */
  private boolean started;
  /** Offset of the first record that is not a header record. */
  private long recordsFrom;

  private PipeRecords(InputStream in, PerfDataFile file, long position) {
    this.in = in instanceof BufferedInputStream ? in : new BufferedInputStream(in, 1 << 16);
    this.file = file;
    this.position = position;
  }

  /** True when the file at {@code path} was written in pipe mode. */
  static boolean isPipeMode(Path path) throws IOException {
    try (InputStream in = Files.newInputStream(path)) {
      byte[] h = in.readNBytes(HEADER_BYTES);
      if (h.length < HEADER_BYTES) {
        return false;
      }
      ByteBuffer b = ByteBuffer.wrap(h).order(ByteOrder.LITTLE_ENDIAN);
      return b.getLong(0) == PerfDataFile.MAGIC && b.getLong(8) == HEADER_BYTES;
    }
  }

  /**
   * Reads the stream's header and its header records into {@code file}, up to FINISHED_INIT or
   * the first other record; the records after are {@link #next}'s. Throws
   * {@link UnsupportedPerfDataException} for what the native reader does not decode.
   */
  static PipeRecords open(InputStream in, PerfDataFile file) throws IOException {
    PipeRecords records = new PipeRecords(in, file, 0);
    records.readFileHeader();
    records.readHeaderRecords();
    return records;
  }

  /**
   * The records of a saved pipe-mode file from {@code offset} on ({@link #dataStart} of an
   * {@link #open} of the same file), header records after it applied to {@code file}.
   */
  static PipeRecords resume(Path path, PerfDataFile file, long offset) throws IOException {
    InputStream in = Files.newInputStream(path);
    try {
      in.skipNBytes(offset);
    } catch (IOException e) {
      in.close();
      throw e;
    }
    PipeRecords records = new PipeRecords(in, file, offset);
    records.started = true;
    records.recordsFrom = offset;
    return records;
  }

  /** Offset of the first record that {@link #next} returns (or of the end). */
  long dataStart() {
    return pending != null ? recordOffset : position;
  }

  private void readFileHeader() throws IOException {
    byte[] h = in.readNBytes(HEADER_BYTES);
    position = h.length;
    ByteBuffer b = ByteBuffer.wrap(h).order(ByteOrder.LITTLE_ENDIAN);
    if (h.length < 8 || b.getLong(0) != PerfDataFile.MAGIC) {
      throw new UnsupportedPerfDataException(h.length >= 8 && b.getLong(0)
          == Long.reverseBytes(PerfDataFile.MAGIC) ? "it was recorded big-endian"
          : "it does not start with PERFILE2");
    }
    if (h.length < HEADER_BYTES || b.getLong(8) != HEADER_BYTES) {
      throw new UnsupportedPerfDataException("it was written to a file, not in pipe mode"
          + " (perf record -o -), and such a file is read only from a local path");
    }
  }

  private void readHeaderRecords() throws IOException {
    for (byte[] record; (record = read()) != null; ) {
      int type = type(record);
      if (type == FINISHED_INIT) {
        break;
      }
      if (!apply(record, type)) {
        pending = record;
        break;
      }
    }
    if (file.attrs.isEmpty()) {
      throw new UnsupportedPerfDataException("it has no events (no HEADER_ATTR record)");
    }
  }

  @Override
  public byte[] next() throws IOException {
    if (!started) {
      recordsFrom = dataStart();
    }
    started = true;
    if (pending != null) {
      byte[] record = pending;
      pending = null;
      return record;
    }
    for (byte[] record; (record = read()) != null; ) {
      if (!apply(record, type(record))) {
        return record;
      }
    }
    return null;
  }

  @Override
  public long recordOffset() {
    return recordOffset;
  }

  /** Applies a header record to the file; false for any other record. */
  private boolean apply(byte[] record, int type) throws IOException {
    try {
      return applyChecked(record, type);
    } catch (java.nio.BufferUnderflowException | IndexOutOfBoundsException
        | IllegalArgumentException e) {
      throw damage("a header record (type " + type + ") that does not hold its own fields ("
          + e.getClass().getSimpleName() + ")");
    }
  }

  private boolean applyChecked(byte[] record, int type) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(record).order(ByteOrder.LITTLE_ENDIAN);
    switch (type) {
      case HEADER_ATTR -> attr(b);
      case HEADER_TRACING_DATA -> tracingData(b);
      case HEADER_BUILD_ID -> file.readBuildIds(b);
      case HEADER_FEATURE -> {
        check(record.length >= 16, "a feature record of " + record.length + " bytes");
        long feature = b.getLong(8);
        if (feature >= 0 && feature < 256) {
          file.readFeature((int) feature, b.position(16).slice().order(ByteOrder.LITTLE_ENDIAN),
              recordOffset + 16);
        }
      }
      case HEADER_EVENT_TYPE, FINISHED_INIT -> { } // names come with EVENT_DESC
      default -> {
        return false;
      }
    }
    return true;
  }

  /** HEADER_ATTR: {header, perf_event_attr (its own size), u64 ids[] to the record's end}. */
  private void attr(ByteBuffer b) throws IOException {
    if (started) {
      // The decoders were set up for the events known then; perf record adds none later.
      throw new UnsupportedPerfDataException("an event is added after its records began (byte "
          + recordOffset + ")");
    }
    check(b.limit() >= 8 + MIN_ATTR_BYTES, "an event record of " + b.limit() + " bytes");
    long attrBytes = Integer.toUnsignedLong(b.getInt(8 + 4));
    check(attrBytes >= MIN_ATTR_BYTES && attrBytes <= b.limit() - 8,
        "an event of " + attrBytes + " bytes in a record of " + b.limit());
    EventAttr attr = PerfDataFile.attrAt(b, 8, "");
    file.attrs.add(attr);
    for (long at = 8 + attrBytes; at + 8 <= b.limit(); at += 8) {
      file.attrById.put(b.getLong((int) at), attr);
    }
  }

  /** HEADER_TRACING_DATA: {header, u32 size}, then {@code size} bytes (padded to 8). */
  private void tracingData(ByteBuffer b) throws IOException {
    check(b.limit() >= 12, "a tracing data record of " + b.limit() + " bytes");
    long size = Integer.toUnsignedLong(b.getInt(8));
    check(size <= MAX_TRACING_DATA_BYTES, "tracing data of " + size + " bytes");
    byte[] data = in.readNBytes((int) size);
    position += data.length;
    check(data.length == size, "the stream ends inside its tracing data");
    file.tracepoints = TracepointFormats.parse(
        ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN));
  }

  private void check(boolean holds, String what) throws IOException {
    if (!holds) {
      throw damage(what);
    }
  }

  /**
   * Damage in a header record: before the first event the native reader cannot start (perf
   * script may try), after it the read stops there as for any damaged record.
   */
  private IOException damage(String what) {
    String message = what + " at byte " + recordOffset;
    return started ? new IOException(message)
        : new UnsupportedPerfDataException("its header records are damaged: " + message);
  }

  /** The next record of the stream as it is, or null at its end. */
  private byte[] read() throws IOException {
    int n = in.readNBytes(header, 0, header.length);
    recordOffset = position;
    if (n == 0) {
      file.dataSize = position - recordsFrom;
      return null;
    }
    position += n;
    if (n < header.length) {
      throw damagedRecord("the data ends inside a record header");
    }
    int size = (header[6] & 0xff) | (header[7] & 0xff) << 8;
    if (size < header.length) {
      throw damagedRecord("record of size " + size);
    }
    byte[] record = new byte[size];
    System.arraycopy(header, 0, record, 0, header.length);
    int rest = in.readNBytes(record, header.length, size - header.length);
    position += rest;
    if (rest < size - header.length) {
      throw damagedRecord("the data ends inside the record");
    }
    return record;
  }

  /**
   * Damage before the first event: the native reader cannot start; after it, the read goes on
   * from {@link #resync}.
   */
  private IOException damagedRecord(String why) {
    return started ? new RecordStream.DamagedRecordException(recordOffset, why)
        : new UnsupportedPerfDataException("its header records are damaged: " + why + " at byte "
            + recordOffset);
  }

  /**
   * A stream is not read twice, so no later place can be tried: the rest of it is read and
   * dropped (its writer is not cut off), and counted as unread.
   */
  @Override
  public long resync(long damagedAt) throws IOException {
    position += in.transferTo(java.io.OutputStream.nullOutputStream());
    file.dataSize = position - recordsFrom;
    return position;
  }

  private static int type(byte[] record) {
    return ByteBuffer.wrap(record).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
