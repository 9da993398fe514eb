package dev.loadprof.cli;

import dev.loadprof.cli.progress.ProgressDisplay;
import dev.loadprof.cli.progress.ProgressOptions;
import dev.loadprof.archive.ArchiveJob;
import dev.loadprof.archive.ArchiveRules;
import dev.loadprof.archive.beam.ArchiveLayout;
import dev.loadprof.archive.beam.TraceFingerprint;
import dev.loadprof.beam.ParseTraces;
import dev.loadprof.pipelines.AnalyzeSettings;
import dev.loadprof.pipelines.ArchivePipeline;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.EmptyMatchTreatment;
import org.apache.beam.sdk.io.fs.MatchResult;
import org.apache.beam.sdk.io.fs.ResolveOptions.StandardResolveOptions;
import org.apache.beam.sdk.options.PipelineOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code loadprof archive --out ARCHIVE TRACE...}: parses traces once into an archive that
 * {@code loadprof analyze ARCHIVE} reads. Traces already in the archive (same run id, same
 * content, same --window and --event) are skipped before anything is parsed, unless the archived
 * run is damaged: then it is re-created; a different trace with the run id of an archived one is
 * refused (exit 2). The rules are {@link ArchiveRules}.
 */
@Command(name = "archive", customSynopsis = ArchiveCommand.SYNOPSIS,
    description = "Parse traces once into an Avro archive that loadprof analyze reads; traces"
        + " already in it are skipped.",
    footer = Usage.PASS_THROUGH + Usage.STORES + Usage.RECORD + Usage.EXIT_CODES)
final class ArchiveCommand implements JobCommand {
  static final String SYNOPSIS = "loadprof archive -o ARCHIVE [options] TRACE...";

  // No default: the archive is named once and read by later runs, so it is never a guess.
  @Option(names = {"-o", "--out"}, paramLabel = "ARCHIVE", converter = Converters.NonEmpty.class,
      description = "The archive to add the traces to (a directory, s3:// or hdfs:// path;"
          + " required).")
  String output;
  @Mixin ParsingOptions parsing;
  @Mixin ArchivePartitionOptions partition;
  @Mixin RunnerOptions runner;
  @Mixin InputOptions inputs;
  @Mixin ProgressOptions progress;

  @Override
  public int run(List<String> pipelineArgs, PrintStream out, PrintStream err)
      throws UsageException {
    if (output == null) {
      throw new UsageException("archive needs -o/--out ARCHIVE; usage: " + SYNOPSIS);
    }
    List<String> traces = inputs.required(SYNOPSIS);
    EarlyRejection.unreadableLocalTraces(traces);
    PipelineOptions options = runner.pipelineOptions(pipelineArgs, PipelineOptions.class,
        StoreEnvironment.paths(traces, output));
    AnalyzeSettings.Builder builder = AnalyzeSettings.builder(output);
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
    List<String> files = Inputs.archiveTraceFiles(traces);
    Set<String> repairs = new HashSet<>();
    List<String> todo = notYetArchived(files, archive, settings, repairs, out);
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
        settings.windowMs() * 1_000_000L, night, graceMillis, repairs);
    int swept = ArchiveLayout.sweepStaging(archive, System.currentTimeMillis() - graceMillis);
    if (swept > 0) {
      out.println("Deleted " + swept + " staged files of failed archive jobs.");
    }
    PipelineResult result;
    try (ProgressDisplay shown = progress.start(err, options)) {
      result = ArchivePipeline.run(options, todo, settings, job);
    } finally {
      ArchiveLayout.deleteStaging(archive, jobId);
    }
    long repaired = JobOutcome.counter(result, "archive_runs_repaired");
    out.printf("Archived into %s: %d runs added, %d replaced%s, %d unchanged (%s).%n", archive,
        JobOutcome.counter(result, "archive_runs_added"),
        JobOutcome.counter(result, "archive_runs_replaced"),
        repaired > 0 ? ", " + repaired + " repaired" : "",
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
   * The traces that the job must archive ({@link ArchiveRules}): a trace whose run id is
   * archived is hashed here (only then), and the archived run is read whole, so that a damaged
   * run is re-created from its trace; the run ids to repair are added to {@code repairs}.
   */
  private static List<String> notYetArchived(List<String> files, String archive,
      AnalyzeSettings settings, Set<String> repairs, PrintStream out) throws UsageException {
    List<String> todo = new ArrayList<>();
    for (String file : files) {
      String runId = ParseTraces.runIdOf(file);
      var manifestFile = ArchiveLayout.manifest(archive, runId);
      ArchivedRuns.Found found = ArchivedRuns.Found.NONE;
      String fingerprint = null;
      if (ArchiveLayout.exists(manifestFile)) {
        found = ArchivedRuns.read(archive, manifestFile);
        try {
          fingerprint = TraceFingerprint.of(file);
        } catch (IOException e) {
          throw new UsageException("cannot read " + file + ": " + e.getMessage());
        }
      }
      ArchiveRules.Archived archived = found.archived();
      switch (ArchiveRules.decide(archived, fingerprint, settings.windowMs() * 1_000_000L,
          settings.event())) {
        case CONFLICT -> throw new UsageException(ArchiveRules.conflictMessage(archive, runId,
            archived.manifest().getSource(), file));
        case UNCHANGED -> out.println("Skipping " + file + ": already archived as run " + runId
            + ".");
        case REPAIR -> {
          out.println("Re-creating run " + runId + " from " + file + ": its archived files are"
              + " damaged (" + found.problem() + ").");
          repairs.add(runId);
          todo.add(file);
        }
        default -> todo.add(file); // new, the same trace with another window or event, or
                                   // its blocks built by an older loadprof
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
