package dev.loadprof.archive.beam;

import dev.loadprof.archive.IndexEntry;
import dev.loadprof.archive.NightIndex;
import dev.loadprof.archive.beam.NightFiguresCodec.Content;
import dev.loadprof.archive.beam.NightFiguresCodec.Entry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.beam.sdk.io.fs.ResourceId;
import org.apache.beam.sdk.values.KV;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stored figures ({@link RunFigures}) of a night's runs gathered into one file with their
 * manifests and the night's night indexes, so that a nightly job reads a past night in one
 * request instead of one per night index and three per run (its index entry, its manifest and
 * its figures file): on a store, a year of nights costs its nights' requests, not its runs'.
 *
 * <pre>
 * night-figures/night=NIGHT/SET-KIND.bin
 * </pre>
 *
 * where SET is a digest of the night's selected night indexes as listed (their names and
 * sizes: a night index is written once, by its job, and a run archived again, replaced or
 * repaired is listed by another job's) and KIND the figures' kind. The file holds a header
 * line, the SHA-256 of the rest, then gzip of: the night, SET, each night index's bytes, and
 * per run (by id and job) its manifest file's bytes and its figures file's bytes (none for a run
 * counted as another). A night index from it is used only at the size listed, and is checked as
 * one read from the store; its bytes, the manifests' and the figures' are covered by the file's
 * SHA-256, which is why theirs are not computed again. A run's index entry was read when the
 * file was written. Written by a job in the CLI's JVM once the night's runs' figures are
 * stored, only when every manifest's checksum is the one its line states; created only if
 * absent. A damaged file is said, and its night read as without it.
 */
public final class NightFigures {
  public static final String DIR = "night-figures";
  private static final Logger LOG = LoggerFactory.getLogger(NightFigures.class);
  /** Bytes of manifests and figures held for the files to write at most (the rest read again). */
  static final long HOLD_MAX_BYTES = 64L << 20;

  private NightFigures() {}


  /** Where a night's figures of kind {@code kind} are, its night indexes as {@code set} names. */
  static ResourceId file(String archive, String night, String set, String kind) {
    return ArchiveLayout.resolve(archive, DIR + "/night=" + night + "/" + set + "-" + kind
        + ".bin");
  }

  /** The digest naming a night's file: its night indexes' names and sizes, as listed. */
  static String set(Map<String, Long> listed) {
    StringBuilder b = new StringBuilder();
    new TreeMap<>(listed).forEach((name, size) -> b.append(name).append('\t').append(size)
        .append('\n'));
    return IndexEntry.sha256Hex(b.toString().getBytes(StandardCharsets.UTF_8)).substring(0, 32);
  }


  private static String key(String runId, String jobId) {
    return runId + ArchiveLayout.JOB_SEPARATOR + jobId;
  }

  /**
   * A night's selected night indexes as listed, its file read (null when there is none, or it
   * is damaged), and for a file to write, its runs read and what is held of them.
   */
  public static final class Group {
    private final String archive;
    private final String night;
    private final String kind;
    private final Map<String, Long> listed;
    private final String set;
    private final ResourceId file;
    private volatile Content found;
    /** Why its file cannot be read, said once the night's turn comes (on the listing's thread). */
    private volatile String unreadable;
    private final List<ReadArchive.LocalRun> runs = java.util.Collections.synchronizedList(
        new ArrayList<>());
    private final Map<String, NightIndex> heldIndexes = new ConcurrentHashMap<>();
    private final Map<String, byte[]> heldManifests = new ConcurrentHashMap<>();
    private final Map<String, byte[]> heldFigures = new ConcurrentHashMap<>();
    private final AtomicLong held;
    /** The night's stored figures files as listed, once (guarded by this). */
    private Set<String> storedFigures;
    private boolean figuresListed;

    private Group(String archive, String night, Map<String, Long> listed, String kind,
        AtomicLong held) {
      this.archive = archive;
      this.night = night;
      this.kind = kind;
      this.listed = listed;
      this.set = set(listed);
      this.file = file(archive, night, set, kind);
      this.held = held;
    }

    /** A run of the night read by the job. */
    void add(ReadArchive.LocalRun run) {
      runs.add(run);
    }

    /**
     * The paths of the night's stored figures files, listed at the first call (one request for
     * the night's runs), or null when that listing failed (each run's is then asked for alone).
     */
    private synchronized Set<String> storedFigures() {
      if (!figuresListed) {
        figuresListed = true;
        try {
          Set<String> paths = new java.util.HashSet<>();
          for (org.apache.beam.sdk.io.fs.MatchResult.Metadata m
              : StoreListing.matchGlob(RunFigures.nightGlob(archive, night))) {
            paths.add(m.resourceId().toString());
          }
          storedFigures = paths;
        } catch (IOException | RuntimeException e) {
          LOG.debug("{}: the night's stored figures could not be listed ({}); each run's is"
              + " looked for alone", night, e.toString());
        }
      }
      return storedFigures;
    }

    private void hold(Map<String, byte[]> into, String key, byte[] bytes) {
      if (found == null && bytes != null && held.addAndGet(bytes.length) <= HOLD_MAX_BYTES) {
        into.put(key, bytes);
      }
    }
  }

