package dev.loadprof.archive;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A night index: the runs one archive job indexed under one night and host
 * (index/night=N/host=H/@JOB), each with what a client needs to select and check it without
 * reading the run: its manifest's job and checksum, how it was parsed, its trace and
 * fingerprint, and its block files with their sizes. Written after the manifests and index
 * entries of all those runs, so every run it lists has both; a line counts only while the run's
 * manifest names the line's job (a run replaced since is listed again by the replacing job).
 * The object is checked by the SHA-256 of its lines, as index entries are.
 *
 * <pre>
 * loadprof-night-index 1
 * night YYYY-MM-DD
 * host HOST_PARTITION
 * job JOB                                     (the job that wrote this object)
 * run RUN_ID\tJOB\tMANIFEST_SHA256\tEVENT\tWINDOW_NS\tFINGERPRINT\tSOURCE   one per run
 * file PATH\tSIZE                             the run's block files, after its run line
 * sha256 HEX                                  (of the lines above, newlines included)
 * </pre>
 */
public record NightIndex(String night, String host, String jobId, List<Run> runs)
    implements Serializable {
  private static final String HEADER = "loadprof-night-index 1";
  private static final String SHA = "sha256 ";
  /** The name an index object starts with: no run id is empty, so no entry is named so. */
  public static final String NAME_PREFIX = "@";

  public NightIndex {
    runs = List.copyOf(runs);
  }

  /** A block file of a run, as its manifest lists it (path relative to the archive). */
  public record BlockFile(String path, long sizeBytes) implements Serializable {}

  /**
   * One run as its manifest was when the night index was written.
   *
   * @param manifestSha256 the manifest's checksum (its canonical encoding's SHA-256)
   * @param samplingEvent the event its blocks were made of
   * @param windowNs the window its blocks were cut into
   * @param listedIn "NIGHT/HOST/JOB" of the night index a reader found the line in, "" before
   *     (not written: the index's own header says it)
   */
  public record Run(String runId, String jobId, String manifestSha256, String samplingEvent,
      long windowNs, String fingerprint, String source, List<BlockFile> blockFiles,
      String listedIn) implements Serializable {
    public Run {
      blockFiles = List.copyOf(blockFiles);
    }

    public Run(String runId, String jobId, String manifestSha256, String samplingEvent,
        long windowNs, String fingerprint, String source, List<BlockFile> blockFiles) {
      this(runId, jobId, manifestSha256, samplingEvent, windowNs, fingerprint, source,
          blockFiles, "");
    }

    /** The line as read from the night index of {@code night}, {@code host} and {@code job}. */
    public Run listedIn(String night, String host, String job) {
      return new Run(runId, jobId, manifestSha256, samplingEvent, windowNs, fingerprint, source,
          blockFiles, night + "/" + host + "/" + job);
    }
  }

  public byte[] encode() {
    StringBuilder b = new StringBuilder(HEADER).append("\nnight ").append(night)
        .append("\nhost ").append(host).append("\njob ").append(jobId).append('\n');
    for (Run r : runs) {
      b.append("run ").append(String.join("\t", r.runId, r.jobId, r.manifestSha256,
          r.samplingEvent, Long.toString(r.windowNs), r.fingerprint, clean(r.source)))
          .append('\n');
      for (BlockFile f : r.blockFiles) {
        b.append("file ").append(clean(f.path)).append('\t').append(f.sizeBytes).append('\n');
      }
    }
    String body = b.toString();
    return (body + SHA + IndexEntry.sha256Hex(body.getBytes(StandardCharsets.UTF_8)) + "\n")
        .getBytes(StandardCharsets.UTF_8);
  }

  private static String clean(String s) {
    return s.replace('\n', ' ').replace('\t', ' ');
  }

  /**
   * @throws IllegalArgumentException saying what is wrong, when the object is damaged
   */
  public static NightIndex decode(byte[] bytes) {
    String body = IndexEntry.checkedBody(bytes, HEADER, "a night index", "the night index");
    String[] lines = body.split("\n");
    if (lines.length < 4) {
      throw new IllegalArgumentException("night index without its night, host and job");
    }
    List<Run> runs = new ArrayList<>();
    String[] run = null;
    List<BlockFile> files = new ArrayList<>();
    for (int i = 4; i < lines.length; i++) {
      if (lines[i].startsWith("run ")) {
        if (run != null) {
          runs.add(run(run, files));
        }
        run = lines[i].substring(4).split("\t", -1);
        files = new ArrayList<>();
      } else if (lines[i].startsWith("file ") && run != null) {
        String[] f = lines[i].substring(5).split("\t", -1);
        files.add(new BlockFile(f[0], Long.parseLong(f[1])));
      } else {
        throw new IllegalArgumentException("night index line " + (i + 1) + " is neither a run"
            + " nor a block file of one");
      }
    }
    if (run != null) {
      runs.add(run(run, files));
    }
    return new NightIndex(field(lines[1], "night"), field(lines[2], "host"),
        field(lines[3], "job"), runs);
  }

  private static Run run(String[] f, List<BlockFile> files) {
    if (f.length != 7) {
      throw new IllegalArgumentException("night index run line of " + f.length + " fields");
    }
    return new Run(f[0], f[1], f[2], f[3], Long.parseLong(f[4]), f[5], f[6], files);
  }

  private static String field(String line, String name) {
    if (!line.startsWith(name + " ")) {
      throw new IllegalArgumentException("night index without its " + name);
    }
    return line.substring(name.length() + 1);
  }

  /** Null when the object is what its path says, else what differs. */
  public String disagreement(String nightFromPath, String hostFromPath, String jobFromName) {
    if (!night.equals(nightFromPath) || !host.equals(hostFromPath) || !jobId.equals(jobFromName)) {
      return "it names night " + night + ", host " + host + " and job " + jobId
          + ", its path night " + nightFromPath + ", host " + hostFromPath + " and job "
          + jobFromName;
    }
    return null;
  }
}
