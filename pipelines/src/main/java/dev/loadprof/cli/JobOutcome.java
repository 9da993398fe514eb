package dev.loadprof.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loadprof.archive.ArchiveCorruptException;
import dev.loadprof.perfdata.DamagedPerfDataException;
import dev.loadprof.archive.ArchiveRunConflictException;
import dev.loadprof.beam.WriteReports;
import dev.loadprof.compare.CompareInputException;
import dev.loadprof.report.AnalyzeReport;
import dev.loadprof.report.PprofReport;
import dev.loadprof.report.Printable;
import dev.loadprof.report.Report;
import dev.loadprof.report.Reports;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.MatchResult;
import org.apache.beam.sdk.io.fs.ResolveOptions.StandardResolveOptions;
import org.apache.beam.sdk.io.fs.ResourceId;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.MetricsFilter;

/** What a finished (or failed) job means for the user: the closing lines and the exit code. */
final class JobOutcome {
  private JobOutcome() {}

  /** Analyze: the summary, the outputs written, and each unusable trace's reason (exit 2). */
  static int analyzed(PipelineResult result, String outDir, int runs, PrintStream out,
      PrintStream err) {
    printSummary(outDir, out);
    printWarnings(outDir, err);
    long unusable = counter(result, "unusable_runs");
    if (unusable == 0) {
      return ExitCode.OK;
    }
    for (String reason : unusableReasons(outDir)) {
      err.println("loadprof: " + Printable.escape(reason)); // names come from the trace
    }
    err.println("loadprof: " + unusable + " of " + runs + " traces could not be analyzed"
        + " (reasons above and in " + outDir + "/summary.json)");
    return ExitCode.BAD_INPUT;
  }

