package dev.loadprof.archive;

import dev.loadprof.model.TraceHealth;
import dev.loadprof.schemas.EventBlockRecord;
import dev.loadprof.schemas.RunManifestRecord;
import java.io.Serializable;

/**
 * A block file to read, with what its manifest says of every block in it: the run, and the
 * windows the run was cut into. A block that disagrees (a file copied in from another run, a
 * manifest edited or mixed up) is corruption, never a block of this run.
 *
 * @param path the file's full path
 * @param sizeBytes the size the manifest recorded
 * @param runId the manifest's run id
 * @param windowNs the manifest's window length, ns
 * @param startNs the manifest's run start, ns
 * @param endNs the manifest's run end, ns
 * @param manifestPath the manifest the file is listed in
 * @param cpuCount the manifest's CPU count: in a run of CPU blocks, the CPUs its blocks are of
 * @param threadLanes true when the run's blocks are per thread (a per-process recording)
 */
public record BlockFileRef(String path, long sizeBytes, String runId, long windowNs,
    long startNs, long endNs, String manifestPath, int cpuCount, boolean threadLanes)
    implements Serializable {

  public static BlockFileRef of(String path, long sizeBytes, RunManifestRecord manifest,
      String manifestPath) {
    Long lanes = manifest.getHealth().get(TraceHealth.THREAD_LANES);
    return new BlockFileRef(path, sizeBytes, manifest.getRunId(), manifest.getWindowNs(),
        manifest.getStartNs(), manifest.getEndNs(), manifestPath, manifest.getCpuCount(),
        lanes != null && lanes > 0);
  }

  /**
   * How a run's CPUs are counted over all its files: the manifest and the count it states, as
   * a key ({@link #cpuCountMismatch} reads it back).
   */
  public String cpuCountKey() {
    return manifestPath + "\u0000" + cpuCount;
  }

  /** Why the CPUs the blocks are of disagree with the manifest's count, or null. */
  public static String cpuCountMismatch(String cpuCountKey, long cpusInBlocks) {
    int cut = cpuCountKey.lastIndexOf('\u0000');
    int stated = Integer.parseInt(cpuCountKey.substring(cut + 1));
    return cpusInBlocks == stated ? null : "says the run has " + stated + " CPUs, but its"
        + " blocks are of " + cpusInBlocks + " CPUs (an edited or mixed-up manifest?)";
  }

  /** The manifest of a {@link #cpuCountKey}. */
  public static String manifestOf(String cpuCountKey) {
    return cpuCountKey.substring(0, cpuCountKey.lastIndexOf('\u0000'));
  }

  /** Why the block cannot be of this file's run, or null when it can. */
  public String disagreement(EventBlockRecord block) {
    if (!runId.equals(block.getRunId().toString())) {
      return "holds blocks of run '" + block.getRunId() + "', but its manifest is run '" + runId
          + "' (a block file copied in from another run?)";
    }
    long length = block.getWindowEndNs() - block.getWindowStartNs();
    if (windowNs > 0 && (length != windowNs
        || block.getWindow() != Math.floorDiv(block.getWindowStartNs(), windowNs))) {
      return "holds window " + block.getWindow() + " [" + block.getWindowStartNs() + ", "
          + block.getWindowEndNs() + ") ns, which is not a window of " + windowNs
          + " ns as its manifest says";
    }
    if (block.getWindowEndNs() <= startNs || block.getWindowStartNs() > endNs) {
      return "holds window [" + block.getWindowStartNs() + ", " + block.getWindowEndNs()
          + ") ns, outside the run's span [" + startNs + ", " + endNs + "] ns in its manifest";
    }
    if (block.getCpu() < 0) {
      return "holds a block of CPU " + block.getCpu();
    }
    return null;
  }
}
