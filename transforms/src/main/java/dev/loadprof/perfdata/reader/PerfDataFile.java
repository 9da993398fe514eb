package dev.loadprof.perfdata.reader;

import java.io.IOException;
import java.nio.ByteBuffer;
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
  /** "PERFILE2" read little-endian: the first 8 bytes of a file and of a pipe-mode stream. */
  static final long MAGIC = 0x32454c4946524550L;
  private static final int FILE_HEADER_BYTES = 104;

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
  /** Where the feature bits start: a header of this size (an old perf's) has none. */
  private static final int FEATURE_BITS_AT = 72;
  /** perf_event_attr's first published size (PERF_ATTR_SIZE_VER0), and its ids' section. */
  private static final int MIN_ATTR_ENTRY_BYTES = 64 + 16;

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

  /**
   * Reads the header; throws {@link UnsupportedPerfDataException} for what perf script must do,
   * and its {@link DamagedHeaderException} when a size, offset or count does not fit the file.
   */
  static PerfDataFile open(Path path) throws IOException {
    PerfDataFile file = new PerfDataFile(path);
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      file.readHeader(new CheckedFile(ch));
    } catch (java.nio.BufferUnderflowException | IndexOutOfBoundsException
        | IllegalArgumentException e) {
      // every size is checked before use: this is a field inside a section that is wrong
      throw new UnsupportedPerfDataException("its header is damaged or of an unknown layout ("
          + e + ")");
    }
    return file;
  }

  private void readHeader(CheckedFile f) throws IOException {
    if (f.size < PipeRecords.HEADER_BYTES) {
      throw new UnsupportedPerfDataException("it is too short for a perf.data header");
    }
    ByteBuffer h = f.section(0, PipeRecords.HEADER_BYTES, 0, "the file header");
    long magic = h.getLong(0);
    if (magic == Long.reverseBytes(MAGIC)) {
      throw new UnsupportedPerfDataException("it was recorded big-endian");
    }
    if (magic != MAGIC) {
      throw new UnsupportedPerfDataException("it does not start with PERFILE2");
    }
    if (h.getLong(8) == PipeRecords.HEADER_BYTES) {
      throw new UnsupportedPerfDataException("it was written in pipe mode (perf record -o -)");
    }
    long headerSize = h.getLong(8);
    if (headerSize != FILE_HEADER_BYTES && headerSize != FEATURE_BITS_AT) {
      throw new DamagedHeaderException(8, "header size " + Long.toUnsignedString(headerSize)
          + " (perf writes " + FILE_HEADER_BYTES + ")");
    }
    if (f.size < headerSize) {
      throw new DamagedHeaderException(0, "the file (" + f.size + " bytes) is shorter than"
          + " its header");
    }
    h = f.section(0, headerSize, 8, "the file header");
    long attrSize = h.getLong(16);
    long attrsOffset = h.getLong(24);
    long attrsSize = h.getLong(32);
    dataOffset = h.getLong(40);
    dataSize = h.getLong(48);
    if (dataSize == 0) { // perf was killed before it wrote the header
      CheckedFile.checkInside(dataOffset, 0, 0, f.size, 40, "the data section");
      dataSize = f.size - dataOffset;
    }
    CheckedFile.checkInside(dataOffset, dataSize, 0, f.size, 40, "the data section");
    readAttrs(f, attrSize, attrsOffset, attrsSize);
    checkSameIdLayout(attrsOffset, attrSize);
    if (headerSize == FILE_HEADER_BYTES) {
      readFeatures(f, new long[] {h.getLong(72), h.getLong(80), h.getLong(88), h.getLong(96)});
    }
    if (attrs.isEmpty()) {
      throw new UnsupportedPerfDataException("it has no events");
    }
  }

  private void readAttrs(CheckedFile f, long attrSize, long offset, long size)
      throws IOException {
    // perf refuses attr_size 0 (it divides by it); an entry holds a perf_event_attr of at
    // least its first published size, then the {offset, size} of its ids.
    if (attrSize < MIN_ATTR_ENTRY_BYTES || attrSize > CheckedFile.MAX_SECTION_BYTES) {
      throw new DamagedHeaderException(16, "attr_size " + Long.toUnsignedString(attrSize)
          + " (an event's entry takes at least " + MIN_ATTR_ENTRY_BYTES + " bytes)");
    }
    ByteBuffer b = f.section(offset, size, 24, "the attrs section");
    if (size % attrSize != 0) {
      throw new DamagedHeaderException(32, "the attrs section's " + size + " bytes are no"
          + " whole number of " + attrSize + "-byte entries (attr_size)");
    }
    int entry = (int) attrSize;
    for (int at = 0; at < size; at += entry) {
      EventAttr attr = attrAt(b, at, "");
      long idsOffset = b.getLong(at + entry - 16);
      long idsSize = b.getLong(at + entry - 8);
      attrs.add(attr);
      ByteBuffer ids = f.section(idsOffset, idsSize, offset + at + entry - 16, "an event's ids");
      for (int i = 0; i + 8 <= idsSize; i += 8) {
        attrById.put(ids.getLong(i), attr);
      }
    }
  }

  /**
   * As perf (evlist__valid_sample_type, valid_sample_id_all): with several events, each has an
   * id, at the same place in samples and in the other records' trailers, and all or none have
   * sample_id_all. Otherwise records cannot be told apart: a damaged attr.
   */
  private void checkSameIdLayout(long attrsOffset, long attrSize) throws DamagedHeaderException {
    if (attrs.size() < 2) {
      return;
    }
    EventAttr first = attrs.get(0);
    for (int i = 0; i < attrs.size(); i++) {
      EventAttr a = attrs.get(i);
      if (idPosition(a, true) < 0 || idPosition(a, true) != idPosition(first, true)
          || idPosition(a, false) != idPosition(first, false)
          || a.sampleIdAll() != first.sampleIdAll()) {
        throw new DamagedHeaderException(attrsOffset + i * attrSize + 24, "event " + i
            + "'s sample_type or flags do not place its id as the other events' (perf refuses"
            + " this too: non matching sample_type)");
      }
    }
  }

  /**
   * Where an event's id is, in 8-byte fields: from a sample's start, or from a trailer's end
   * ({@code inSample} false); -1 when its records carry none.
   */
  private static int idPosition(EventAttr a, boolean inSample) {
    if (a.has(EventAttr.SAMPLE_IDENTIFIER)) {
      return 1;
    }
    if (!a.has(EventAttr.SAMPLE_ID)) {
      return -1;
    }
    long[] before = inSample
        ? new long[] {EventAttr.SAMPLE_IP, EventAttr.SAMPLE_TID, EventAttr.SAMPLE_TIME,
            EventAttr.SAMPLE_ADDR}
        : new long[] {EventAttr.SAMPLE_STREAM_ID, EventAttr.SAMPLE_CPU};
    int n = 1;
    for (long bit : before) {
      n += a.has(bit) ? 1 : 0;
    }
    return n;
  }

  static EventAttr attrAt(ByteBuffer b, int at, String name) {
    return new EventAttr(b.getInt(at), b.getLong(at + 8), b.getLong(at + 16),
        b.getLong(at + 24), b.getLong(at + 32), b.getLong(at + 40), name);
  }

  private void readFeatures(CheckedFile f, long[] bits) throws IOException {
    // The feature sections' index follows the data: one {offset, size} per feature bit set.
    List<Integer> present = new ArrayList<>();
    for (int bit = 0; bit < FEATURE_BITS; bit++) {
      if ((bits[bit / 64] >>> (bit % 64) & 1) != 0) {
        present.add(bit);
      }
    }
    long indexAt = dataOffset + dataSize; // both checked: no overflow
    ByteBuffer index = f.section(indexAt, present.size() * 16L, 48, "the feature index");
    for (int i = 0; i < present.size(); i++) {
      int feature = present.get(i);
      long offset = index.getLong(i * 16);
      long size = index.getLong(i * 16 + 8);
      long fieldAt = indexAt + i * 16L;
      try {
        readFeature(f, feature, offset, size, fieldAt);
      } catch (java.nio.BufferUnderflowException | IndexOutOfBoundsException
          | IllegalArgumentException e) {
        throw new DamagedHeaderException(offset, "feature section " + feature + " does not"
            + " hold its own fields (" + e.getClass().getSimpleName() + ")");
      }
    }
  }

  private void readFeature(CheckedFile f, int feature, long offset, long size, long fieldAt)
      throws IOException {
    switch (feature) {
      case FEAT_AUXTRACE -> throw new UnsupportedPerfDataException("it has AUX trace data");
      case FEAT_TRACING_DATA, FEAT_BUILD_ID, FEAT_HOSTNAME, FEAT_NRCPUS, FEAT_CLOCK_DATA,
          FEAT_EVENT_DESC, FEAT_COMPRESSED ->
          readFeature(feature, f.section(offset, size, fieldAt, "feature section " + feature),
              offset);
      default -> { } // not needed to decode the records loadprof uses
    }
  }

  /**
   * One feature section's bytes, which start at byte {@code sectionAt}: from the file's feature
   * index, or from a pipe's HEADER_FEATURE record (the same layout).
   */
  void readFeature(int feature, ByteBuffer b, long sectionAt) throws IOException {
    switch (feature) {
      case FEAT_TRACING_DATA -> tracepoints = TracepointFormats.parse(b);
      case FEAT_BUILD_ID -> readBuildIds(b);
      case FEAT_HOSTNAME -> hostName = CheckedFile.string(b, sectionAt, "the host name");
      case FEAT_NRCPUS -> cpus = b.getInt(0);
      // {u32 version, u32 clockid, u64 wall-clock ns, u64 clockid ns}
      case FEAT_CLOCK_DATA -> wallClockNs = b.remaining() >= 16 ? b.getLong(8) : 0;
      case FEAT_EVENT_DESC -> readEventNames(b, sectionAt);
      case FEAT_AUXTRACE -> throw new UnsupportedPerfDataException("it has AUX trace data");
      case FEAT_COMPRESSED -> CompressedRecords.checkMethod(b);
      default -> { } // not needed to decode the records loadprof uses
    }
  }

  /** EVENT_DESC: each event's attr, ids and name; the names perf script prints. */
  private void readEventNames(ByteBuffer b, long sectionAt) throws DamagedHeaderException {
    int events = CheckedFile.count(b, Integer.toUnsignedLong(b.getInt()), 8, sectionAt,
        "number of events");
    long attrSize = Integer.toUnsignedLong(b.getInt());
    for (int e = 0; e < events; e++) {
      CheckedFile.skip(b, attrSize, sectionAt, "an event's attr size");
      int ids = b.getInt();
      String name = CheckedFile.string(b, sectionAt, "an event's name");
      if (e < attrs.size()) {
        attrs.set(e, attrs.get(e).named(name)); // in the order of the attrs section
      }
      ids = CheckedFile.count(b, Integer.toUnsignedLong(ids), 8, sectionAt, "number of ids");
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
}
