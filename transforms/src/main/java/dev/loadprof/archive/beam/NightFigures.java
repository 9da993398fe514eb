package dev.loadprof.archive.beam;

import dev.loadprof.archive.IndexEntry;
import dev.loadprof.archive.NightIndex;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.apache.beam.sdk.io.fs.ResourceId;
import org.apache.beam.sdk.values.KV;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stored figures ({@link RunFigures}) of the runs one night index lists, gathered into one
 * file with their manifests, so that a nightly job reads a past night's runs in one request per
 * night index (a night and host) instead of three per run (its index entry, its manifest and
 * its figures file): on a store, a year of nights costs its nights' requests, not its runs'.
 *
 * <pre>
 * night-figures/night=NIGHT/host=HOST/JOB-SET-KIND.bin
 * </pre>
 *
 * where JOB is the job that wrote the night index, SET a digest of the night index's lines as
 * read (each run's id, job and manifest checksum: a run archived again, replaced or repaired
 * changes it, and the old file is then not read) and KIND the figures' kind. The file holds a
 * header line, the SHA-256 of the rest, then gzip of: the night index's partition, SET, and
 * per run its id, its manifest file's bytes and its figures file's bytes (none for a run counted
 * as another). A manifest from it is checked as the file is (its own checksum); its index entry
 * was read when the file was written. Written by a job in the CLI's JVM once the runs' figures
 * are stored, only when every manifest's checksum is the one its line states; created only if
 * absent. A damaged file is said, and its runs are read one by one, as without it.
 */
public final class NightFigures {
  public static final String DIR = "night-figures";
  private static final Logger LOG = LoggerFactory.getLogger(NightFigures.class);
  private static final byte[] HEADER =
      "loadprof-night-figures 1\n".getBytes(StandardCharsets.US_ASCII);
  private static final int SHA_HEX = 64;
  /** The content's size at most once inflated: far above a night index's runs' files. */
  static final int MAX_CONTENT_BYTES = 512 << 20;
  /** Bytes of manifests and figures held for the files to write at most (the rest read again). */
  static final long HOLD_MAX_BYTES = 64L << 20;

  private NightFigures() {}

  /** A run's files as a night figures file holds them ({@code figures} null: none stored). */
  record Entry(byte[] manifest, byte[] figures) {}

  /** Where the figures of kind {@code kind} of the runs {@code lines} (one night index) are. */
  static ResourceId file(String archive, String listedIn, List<NightIndex.Run> lines,
      String kind) {
    String[] p = listedIn.split("/", 3);
    return ArchiveLayout.resolve(archive, DIR + "/night=" + p[0] + "/host=" + p[1] + "/" + p[2]
        + "-" + set(lines) + "-" + kind + ".bin");
  }

  /** The digest of a night index's lines naming its file: their runs, jobs and manifests. */
  static String set(List<NightIndex.Run> lines) {
    List<NightIndex.Run> sorted = new ArrayList<>(lines);
    sorted.sort(Comparator.comparing(NightIndex.Run::runId).thenComparing(NightIndex.Run::jobId));
    StringBuilder b = new StringBuilder();
    for (NightIndex.Run r : sorted) {
      b.append(r.runId()).append('\t').append(r.jobId()).append('\t').append(r.manifestSha256())
          .append('\n');
    }
    return IndexEntry.sha256Hex(b.toString().getBytes(StandardCharsets.UTF_8)).substring(0, 32);
  }

