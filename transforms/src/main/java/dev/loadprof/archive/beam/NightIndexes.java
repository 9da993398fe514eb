package dev.loadprof.archive.beam;

import dev.loadprof.archive.ArchiveCorruptException;
import dev.loadprof.archive.NightIndex;
import dev.loadprof.archive.RunSelection;
import dev.loadprof.schemas.BlockFileRecord;
import dev.loadprof.schemas.RunManifestRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.ResourceId;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;

/**
 * Writing and reading night indexes ({@link NightIndex}): an archive job's committed runs are
 * gathered per night and host and written as one object each, after all their manifests and
 * index entries, so a reader selecting nights reads one object per night, host and job instead
 * of every run's manifest and block files.
 */
public final class NightIndexes {
  private NightIndexes() {}

  /** Outputs the run of a manifest in place as its night index lists it. */
  static void line(String archive, RunManifestRecord manifest,
      DoFn.OutputReceiver<KV<String, NightIndex.Run>> out) {
    if (manifest.getNight().isEmpty() || manifest.getJobId().isEmpty()) {
      return; // format 1: no partitions
    }
    out.output(KV.of(partitionKey(manifest.getNight(),
        RunSelection.hostPartition(manifest.getHost())), run(manifest)));
  }

  /**
   * The same for a run another job committed and this one found unchanged, unless that job's
   * night index is there (it lists the run): runs archived before night indexes, or by a job
   * killed before writing one, are indexed by the next job given their traces.
   */
  static void lineIfUnindexed(String archive, RunManifestRecord manifest,
      DoFn.OutputReceiver<KV<String, NightIndex.Run>> out) {
    if (manifest.getNight().isEmpty() || manifest.getJobId().isEmpty()) {
      return;
    }
    ResourceId theirs = ArchiveLayout.nightIndex(archive, manifest.getNight(),
        RunSelection.hostPartition(manifest.getHost()), manifest.getJobId());
    if (!ArchiveLayout.exists(theirs)) {
      line(archive, manifest, out);
    }
  }

  /** The run as a night index lists it. */
  public static NightIndex.Run run(RunManifestRecord manifest) {
    List<NightIndex.BlockFile> files = new ArrayList<>();
    for (BlockFileRecord f : manifest.getBlockFiles()) {
      files.add(new NightIndex.BlockFile(f.getPath(), f.getSizeBytes()));
    }
    try {
      return new NightIndex.Run(manifest.getRunId(), manifest.getJobId(),
          ArchiveFiles.checksum(manifest), manifest.getSamplingEvent(), manifest.getWindowNs(),
          manifest.getFingerprint(), manifest.getSource(), files);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String partitionKey(String night, String hostPartition) {
    return night + "\u0000" + hostPartition;
  }

  /** Writes a job's night index of one partition (the object is the job's alone). */
  public static void write(String archive, String jobId, String night, String hostPartition,
      List<NightIndex.Run> runs) throws IOException {
    List<NightIndex.Run> sorted = new ArrayList<>(runs);
    sorted.sort(Comparator.comparing(NightIndex.Run::runId));
    NightIndex index = new NightIndex(night, hostPartition, jobId, sorted);
    try (var out = FileSystems.create(ArchiveLayout.nightIndex(archive, night, hostPartition,
        jobId), "application/octet-stream")) {
      out.write(java.nio.ByteBuffer.wrap(index.encode()));
    }
  }

  /**
   * Reads and checks a night index against its path.
   *
   * @throws ArchiveCorruptException naming the object, when it cannot be read or is damaged
   */
  public static NightIndex read(String path, String night, String hostPartition, String jobId) {
    return read(path, night, hostPartition, jobId, null);
  }

  /** The same from the object's bytes as read already ({@code read}; null: read them here). */
  static NightIndex read(String path, String night, String hostPartition, String jobId,
      byte[] read) {
    byte[] bytes = read;
    try {
      if (bytes == null) {
        bytes = StoreListing.read(path); // on S3 one GET, without a HEAD first
      }
    } catch (IOException e) {
      throw new ArchiveCorruptException(path, "the night index cannot be read (" + e + ")", e);
    }
    NightIndex index;
    try {
      index = NightIndex.decode(bytes);
    } catch (RuntimeException e) {
      throw new ArchiveCorruptException(path, "the night index is damaged: " + e.getMessage()
          + "; delete it and archive its night's traces again", e);
    }
    String why = index.disagreement(night, hostPartition, jobId);
    if (why != null) {
      throw new ArchiveCorruptException(path, "the night index is damaged: " + why
          + "; delete it and archive its night's traces again", null);
    }
    return index;
  }

  /** Gathers a job's indexed runs of one partition into its night index. */
  static final class WriteFn extends DoFn<KV<String, Iterable<NightIndex.Run>>, Void> {
    private final String archive;
    private final String jobId;

    WriteFn(String archive, String jobId) {
      this.archive = archive;
      this.jobId = jobId;
    }

    @ProcessElement
    public void process(@Element KV<String, Iterable<NightIndex.Run>> partition)
        throws IOException {
      String[] key = partition.getKey().split("\u0000", 2);
      List<NightIndex.Run> runs = new ArrayList<>();
      partition.getValue().forEach(runs::add);
      write(archive, jobId, key[0], key[1], runs);
    }
  }
}