  /** A run read of a night's night indexes ({@link ReadArchive.LocalRun#member}). */
  public record Member(Group group, NightIndex.Run line) {
    /**
     * The run's figures file's bytes from its night's file, or null when they are not there
     * (no file read, or the run counted as another when it was written): read then as
     * without it.
     */
    public byte[] packedFigures() {
      Content found = group.found;
      // Asked once a run: the file's bytes of the run are let go.
      Entry e = found == null ? null : found.runs().remove(key(line.runId(), line.jobId()));
      return e == null ? null : e.figures();
    }

    /**
     * Whether its figures are in its night's file as read (then they are taken from there, not
     * read from the store, and its blocks are not read).
     */
    public boolean packed() {
      Content found = group.found;
      Entry e = found == null ? null : found.runs().get(key(line.runId(), line.jobId()));
      return e != null && e.figures() != null;
    }

    /**
     * Whether the run's figures file {@code file} may be stored, and is to be read: always when
     * its night's file was read (it is then asked for only when that file lacks the run); else
     * when it is among the night's stored figures, listed once for all the night's runs (a new
     * night's runs, whose figures are stored by none, then cost the night one request instead
     * of one each). A run's figures stored since that listing are computed again, and storing
     * them finds those there.
     */
    public boolean mayHoldFigures(ResourceId file) {
      if (group.found != null) {
        return true;
      }
      Set<String> listed = group.storedFigures();
      return listed == null || listed.contains(file.toString());
    }

    /** Its figures file's bytes as read or stored now, held for its night's file to write. */
    public void figuresRead(byte[] bytes) {
      group.hold(group.heldFigures, key(line.runId(), line.jobId()), bytes);
    }
  }

  /**
   * The night figures files of a job's selected nights ({@code kind} not ""): looked up by the
   * listing, before it reads the night indexes ({@link ArchiveListing}), then their runs' by
   * the runs' checks.
   */
  public static final class Packs {
    private final String kind;
    private final Consumer<String> said;
    private final Map<String, Group> groups = new ConcurrentHashMap<>(); // archive \0 night
    private final AtomicLong held = new AtomicLong();

    Packs(String kind, Consumer<String> said) {
      this.kind = kind;
      this.said = said;
    }

    /**
     * Reads the files of an archive's nights, 8 at once: {@code listed} gives each night's
     * selected night indexes (name below index/ -> size as listed).
     */
    void lookUp(String archive, Map<String, Map<String, Long>> listed) {
      List<Group> nights = new ArrayList<>();
      listed.forEach((night, indexes) -> {
        Group g = new Group(archive, night, indexes, kind, held);
        groups.put(archive + "\u0000" + night, g);
        nights.add(g);
      });
      OrderedPrefetch.forEach(nights, OrderedPrefetch.THREADS, OrderedPrefetch.AHEAD,
          this::readFile, g -> {
            // Said here, in the nights' order, on the one thread that says the listing's notes:
            // read on several threads, two damaged files at once made one note of two.
            if (g.unreadable != null) {
              said.accept(g.unreadable);
            }
          });
    }

    private Group readFile(Group g) {
      byte[] bytes;
      try {
        bytes = StoreListing.read(g.file.toString());
      } catch (java.io.FileNotFoundException | java.nio.file.NoSuchFileException e) {
        return g;
      } catch (IOException | RuntimeException e) {
        if (ArchiveLayout.exists(g.file)) {
          unreadable(g, e.toString());
        }
        return g;
      }
      try {
        Content c = NightFiguresCodec.decode(bytes, g.night, g.set);
        if (!c.indexes().keySet().equals(g.listed.keySet())) {
          throw new IOException("it holds night indexes " + c.indexes().keySet() + ", not "
              + g.listed.keySet());
        }
        for (Map.Entry<String, byte[]> i : c.indexes().entrySet()) {
          if (i.getValue().length != g.listed.get(i.getKey())) {
            throw new IOException(i.getKey() + " is " + i.getValue().length + " bytes in it, "
                + g.listed.get(i.getKey()) + " as listed");
          }
        }
        g.found = c;
      } catch (IOException | RuntimeException e) {
        unreadable(g, e.getMessage());
      }
      return g;
    }

    private void unreadable(Group g, String why) {
      String problem = g.file + ": a night's figures file cannot be read (" + why + "); its"
          + " night is read run by run. Delete it to have it written again";
      g.unreadable = problem; // once: the caller says it (the CLI, on the console), not a log too
    }

    /**
     * A night index of the night: from the night's file when it holds it, else read from the
     * store (by {@code read} given null), and held for the night's file to write.
     */
    NightIndex nightIndex(String archive, String night, String name,
        java.util.function.Function<byte[], NightIndex> read) {
      Group g = groups.get(archive + "\u0000" + night);
      Content found = g == null ? null : g.found;
      NightIndex index = read.apply(found == null ? null : found.indexes().get(name));
      if (g != null && found == null) {
        g.heldIndexes.put(name, index);
      }
      return index;
    }

