package dev.loadprof.perfdata.reader;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The header of a perf.data file (file mode): its events (attrs with their ids and names), where
 * the records are, and the feature sections decoding needs (tracepoint formats, build ids, host
 * name, number of CPUs). See perf's Documentation/perf.data-file-format.txt.
 */
final class PerfDataFile {
  private static final long MAGIC = 0x32454c4946524550L; // "PERFILE2" read little-endian
  private static final int FILE_HEADER_BYTES = 104;
  private static final int PIPE_HEADER_BYTES = 16;

  // Feature bits (perf's util/header.h).
  private static final int FEAT_TRACING_DATA = 1;
  private static final int FEAT_BUILD_ID = 2;
  private static final int FEAT_HOSTNAME = 3;
  private static final int FEAT_NRCPUS = 7;
  private static final int FEAT_EVENT_DESC = 12;
  private static final int FEAT_AUXTRACE = 18;
  private static final int FEAT_COMPRESSED = 27;
  private static final int FEAT_CLOCK_DATA = 29;
  private static final int FEATURE_BITS = 256;

  final Path path;
  final List<EventAttr> attrs = new ArrayList<>();
  final Map<Long, EventAttr> attrById = new HashMap<>();
  long dataOffset;
  long dataSize;
  TracepointFormats tracepoints = new TracepointFormats();
  /** Object path (as MMAP records name it) to build id, from the build-id section. */
  final Map<String, byte[]> buildIds = new HashMap<>();
  String hostName = "";
  int cpus;
  /**
   * CLOCK_DATA (perf record -k): the wall-clock time, in ns since the epoch, at which the
   * recording took its reference time; 0 when the file has no such section.
   */
  long wallClockNs;

  /** An empty header for {@code path}, filled by {@link #open} or by a pipe's header records. */
  PerfDataFile(Path path) {
    this.path = path;
  }

