package dev.loadprof.archive;

import java.io.Serializable;
import java.util.Map;
import java.util.Set;

/**
 * What one archive job writes: where, under which job id, parsed how, each run's night, and how
 * old debris of other jobs must be before this job deletes it (younger debris may belong to a job
 * that is still running).
 *
 * @param nights run id to its night (YYYY-MM-DD); runs not in it get {@code defaultNight}
 * @param repairs run ids whose archived run the CLI found damaged: re-created from the trace
 */
public record ArchiveJob(String archive, String jobId, String requestedEvent, long windowNs,
    Map<String, String> nights, String defaultNight, long debrisGraceMillis, Set<String> repairs)
    implements Serializable {
  public ArchiveJob {
    nights = Map.copyOf(nights);
    repairs = Set.copyOf(repairs);
  }

  public String nightOf(String runId) {
    return nights.getOrDefault(runId, defaultNight);
  }
}
