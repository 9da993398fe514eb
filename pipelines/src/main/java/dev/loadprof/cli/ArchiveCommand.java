package dev.loadprof.cli;

import dev.loadprof.cli.progress.ProgressDisplay;
import dev.loadprof.cli.progress.ProgressOptions;
import dev.loadprof.archive.ArchiveCorruptException;
import dev.loadprof.archive.beam.ArchiveFiles;
import dev.loadprof.archive.ArchiveJob;
import dev.loadprof.archive.beam.ArchiveLayout;
import dev.loadprof.archive.RunSelection;
import dev.loadprof.archive.beam.TraceFingerprint;
import dev.loadprof.beam.ParseTraces;
import dev.loadprof.pipelines.AnalyzeSettings;
import dev.loadprof.pipelines.ArchivePipeline;
import dev.loadprof.schemas.RunManifestRecord;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.EmptyMatchTreatment;
import org.apache.beam.sdk.io.fs.MatchResult;
import org.apache.beam.sdk.io.fs.ResolveOptions.StandardResolveOptions;
import org.apache.beam.sdk.options.PipelineOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code loadprof archive --out ARCHIVE TRACE...}: parses traces once into an archive that
 * {@code loadprof analyze ARCHIVE} reads. Traces already in the archive (same run id, same
 * content, same --window and --event) are skipped before anything is parsed; a different trace
 * with the run id of an archived one is refused (exit 2).
 */
@Command(name = "archive", customSynopsis = ArchiveCommand.SYNOPSIS,
    description = "Parse traces once into an Avro archive that loadprof analyze reads; traces"
        + " already in it are skipped.",
    footer = Usage.PASS_THROUGH + Usage.STORES + Usage.RECORD + Usage.EXIT_CODES)
final class ArchiveCommand implements JobCommand {
  static final String SYNOPSIS = "loadprof archive -o ARCHIVE [options] TRACE...";

  @Mixin OutputOptions output;
  @Mixin ParsingOptions parsing;
  @Mixin ArchivePartitionOptions partition;
  @Mixin RunnerOptions runner;
  @Mixin InputOptions inputs;
  @Mixin ProgressOptions progress;

  @Override
  public int run(List<String> pipelineArgs, PrintStream out, PrintStream err)
      throws UsageException {
    if (output.out == null) {
      throw new UsageException("archive needs -o/--out ARCHIVE; usage: " + SYNOPSIS);
    }
    List<String> traces = inputs.required(SYNOPSIS);
    PipelineOptions options = runner.pipelineOptions(pipelineArgs, PipelineOptions.class,
        StoreEnvironment.paths(traces, output.out));
    AnalyzeSettings.Builder builder = AnalyzeSettings.builder(output.out);
    parsing.applyTo(builder);
    AnalyzeSettings settings = builder.build();
    String night = partition.night();
    long graceMillis = partition.debrisGraceMillis();
    FileSystems.setDefaultPipelineOptions(options);
    String archive = settings.out();
    OutputDir.checkWritable(archive);
    checkIsArchiveOrEmpty(archive);
    if (ArchiveLayout.exists(ArchiveLayout.marker(archive))) {
      ArchiveChecks.checkFormat(archive); // never add runs to an archive of an unknown format
    }
    List<String> files = Inputs.traceFiles(traces);
    List<String> todo = notYetArchived(files, archive, settings, out);
    if (todo.isEmpty()) {
      out.println("Nothing to do: all " + files.size() + " traces are already in " + archive
          + ".");
      return ExitCode.OK;
    }
    try {
      ArchiveLayout.createMarker(archive, options);
    } catch (IOException e) {
      throw new UsageException("cannot write the archive " + archive + ": " + e.getMessage());
    }
    String jobId = UUID.randomUUID().toString().substring(0, 8);
    ArchiveJob job = new ArchiveJob(archive, jobId, settings.event(),
        settings.windowMs() * 1_000_000L, nights(todo, night),
        RunSelection.nightOf(System.currentTimeMillis()), graceMillis);
    int swept = ArchiveLayout.sweepStaging(archive, System.currentTimeMillis() - graceMillis);
    if (swept > 0) {
      out.println("Deleted " + swept + " staged files of failed archive jobs.");
    }
    PipelineResult result;
    try (ProgressDisplay shown = progress.start(err)) {
      result = ArchivePipeline.run(options, todo, settings, job);
    } finally {
      ArchiveLayout.deleteStaging(archive, jobId);
    }
    out.printf("Archived into %s: %d runs added, %d replaced, %d unchanged (%s).%n", archive,
        JobOutcome.counter(result, "archive_runs_added"),
        JobOutcome.counter(result, "archive_runs_replaced"),
        JobOutcome.counter(result, "archive_runs_unchanged") + files.size() - todo.size(),
        sizeOf(archive));
    long unusable = JobOutcome.counter(result, "unusable_runs");
    if (unusable > 0) {
      err.println("loadprof: " + unusable + " of " + todo.size() + " traces are archived but"
          + " cannot be analyzed; see the UNUSABLE lines above");
      return ExitCode.BAD_INPUT;
    }
    return ExitCode.OK;
  }