  /** Reads the header; throws {@link UnsupportedPerfDataException} for what perf script must do. */
  static PerfDataFile open(Path path) throws IOException {
    PerfDataFile file = new PerfDataFile(path);
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      file.readHeader(ch);
    } catch (java.nio.BufferUnderflowException | IllegalArgumentException e) {
      throw new UnsupportedPerfDataException("its header is damaged or of an unknown layout ("
          + e + ")");
    }
    return file;
  }

  private void readHeader(FileChannel ch) throws IOException {
    if (ch.size() < PIPE_HEADER_BYTES) {
      throw new UnsupportedPerfDataException("it is too short for a perf.data header");
    }
    ByteBuffer h = read(ch, 0, PIPE_HEADER_BYTES);
    long magic = h.getLong(0);
    if (magic == Long.reverseBytes(MAGIC)) {
      throw new UnsupportedPerfDataException("it was recorded big-endian");
    }
    if (magic != MAGIC) {
      throw new UnsupportedPerfDataException("it does not start with PERFILE2");
    }
    if (h.getLong(8) == PIPE_HEADER_BYTES) {
      throw new UnsupportedPerfDataException("it was written in pipe mode (perf record -o -)");
    }
    h = read(ch, 0, FILE_HEADER_BYTES);
    long attrSize = h.getLong(16);
    long attrsOffset = h.getLong(24);
    long attrsSize = h.getLong(32);
    dataOffset = h.getLong(40);
    dataSize = h.getLong(48);
    if (dataSize == 0) {
      dataSize = ch.size() - dataOffset; // perf was killed before it wrote the header
    }
    long[] features = {h.getLong(72), h.getLong(80), h.getLong(88), h.getLong(96)};
    readAttrs(ch, attrSize, attrsOffset, attrsSize);
    readFeatures(ch, features);
    if (attrs.isEmpty()) {
      throw new UnsupportedPerfDataException("it has no events");
    }
  }

  private void readAttrs(FileChannel ch, long attrSize, long offset, long size) throws IOException {
    ByteBuffer b = read(ch, offset, Math.toIntExact(size));
    int entry = Math.toIntExact(attrSize);
    for (int at = 0; at + entry <= size; at += entry) {
      EventAttr attr = attrAt(b, at, "");
      long idsOffset = b.getLong(at + entry - 16);
      long idsSize = b.getLong(at + entry - 8);
      attrs.add(attr);
      ByteBuffer ids = read(ch, idsOffset, Math.toIntExact(idsSize));
      for (int i = 0; i + 8 <= idsSize; i += 8) {
        attrById.put(ids.getLong(i), attr);
      }
    }
  }

  static EventAttr attrAt(ByteBuffer b, int at, String name) {
    return new EventAttr(b.getInt(at), b.getLong(at + 8), b.getLong(at + 16),
        b.getLong(at + 24), b.getLong(at + 32), b.getLong(at + 40), name);
  }

  private void readFeatures(FileChannel ch, long[] bits) throws IOException {
    // The feature sections' index follows the data: one {offset, size} per feature bit set.
    List<Integer> present = new ArrayList<>();
    for (int bit = 0; bit < FEATURE_BITS; bit++) {
      if ((bits[bit / 64] >>> (bit % 64) & 1) != 0) {
        present.add(bit);
      }
    }
    ByteBuffer index = read(ch, dataOffset + dataSize, present.size() * 16);
    for (int i = 0; i < present.size(); i++) {
      int feature = present.get(i);
      long offset = index.getLong(i * 16);
      int size = Math.toIntExact(index.getLong(i * 16 + 8));
      if (feature == FEAT_TRACING_DATA || feature == FEAT_BUILD_ID || feature == FEAT_HOSTNAME
          || feature == FEAT_NRCPUS || feature == FEAT_CLOCK_DATA || feature == FEAT_EVENT_DESC
          || feature == FEAT_COMPRESSED || feature == FEAT_AUXTRACE) {
        readFeature(feature, read(ch, offset, size));
      }
    }
  }

  /**
   * One feature section's bytes: from the file's feature index, or from a pipe's
   * HEADER_FEATURE record (the same layout).
   */
  void readFeature(int feature, ByteBuffer b) throws IOException {
    switch (feature) {
      case FEAT_TRACING_DATA -> tracepoints = TracepointFormats.parse(b);
      case FEAT_BUILD_ID -> readBuildIds(b);
      case FEAT_HOSTNAME -> hostName = perfString(b);
      case FEAT_NRCPUS -> cpus = b.getInt(0);
      // {u32 version, u32 clockid, u64 wall-clock ns, u64 clockid ns}
      case FEAT_CLOCK_DATA -> wallClockNs = b.remaining() >= 16 ? b.getLong(8) : 0;
      case FEAT_EVENT_DESC -> readEventNames(b);
      case FEAT_AUXTRACE -> throw new UnsupportedPerfDataException("it has AUX trace data");
      case FEAT_COMPRESSED -> CompressedRecords.checkMethod(b);
      default -> { } // not needed to decode the records loadprof uses
    }
  }

  /** EVENT_DESC: each event's attr, ids and name; the names perf script prints. */
  private void readEventNames(ByteBuffer b) {
    int events = b.getInt();
    int attrSize = b.getInt();
    for (int e = 0; e < events; e++) {
      int at = b.position();
      b.position(at + attrSize);
      int ids = b.getInt();
      String name = perfString(b);
      if (e < attrs.size()) {
        attrs.set(e, attrs.get(e).named(name)); // in the order of the attrs section
      }
      for (int i = 0; i < ids; i++) {
        long id = b.getLong();
        EventAttr attr = attrById.get(id);
        if (attr != null) {
          attrById.put(id, attr.named(name));
        }
      }
    }
  }

  /** BUILD_ID: records of {header, pid, build_id[24], filename}. */
  void readBuildIds(ByteBuffer b) {
    while (b.remaining() >= 8 + 4 + 24) {
      int start = b.position();
      short misc = b.getShort(start + 4);
      int size = Short.toUnsignedInt(b.getShort(start + 6));
      if (size < 36 || start + size > b.limit()) {
        return;
      }
      int idLength = (misc & 0x8000) != 0 ? Byte.toUnsignedInt(b.get(start + 12 + 20)) : 20;
      byte[] id = new byte[Math.min(idLength, 20)];
      b.get(start + 12, id);
      int nameStart = start + 36;
      int nameEnd = nameStart;
      while (nameEnd < start + size && b.get(nameEnd) != 0) {
        nameEnd++;
      }
      byte[] name = new byte[nameEnd - nameStart];
      b.get(nameStart, name);
      buildIds.putIfAbsent(new String(name, StandardCharsets.UTF_8), id);
      b.position(start + size);
    }
  }

  /** perf's header string: a u32 length, then that many bytes, NUL-padded. */
  private static String perfString(ByteBuffer b) {
    int length = b.getInt();
    byte[] bytes = new byte[length];
    b.get(bytes);
    int end = 0;
    while (end < length && bytes[end] != 0) {
      end++;
    }
    return new String(bytes, 0, end, StandardCharsets.UTF_8);
  }

  private static ByteBuffer read(FileChannel ch, long offset, int size) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    while (b.hasRemaining()) {
      if (ch.read(b, offset + b.position()) < 0) {
        throw new UnsupportedPerfDataException("it ends inside its header (" + size
            + " bytes at offset " + offset + ")");
      }
    }
    return b.flip();
  }
}