  static byte[] encode(String listedIn, String set, Map<String, Entry> runs) throws IOException {
    ByteArrayOutputStream content = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(new GZIPOutputStream(content))) {
      out.writeUTF(listedIn);
      out.writeUTF(set);
      out.writeInt(runs.size());
      for (Map.Entry<String, Entry> r : runs.entrySet()) {
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
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    bytes.write(HEADER);
    bytes.write(IndexEntry.sha256Hex(content.toByteArray()).getBytes(StandardCharsets.US_ASCII));
    bytes.write('\n');
    content.writeTo(bytes);
    return bytes.toByteArray();
  }

  /**
   * The runs of a file's bytes, by run id; every size is checked against what is left before it
   * is used.
   *
   * @throws IOException saying what is wrong, when the file is damaged or of another night index
   */
  static Map<String, Entry> decode(byte[] bytes, String listedIn, String set) throws IOException {
    int body = HEADER.length + SHA_HEX + 1;
    if (bytes.length < body || !Arrays.equals(bytes, 0, HEADER.length, HEADER, 0,
        HEADER.length) || bytes[body - 1] != '\n') {
      throw new IOException("not a night figures file of this loadprof");
    }
    String stated = new String(bytes, HEADER.length, SHA_HEX, StandardCharsets.US_ASCII);
    byte[] gzipped = Arrays.copyOfRange(bytes, body, bytes.length);
    if (!stated.equals(IndexEntry.sha256Hex(gzipped))) {
      throw new IOException("checksum mismatch");
    }
    byte[] content;
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped))) {
      content = in.readNBytes(MAX_CONTENT_BYTES + 1);
    }
    if (content.length > MAX_CONTENT_BYTES) {
      throw new IOException("more than " + MAX_CONTENT_BYTES + " bytes once inflated");
    }
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(content));
    String partition = in.readUTF();
    String itsSet = in.readUTF();
    if (!partition.equals(listedIn) || !itsSet.equals(set)) {
      throw new IOException("it is of night index " + partition + " (runs " + itsSet + "), not "
          + listedIn + " (runs " + set + ")");
    }
    int count = in.readInt();
    if (count < 0 || count > in.available()) {
      throw new IOException("it states " + count + " runs in " + in.available() + " bytes");
    }
    Map<String, Entry> runs = new HashMap<>();
    for (int i = 0; i < count; i++) {
      String runId = in.readUTF();
      byte[] manifest = sized(in, in.readInt(), false, runId);
      byte[] figures = sized(in, in.readInt(), true, runId);
      if (runs.put(runId, new Entry(manifest, figures)) != null) {
        throw new IOException("run " + runId + " is in it twice");
      }
    }
    if (in.available() > 0) {
      throw new IOException(in.available() + " bytes after its last run");
    }
    return runs;
  }

  private static byte[] sized(DataInputStream in, int size, boolean mayBeNone, String runId)
      throws IOException {
    if (size == -1 && mayBeNone) {
      return null;
    }
    if (size < 0 || size > in.available()) {
      throw new IOException("run " + runId + "'s file states " + size + " bytes where "
          + in.available() + " are left");
    }
    return in.readNBytes(size);
  }

  /**
   * The selected runs of one night index, the figures file read for them (null when there is
   * none, or it is damaged), and for a file to write, the runs read and the bytes held of them.
   */
  public static final class Group {
    private final String archive;
    private final String listedIn;
    private final List<NightIndex.Run> lines = new ArrayList<>();
    private ResourceId file;
    private String set;
    private volatile Map<String, Entry> found;
    private final List<ReadArchive.LocalRun> runs = java.util.Collections.synchronizedList(
        new ArrayList<>());
    private final Map<String, byte[]> heldManifests = new ConcurrentHashMap<>();
    private final Map<String, byte[]> heldFigures = new ConcurrentHashMap<>();
    private final AtomicLong held;

    private Group(String archive, String listedIn, AtomicLong held) {
      this.archive = archive;
      this.listedIn = listedIn;
      this.held = held;
    }

    /** A run of the night index read by the job. */
    void add(ReadArchive.LocalRun run) {
      runs.add(run);
    }

    private boolean hold(Map<String, byte[]> into, String runId, byte[] bytes) {
      if (found != null || bytes == null || held.addAndGet(bytes.length) > HOLD_MAX_BYTES) {
        return false;
      }
      into.put(runId, bytes);
      return true;
    }
  }

  /** A run read of a night index's selected runs ({@link ReadArchive.LocalRun#member}). */
  public record Member(Group group, NightIndex.Run line) {
    /**
     * The run's figures file's bytes from its night's figures file, or null when they are not
     * there (none read, or the run counted as another when the file was written): read then as
     * without it.
     */
    public byte[] packedFigures() {
      Map<String, Entry> found = group.found;
      Entry e = found == null ? null : found.get(line.runId());
      return e == null ? null : e.figures();
    }

    /** Its figures file's bytes as read or stored now, held for its night's file to write. */
    public void figuresRead(byte[] bytes) {
      group.hold(group.heldFigures, line.runId(), bytes);
    }
  }

  /** The night figures files of a job's selected runs, read before its runs are checked. */
  public static final class Packs {
    private final String kind;
    private final Map<KV<String, ArchiveListing.ManifestRef>, Group> groups;
    private final AtomicLong held = new AtomicLong();

    private Packs(String kind, Map<KV<String, ArchiveListing.ManifestRef>, Group> groups) {
      this.kind = kind;
      this.groups = groups;
    }

    static Packs none() {
      return new Packs("", Map.of());
    }

    /**
     * Groups the runs night indexes list by night index, and reads each group's figures file
     * of {@code kind}, 8 at once; what is wrong with one is given to {@code said}.
     */
    static Packs read(List<KV<String, ArchiveListing.ManifestRef>> refs, String kind,
        Consumer<String> said) {
      Map<KV<String, ArchiveListing.ManifestRef>, Group> groupOf = new HashMap<>();
      Packs packs = new Packs(kind, groupOf);
      Map<String, Group> byIndex = new LinkedHashMap<>();
      for (KV<String, ArchiveListing.ManifestRef> r : refs) {
        NightIndex.Run line = r.getValue().indexed();
        if (line == null || line.listedIn().isEmpty()) {
          continue; // no night index lists it: read alone
        }
        Group g = byIndex.computeIfAbsent(r.getKey() + "\u0000" + line.listedIn(),
            k -> new Group(r.getKey(), line.listedIn(), packs.held));
        g.lines.add(line);
        groupOf.put(r, g);
      }
      List<Group> all = new ArrayList<>(byIndex.values());
      for (Group g : all) {
        g.set = set(g.lines);
        g.file = file(g.archive, g.listedIn, g.lines, kind);
      }
      OrderedPrefetch.forEach(all, OrderedPrefetch.THREADS, OrderedPrefetch.AHEAD,
          g -> readFile(g, said), g -> { });
      return packs;
    }

    private static Group readFile(Group g, Consumer<String> said) {
      byte[] bytes;
      try {
        bytes = StoreListing.read(g.file.toString());
      } catch (java.io.FileNotFoundException | java.nio.file.NoSuchFileException e) {
        return g;
      } catch (IOException | RuntimeException e) {
        if (ArchiveLayout.exists(g.file)) {
          unreadable(g, e, said);
        }
        return g;
      }
      try {
        g.found = decode(bytes, g.listedIn, g.set);
      } catch (IOException | RuntimeException e) {
        unreadable(g, e, said);
      }
      return g;
    }

    private static void unreadable(Group g, Exception e, Consumer<String> said) {
      String problem = g.file + ": a night's figures file cannot be read (" + e.getMessage()
          + "); its runs are read one by one. Delete it to have it written again";
      LOG.warn(problem);
      said.accept(problem);
    }

    /** The run's manifest file's bytes from its night's figures file, or null. */
    byte[] manifest(KV<String, ArchiveListing.ManifestRef> ref) {
      Group g = groups.get(ref);
      Map<String, Entry> found = g == null ? null : g.found;
      Entry e = found == null ? null : found.get(ref.getValue().indexed().runId());
      return e == null ? null : e.manifest();
    }

    /** Where the run's manifest bytes read are held for its night's file to write, or null. */
    Consumer<byte[]> manifestHolder(KV<String, ArchiveListing.ManifestRef> ref) {
      Group g = groups.get(ref);
      if (g == null || g.found != null) {
        return null;
      }
      String runId = ref.getValue().indexed().runId();
      return bytes -> g.hold(g.heldManifests, runId, bytes);
    }

    /** The run as a member of its night index's group, or null when no night index lists it. */
    Member member(KV<String, ArchiveListing.ManifestRef> ref) {
      Group g = groups.get(ref);
      return g == null ? null : new Member(g, ref.getValue().indexed());
    }
  }

  /**
   * Writes the night figures files the job's runs had none of, from their manifests and stored
   * figures of {@code kind} (held as read, else read again), 8 at once; a night index whose
   * runs' figures are not all stored, or whose manifest differs from its line, gets none.
   * Returns how many were written.
   */
  public static int writeMissing(List<ReadArchive.LocalRun> runs, String kind) {
    Set<Group> groups = new LinkedHashSet<>();
    for (ReadArchive.LocalRun run : runs) {
      if (run.member() != null && run.member().group().found == null) {
        groups.add(run.member().group());
      }
    }
    int[] written = {0};
    OrderedPrefetch.forEach(new ArrayList<>(groups), OrderedPrefetch.THREADS,
        OrderedPrefetch.AHEAD, g -> write(g, kind), w -> written[0] += w ? 1 : 0);
    return written[0];
  }

  private static boolean write(Group g, String kind) {
    try {
      Map<String, Entry> entries = new TreeMap<>();
      List<ReadArchive.LocalRun> runs;
      synchronized (g.runs) {
        runs = new ArrayList<>(g.runs);
      }
      for (ReadArchive.LocalRun run : runs) {
        NightIndex.Run line = run.member().line();
        String runId = line.runId();
        if (!ArchiveFiles.checksum(run.blocks().manifest()).equals(line.manifestSha256())) {
          LOG.info("{}: not written, the manifest of run {} differs from its night index's"
              + " line", g.file, runId);
          return false;
        }
        byte[] manifest = g.heldManifests.get(runId);
        if (manifest == null) {
          manifest = StoreListing.read(run.blocks().manifestPath());
        }
        byte[] figures = null;
        if (!run.files().isEmpty()) {
          ResourceId file = run.blocks().figures(kind);
          figures = g.heldFigures.get(runId);
          if (figures == null) {
            RunFigures.Stored stored = RunFigures.read(file);
            if (stored == null || stored.problem() != null) {
              LOG.info("{}: not written, run {}'s figures are not stored", g.file, runId);
              return false;
            }
            figures = stored.bytes();
          }
        }
        entries.put(runId, new Entry(manifest, figures));
      }
      return ExclusiveCreates.createIfAbsent(g.file, encode(g.listedIn, g.set, entries), null);
    } catch (IOException | RuntimeException e) {
      LOG.warn("{}: could not write a night's figures file ({}); the next job reads its runs one"
          + " by one and writes it", g.file, e.toString());
      return false;
    } finally {
      g.heldManifests.clear();
      g.heldFigures.clear();
    }
  }
}