  /** Run id to night: --night for all, else the UTC date each trace was last modified. */
  private static Map<String, String> nights(List<String> traces, String night)
      throws UsageException {
    Map<String, String> nights = new HashMap<>();
    for (String trace : traces) {
      String n;
      if (night != null) {
        n = night; // checked by ArchivePartitionOptions
      } else {
        try {
          n = RunSelection.nightOf(FileSystems.matchSingleFileSpec(trace).lastModifiedMillis());
        } catch (IOException e) {
          throw new UsageException("cannot read " + trace + ": " + e.getMessage());
        }
      }
      nights.put(ParseTraces.runIdOf(trace), n);
    }
    return nights;
  }

  /** Refuses to scatter archive files into a directory that holds something else. */
  private static void checkIsArchiveOrEmpty(String archive) throws UsageException {
    if (ArchiveLayout.isArchive(archive)) {
      return;
    }
    try {
      MatchResult m = FileSystems.match(ArchiveLayout.dir(archive)
          .resolve("*", StandardResolveOptions.RESOLVE_FILE).toString(),
          EmptyMatchTreatment.ALLOW);
      // Names of an archive that another job is starting at this moment do not count.
      if (m.metadata().stream().anyMatch(f -> !ArchiveLayout.isArchiveEntry(
          f.resourceId().getFilename()))) {
        throw new UsageException(archive + " exists and is not a loadprof archive (no "
            + ArchiveLayout.MARKER_FILE + "); give a new or empty directory");
      }
    } catch (IOException e) {
      // An unreadable place fails clearly when the marker is written.
    }
  }

  /**
   * The traces that are not in the archive yet. A trace whose run id is archived is hashed here
   * (only then): same content, window and event means skip; different content is an error.
   */
  private static List<String> notYetArchived(List<String> files, String archive,
      AnalyzeSettings settings, PrintStream out) throws UsageException {
    List<String> todo = new ArrayList<>();
    for (String file : files) {
      String runId = ParseTraces.runIdOf(file);
      var manifestFile = ArchiveLayout.manifest(archive, runId);
      if (!ArchiveLayout.exists(manifestFile)) {
        todo.add(file);
        continue;
      }
      RunManifestRecord existing;
      try {
        existing = ArchiveFiles.readManifest(manifestFile);
      } catch (ArchiveCorruptException e) {
        throw new UsageException(e.getMessage());
      }
      String fingerprint;
      try {
        fingerprint = TraceFingerprint.of(file);
      } catch (IOException e) {
        throw new UsageException("cannot read " + file + ": " + e.getMessage());
      }
      if (!fingerprint.equals(existing.getFingerprint())) {
        throw new UsageException(archive + " already holds a different trace with the run id '"
            + runId + "' (from " + existing.getSource() + "); " + file
            + " differs. Rename it or use another archive.");
      }
      if (existing.getWindowNs() == settings.windowMs() * 1_000_000L
          && Objects.equals(existing.getRequestedEvent(), settings.event())) {
        out.println("Skipping " + file + ": already archived as run " + runId + ".");
      } else {
        todo.add(file); // same trace, other window or event: replace it
      }
    }
    return todo;
  }

  private static String sizeOf(String archive) {
    try {
      long bytes = 0;
      int count = 0;
      for (MatchResult.Metadata m : FileSystems.match(ArchiveLayout.dir(archive)
          .resolve("**", StandardResolveOptions.RESOLVE_FILE).toString(),
          EmptyMatchTreatment.ALLOW).metadata()) {
        bytes += m.sizeBytes();
        count++;
      }
      if (count == 0) {
        // The marker at least is there: the store's listing lagged (seen on S3Mock under
        // concurrent writers), so no size is better than a wrong one.
        return "size unknown: the store listed no files yet";
      }
      return count + " files, " + bytes + " bytes in all";
    } catch (IOException e) {
      return "size unknown";
    }
  }
}