    private Group groupOf(KV<String, ArchiveListing.ManifestRef> ref) {
      NightIndex.Run line = ref.getValue().indexed();
      if (line == null || line.listedIn().isEmpty()) {
        return null; // no night index lists it: read alone
      }
      return groups.get(ref.getKey() + "\u0000" + line.listedIn().split("/", 2)[0]);
    }

    /** The run's manifest file's bytes from its night's file, or null. */
    byte[] manifest(KV<String, ArchiveListing.ManifestRef> ref) {
      Content found = foundOf(ref);
      if (found == null) {
        return null;
      }
      NightIndex.Run line = ref.getValue().indexed();
      String key = key(line.runId(), line.jobId());
      Entry e = found.runs().get(key);
      if (e == null || e.manifest() == null) {
        return null;
      }
      found.runs().put(key, new Entry(null, e.figures())); // its figures are asked for later
      return e.manifest();
    }

    /**
     * Whether the run's manifest comes with its night's file, not yet taken ({@link
     * #manifest}): then checking the run makes no request.
     */
    boolean holdsManifest(KV<String, ArchiveListing.ManifestRef> ref) {
      Content found = foundOf(ref);
      NightIndex.Run line = ref.getValue().indexed();
      Entry e = found == null ? null : found.runs().get(key(line.runId(), line.jobId()));
      return e != null && e.manifest() != null;
    }

    private Content foundOf(KV<String, ArchiveListing.ManifestRef> ref) {
      Group g = groupOf(ref);
      return g == null ? null : g.found;
    }

    /** Where the run's manifest bytes read are held for its night's file to write, or null. */
    Consumer<byte[]> manifestHolder(KV<String, ArchiveListing.ManifestRef> ref) {
      Group g = groupOf(ref);
      if (g == null || g.found != null) {
        return null;
      }
      NightIndex.Run line = ref.getValue().indexed();
      return bytes -> g.hold(g.heldManifests, key(line.runId(), line.jobId()), bytes);
    }

    /** The run as a member of its night, or null when no night index lists it. */
    Member member(KV<String, ArchiveListing.ManifestRef> ref) {
      Group g = groupOf(ref);
      return g == null ? null : new Member(g, ref.getValue().indexed());
    }

  }

  /**
   * Writes the night figures files the nights of {@code runs} had none of, from their night
   * indexes, manifests and stored figures (held as read, else read again), 8 at once. A night
   * whose runs' figures are not all stored, or whose manifest differs from its line, gets none.
   * Returns how many were written.
   */
  public static int writeMissing(List<ReadArchive.LocalRun> runs) {
    Set<Group> missing = new LinkedHashSet<>();
    for (ReadArchive.LocalRun run : runs) {
      if (run.member() != null && run.member().group().found == null) {
        missing.add(run.member().group());
      }
    }
    int[] written = {0};
    OrderedPrefetch.forEach(new ArrayList<>(missing), OrderedPrefetch.THREADS,
        OrderedPrefetch.AHEAD, NightFigures::write, w -> written[0] += w ? 1 : 0);
    return written[0];
  }

  private static boolean write(Group g) {
    String kind = g.kind;
    try {
      Map<String, byte[]> indexes = new TreeMap<>();
      for (String name : g.listed.keySet()) {
        NightIndex index = g.heldIndexes.get(name);
        if (index == null) {
          return false; // not read by this job
        }
        indexes.put(name, index.encode());
      }
      Map<String, Entry> entries = new TreeMap<>();
      List<ReadArchive.LocalRun> runs;
      synchronized (g.runs) {
        runs = new ArrayList<>(g.runs);
      }
      for (ReadArchive.LocalRun run : runs) {
        NightIndex.Run line = run.member().line();
        String key = key(line.runId(), line.jobId());
        if (!ArchiveFiles.checksum(run.blocks().manifest()).equals(line.manifestSha256())) {
          LOG.info("{}: not written, the manifest of run {} differs from its night index's"
              + " line", g.file, key);
          return false;
        }
        byte[] manifest = g.heldManifests.get(key);
        if (manifest == null) {
          manifest = StoreListing.read(run.blocks().manifestPath());
        }
        byte[] figures = null;
        if (!run.files().isEmpty()) {
          figures = g.heldFigures.get(key);
          if (figures == null) {
            RunFigures.Stored stored = RunFigures.read(run.blocks().figures(kind));
            if (stored == null || stored.problem() != null) {
              LOG.info("{}: not written, run {}'s figures are not stored", g.file, key);
              return false;
            }
            figures = stored.bytes();
          }
        }
        entries.put(key, new Entry(manifest, figures));
      }
      return ExclusiveCreates.createIfAbsent(g.file, NightFiguresCodec.encode(g.night, g.set,
          new Content(indexes, entries)), null);
    } catch (IOException | RuntimeException e) {
      LOG.warn("{}: could not write a night's figures file ({}); the next job reads its night"
          + " run by run and writes it", g.file, e.toString());
      return false;
    } finally {
      g.heldManifests.clear();
      g.heldFigures.clear();
    }
  }
}
