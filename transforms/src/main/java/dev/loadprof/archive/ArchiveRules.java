package dev.loadprof.archive;

import dev.loadprof.block.BlockBuilder;
import dev.loadprof.schemas.RunManifestRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The archive's rules for a trace given to {@code loadprof archive}, by its run id and the
 * fingerprint (SHA-256) of its content: the one place that decides, called by the CLI before
 * anything is parsed and by the job when it commits the run.
 */
public final class ArchiveRules {
  private ArchiveRules() {}

  /** What to do with a trace whose run id may already be archived. */
  public enum Decision {
    /** No manifest for the run id: archive it. */
    ADD,
    /** The same content, window and event, intact: nothing to do. */
    UNCHANGED,
    /**
     * The same content, another window or event, or blocks built by an older loadprof: archive it
     * again over the old run.
     */
    REPLACE,
    /** The archived run is damaged (unreadable manifest, missing or damaged block files). */
    REPAIR,
    /** Another trace holds the run id: refused, the user renames one. */
    CONFLICT
  }

  /**
   * The archived state of a run id: its manifest, or null when there is none or it cannot be
   * read; {@code damaged} when a manifest file is there but it or its block files are damaged.
   */
  public record Archived(RunManifestRecord manifest, boolean damaged) {
    public static final Archived NONE = new Archived(null, false);

    public static Archived damaged(RunManifestRecord manifestIfReadable) {
      return new Archived(manifestIfReadable, true);
    }
  }

  /** The decision for a trace of {@code fingerprint} parsed with this window and event. */
  public static Decision decide(Archived archived, String fingerprint, long windowNs,
      String requestedEvent) {
    RunManifestRecord m = archived.manifest();
    if (m != null && !m.getFingerprint().equals(fingerprint)) {
      return Decision.CONFLICT; // even when damaged: the run id is another trace's
    }
    if (archived.damaged()) {
      return Decision.REPAIR;
    }
    if (m == null) {
      return Decision.ADD;
    }
    return m.getWindowNs() == windowNs && Objects.equals(m.getRequestedEvent(), requestedEvent)
        && m.getBlocksVersion() >= BlockBuilder.BLOCKS_VERSION
        ? Decision.UNCHANGED : Decision.REPLACE;
  }

  /**
   * What may be off in a run whose blocks an older loadprof built, for each fix since, where the
   * manifest shows the run may be affected; empty for a current run.
   */
  public static List<String> olderBlocksWarnings(RunManifestRecord m) {
    List<String> warnings = new ArrayList<>();
    // Version 1: the sample interval waits for the samples. Before, a run whose first window had
    // no sample got 1 ms for an event counted in ns, and another event a median of the few gaps
    // of its first window.
    if (m.getBlocksVersion() < 1 && (!m.getPeriodIsNs() || m.getSampleIntervalNs() == 1_000_000)) {
      warnings.add(m.getSource() + ": archived by a loadprof older than 2026-11-27, which may"
          + " have fixed the sample interval (" + m.getSampleIntervalNs() + " ns) before the"
          + " run's samples told it; repaired switch-ins then start too early and the higher"
          + " loads read too much (4 points seen). Archive its trace again to rebuild it.");
    }
    // Versions 2 and 3 need no warning. 2: blocks carry each CPU's last sample into the next
    // window; without it, only a never-sampled run before a window's first sample gets the older
    // repair, within half an interval of the newer one. 3: a per-process recording's program
    // runs from its exec, which older blocks start at its first sample, less than an interval
    // later.
    return warnings;
  }

  /** The message for two different traces with one run id. */
  public static String conflictMessage(String archive, String runId, String archivedSource,
      String newSource) {
    return archive + " already holds a different trace with the run id '" + runId + "' (from "
        + archivedSource + "); " + newSource + " differs. Rename it or use another archive.";
  }
}
