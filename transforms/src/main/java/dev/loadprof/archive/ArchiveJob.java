package dev.loadprof.archive;

import java.io.Serializable;
import java.util.Set;

/**
 * What one archive job writes: where, under which job id, parsed how, the night given with
 * --night (each run's night is {@link NightRule}'s), and how old debris of other jobs must be
 * before this job deletes it (younger debris may belong to a job that is still running).
 *
 * @param explicitNight --night (YYYY-MM-DD), or null: each run's night by {@link NightRule}
 * @param repairs run ids whose archived run the CLI found damaged: re-created from the trace
 */
public record ArchiveJob(String archive, String jobId, String requestedEvent, long windowNs,
    String explicitNight, long debrisGraceMillis, Set<String> repairs)
    implements Serializable {
  public ArchiveJob {
    repairs = Set.copyOf(repairs);
  }
}
