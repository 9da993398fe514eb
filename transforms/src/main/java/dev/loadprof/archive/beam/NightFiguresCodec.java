package dev.loadprof.archive.beam;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * The bytes of a night figures file ({@link NightFigures}): a header line, the SHA-256 of the
 * rest, then gzip of the night, its set, each night index's bytes and each run's manifest and
 * figures files' bytes. Every count and size read is checked against what is left before it is
 * used.
 */
final class NightFiguresCodec {
  private static final byte[] HEADER =
      "loadprof-night-figures 1\n".getBytes(StandardCharsets.US_ASCII);
  /** The content's size at most once inflated: far above a night's files. */
  static final int MAX_CONTENT_BYTES = 1 << 30;

  private NightFiguresCodec() {}

  /** A run's files as a night figures file holds them ({@code figures} null: none stored). */
  record Entry(byte[] manifest, byte[] figures) {}

  /** A night figures file's content: night indexes by name, runs by "RUN_ID@JOB". */
  record Content(Map<String, byte[]> indexes, Map<String, Entry> runs) {}

  static byte[] encode(String night, String set, Content c) throws IOException {
    ByteArrayOutputStream content = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(new GZIPOutputStream(content))) {
      out.writeUTF(night);
      out.writeUTF(set);
      out.writeInt(c.indexes().size());
      for (Map.Entry<String, byte[]> i : c.indexes().entrySet()) {
        out.writeUTF(i.getKey());
        out.writeInt(i.getValue().length);
        out.write(i.getValue());
      }
      out.writeInt(c.runs().size());
      for (Map.Entry<String, Entry> r : c.runs().entrySet()) {
        out.writeUTF(r.getKey());
        out.writeInt(r.getValue().manifest().length);
        out.write(r.getValue().manifest());
        byte[] figures = r.getValue().figures();
        out.writeInt(figures == null ? -1 : figures.length);
        if (figures != null) {
          out.write(figures);
        }
      }
    }
    return ChecksummedBytes.wrap(HEADER, content.toByteArray());
  }

  /**
   * A file's content; every count and size is checked against what is left before it is used.
   *
   * @throws IOException saying what is wrong, when the file is damaged or of another night
   */
  static Content decode(byte[] bytes, String night, String set) throws IOException {
    byte[] gzipped = ChecksummedBytes.unwrap(bytes, HEADER, "night figures file", false);
    byte[] content;
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped))) {
      content = in.readNBytes(MAX_CONTENT_BYTES + 1);
    }
    if (content.length > MAX_CONTENT_BYTES) {
      throw new IOException("more than " + MAX_CONTENT_BYTES + " bytes once inflated");
    }
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(content));
    String itsNight = in.readUTF();
    String itsSet = in.readUTF();
    if (!itsNight.equals(night) || !itsSet.equals(set)) {
      throw new IOException("it is of night " + itsNight + " (night indexes " + itsSet
          + "), not " + night + " (" + set + ")");
    }
    Map<String, byte[]> indexes = new TreeMap<>();
    int count = count(in, "night indexes");
    for (int i = 0; i < count; i++) {
      String name = in.readUTF();
      if (indexes.put(name, sized(in, in.readInt(), false, name)) != null) {
        throw new IOException(name + " is in it twice");
      }
    }
    // Taken from as the job uses them (the bytes are let go): on several threads.
    Map<String, Entry> runs = new ConcurrentHashMap<>();
    count = count(in, "runs");
    for (int i = 0; i < count; i++) {
      String run = in.readUTF();
      byte[] manifest = sized(in, in.readInt(), false, run);
      byte[] figures = sized(in, in.readInt(), true, run);
      if (runs.put(run, new Entry(manifest, figures)) != null) {
        throw new IOException("run " + run + " is in it twice");
      }
    }
    if (in.available() > 0) {
      throw new IOException(in.available() + " bytes after its last run");
    }
    return new Content(indexes, runs);
  }

  private static int count(DataInputStream in, String what) throws IOException {
    int count = in.readInt();
    if (count < 0 || count > in.available()) {
      throw new IOException("it states " + count + " " + what + " in " + in.available()
          + " bytes");
    }
    return count;
  }

  private static byte[] sized(DataInputStream in, int size, boolean mayBeNone, String of)
      throws IOException {
    if (size == -1 && mayBeNone) {
      return null;
    }
    if (size < 0 || size > in.available()) {
      throw new IOException(of + "'s bytes are stated as " + size + " where " + in.available()
          + " are left");
    }
    return in.readNBytes(size);
  }
}