  /**
   * Compare and nightly: the console summary, the outputs written, and the exit code of the
   * verdict in {@code jsonFile} (3 for a significant real-time regression, else 0).
   */
  static int judged(String outDir, String jsonFile, List<String> outputs, PrintStream out,
      PrintStream err) {
    try (InputStream in = Channels.newInputStream(FileSystems.open(resolve(outDir,
        WriteReports.CONSOLE_SUMMARY_FILE)))) {
      out.print(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      out.println("(no summary written: " + e.getMessage() + ")");
    }
    out.println("Outputs in " + outDir + "/: " + String.join(", ", outputs));
    ResourceId json = resolve(outDir, jsonFile);
    try (InputStream in = Channels.newInputStream(FileSystems.open(json))) {
      return new ObjectMapper().readTree(in).path("exit_code").asInt(ExitCode.JOB_FAILED);
    } catch (IOException e) {
      err.println("loadprof: the job wrote no readable " + json + ": " + e.getMessage());
      return ExitCode.JOB_FAILED;
    }
  }

  /**
   * A job that threw: damage found while reading an archive, runs that cannot be compared, or a
   * run id that another archive job won with a different trace, are bad input (exit 2, one
   * line); anything else is a failed job (exit 1), told by its root cause's message.
   */
  static int failed(RuntimeException e, PrintStream err) {
    ArchiveRunConflictException conflict = ArchiveRunConflictException.find(e);
    if (conflict != null) { // another job archived a different trace as this run id
      err.println("loadprof: " + conflict.getMessage());
      return ExitCode.BAD_INPUT;
    }
    ArchiveCorruptException badArchive = ArchiveCorruptException.find(e);
    if (badArchive != null) {
      err.println("loadprof: " + badArchive.getMessage());
      return ExitCode.BAD_INPUT;
    }
    String damaged = DamagedPerfDataException.messageIn(e);
    if (damaged != null) { // bad input: perf.data that perf cannot read
      err.println("loadprof: " + damaged);
      return ExitCode.BAD_INPUT;
    }
    String cannotCompare = compareInputMessage(e);
    if (cannotCompare != null) {
      err.println("loadprof: " + cannotCompare);
      return ExitCode.BAD_INPUT;
    }
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String why = root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
    err.println("loadprof: the job failed: " + why + " (run again with --verbose for the"
        + " runner's log)");
    return ExitCode.JOB_FAILED;
  }

  /**
   * The message of a CompareInputException in the chain of causes, or null. A cluster runner may
   * hand the exception back as a stand-in that only keeps its class name and message, in its
   * text.
   */
  private static String compareInputMessage(Throwable t) {
    String prefix = CompareInputException.class.getName() + ": ";
    for (int depth = 0; t != null && depth < 50; depth++, t = t.getCause()) {
      if (t instanceof CompareInputException c) {
        return c.getMessage();
      }
      String text = String.valueOf(t);
      int at = text.indexOf(prefix);
      if (at >= 0) {
        return text.substring(at + prefix.length()).lines().findFirst().orElse("");
      }
    }
    return null;
  }

  /** The sum of a loadprof counter over the job, 0 when the runner has no metrics. */
  static long counter(PipelineResult result, String name) {
    try {
      long sum = 0;
      for (MetricResult<Long> c : result.metrics().queryMetrics(MetricsFilter.builder()
          .addNameFilter(MetricNameFilter.named("loadprof", name)).build()).getCounters()) {
        Long v = c.getAttempted();
        sum += v == null ? 0 : v;
      }
      return sum;
    } catch (UnsupportedOperationException e) {
      return 0;
    }
  }

  private static void printSummary(String outDir, PrintStream out) {
    ResourceId file = resolve(outDir, WriteReports.CONSOLE_SUMMARY_FILE);
    try (InputStream in = Channels.newInputStream(FileSystems.open(file))) {
      out.print(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      List<String> names = new ArrayList<>();
      for (Report r : Reports.ALL) { // the one list of outputs, in its order
        if (!r.fileName().equals(WriteReports.CONSOLE_SUMMARY_FILE)
            && exists(resolve(outDir, r.fileName()))) {
          names.add(r instanceof PprofReport ? r.fileName() + " (go tool pprof)"
              : r instanceof AnalyzeReport ? r.fileName() + " (open in a browser)" : r.fileName());
        }
      }
      out.println("Outputs in " + outDir + "/: " + String.join(", ", names));
    } catch (IOException e) {
      out.println("(no summary written: " + e.getMessage() + ")");
    }
  }

  /** Every warning of the job, grouped (see {@link WarningSummary}). */
  private static void printWarnings(String outDir, PrintStream err) {
    ResourceId file = resolve(outDir, "summary.json");
    try (InputStream in = Channels.newInputStream(FileSystems.open(file))) {
      WarningSummary.print(new ObjectMapper().readTree(in), err);
    } catch (IOException e) {
      err.println("loadprof: could not read the warnings from " + file + ": " + e.getMessage());
    }
  }

  /** The one-line reasons of the unusable runs, as written to summary.json. */
  private static List<String> unusableReasons(String outDir) {
    List<String> reasons = new ArrayList<>();
    ResourceId file = resolve(outDir, "summary.json");
    try (InputStream in = Channels.newInputStream(FileSystems.open(file))) {
      for (JsonNode run : new ObjectMapper().readTree(in).path("runs")) {
        String reason = run.path("unusable_reason").asText("");
        if (!reason.isEmpty()) {
          reasons.add(reason);
        }
      }
    } catch (IOException e) {
      reasons.add("(could not read " + file + ": " + e.getMessage() + ")");
    }
    return reasons;
  }

  private static ResourceId resolve(String dir, String name) {
    return FileSystems.matchNewResource(dir, true)
        .resolve(name, StandardResolveOptions.RESOLVE_FILE);
  }

  private static boolean exists(ResourceId file) {
    try {
      if ("file".equals(file.getScheme())) {
        return Files.exists(Paths.get(file.toString()));
      }
      return FileSystems.match(file.toString()).status() == MatchResult.Status.OK;
    } catch (IOException e) {
      return false;
    }
  }
}
