package dev.loadprof.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loadprof.beam.WriteReports;
import dev.loadprof.model.BadInput;
import dev.loadprof.report.AnalyzeReport;
import dev.loadprof.report.FoldedReport;
import dev.loadprof.report.FunctionsReport;
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

  /**
   * Analyze: the summary, the outputs written, and each unusable trace's reason (exit 2), of a
   * job that counted its unusable traces (JobPlacement, on either path).
   */
  static int analyzed(long unusable, OutputClaim claim, int runs, ConsoleView view,
      PrintStream out, PrintStream err) {
    String staged = claim.staging(); // this job's own outputs: no other job writes there
    String summary = summary(staged, claim.out(), view);
    JsonNode summaryJson = readSummaryJson(staged, err);
    int published = publish(claim, err, () -> {
      out.print(summary);
      if (summaryJson != null) {
        WarningSummary.print(summaryJson, err);
      }
    });
    if (published != ExitCode.OK || unusable == 0) {
      return published;
    }
    for (String reason : unusableReasons(summaryJson, staged)) {
      err.println("loadprof: " + Printable.escape(reason)); // names come from the trace
    }
    err.println("loadprof: " + unusable + " of " + runs + " traces could not be analyzed"
        + " (reasons above and in " + claim.out() + "/summary.json)");
    return ExitCode.BAD_INPUT;
  }

  /**
   * Publishes the staged outputs into --out, and only then runs {@code tell}: the summary and
   * the line that says where the outputs are. OK when told; 1 (said here) when the publish
   * failed; 130 when the job is being stopped (the claim's shutdown hook says what --out holds).
   */
  private static int publish(OutputClaim claim, PrintStream err, Runnable tell) {
    try {
      if (!claim.publish()) {
        return ExitCode.STOPPED;
      }
    } catch (IOException e) {
      err.println("loadprof: could not move the outputs into " + claim.out() + ": "
          + e.getMessage());
      return ExitCode.JOB_FAILED;
    }
    return claim.tellPublished(tell) ? ExitCode.OK : ExitCode.STOPPED;
  }

  /**
   * Compare and nightly: the console summary, the outputs written, and the exit code of the
   * verdict in {@code jsonFile} (3 for a significant real-time regression, else 0).
   */
  static int judged(OutputClaim claim, String jsonFile, List<String> outputs, PrintStream out,
      PrintStream err) {
    String staged = claim.staging(); // this job's own outputs: no other job writes there
    String summary;
    try (InputStream in = Channels.newInputStream(FileSystems.open(resolve(staged,
        WriteReports.CONSOLE_SUMMARY_FILE)))) {
      summary = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      summary = "(no summary written: " + e.getMessage() + ")\n";
    }
    int exit;
    try (InputStream in = Channels.newInputStream(FileSystems.open(resolve(staged, jsonFile)))) {
      exit = new ObjectMapper().readTree(in).path("exit_code").asInt(ExitCode.JOB_FAILED);
    } catch (IOException e) {
      err.println("loadprof: the job wrote no readable " + jsonFile + ": " + e.getMessage());
      return ExitCode.JOB_FAILED;
    }
    String told = summary + "Outputs in " + claim.out() + "/: " + String.join(", ", outputs)
        + System.lineSeparator();
    int published = publish(claim, err, () -> out.print(told));
    return published == ExitCode.OK ? exit : published;
  }

  /**
   * A job that threw: a {@link BadInput} anywhere in the chain of causes (a damaged archive, a
   * run id another job archived with a different trace, runs that cannot be compared) is exit 2
   * with its one line; anything else is a failed job (exit 1), told by its root cause's message.
   */
  static int failed(RuntimeException e, PrintStream err) {
    BadInput bad = FailureCauses.find(e, BadInput.class);
    if (bad != null) {
      err.println("loadprof: " + bad.getMessage());
      return ExitCode.BAD_INPUT;
    }
    String oom = OutOfMemory.advice(e); // a runner may wrap it
    if (oom != null) {
      err.println("loadprof: " + oom);
      return ExitCode.JOB_FAILED;
    }
    Throwable root = FailureCauses.root(e);
    String why = root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
    err.println("loadprof: the job failed: " + why + " (run again with --verbose for the"
        + " runner's log, --debug for its stack trace)");
    return ExitCode.JOB_FAILED;
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

  /** The console summary and the "Outputs in" line naming the staged outputs. */
  private static String summary(String outDir, String shownOut, ConsoleView view) {
    try {
      String summary = text(outDir, WriteReports.CONSOLE_SUMMARY_FILE);
      if (!view.isDefault()) {
        summary = ChosenFunctions.apply(view, summary, text(outDir, FunctionsReport.FILE_NAME),
            view.tree ? text(outDir, FoldedReport.FILE_NAME) : "");
      }
      List<String> names = new ArrayList<>();
      for (Report r : Reports.ALL) { // the one list of outputs, in its order
        if (!r.fileName().equals(WriteReports.CONSOLE_SUMMARY_FILE)
            && exists(resolve(outDir, r.fileName()))) {
          names.add(r instanceof PprofReport ? r.fileName() + " (go tool pprof)"
              : r instanceof AnalyzeReport ? r.fileName() + " (open in a browser)" : r.fileName());
        }
      }
      return summary + "Outputs in " + shownOut + "/: " + String.join(", ", names)
          + System.lineSeparator();
    } catch (IOException e) {
      return "(no summary written: " + e.getMessage() + ")" + System.lineSeparator();
    }
  }

  private static String text(String outDir, String name) throws IOException {
    try (InputStream in = Channels.newInputStream(FileSystems.open(resolve(outDir, name)))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** summary.json, whose warnings are printed ({@link WarningSummary}); null when unreadable. */
  private static JsonNode readSummaryJson(String outDir, PrintStream err) {
    ResourceId file = resolve(outDir, "summary.json");
    try (InputStream in = Channels.newInputStream(FileSystems.open(file))) {
      return new ObjectMapper().readTree(in);
    } catch (IOException e) {
      err.println("loadprof: could not read the warnings from " + file + ": " + e.getMessage());
      return null;
    }
  }

  /** The one-line reasons of the unusable runs, as written to summary.json. */
  private static List<String> unusableReasons(JsonNode summaryJson, String outDir) {
    if (summaryJson == null) {
      return List.of("(could not read " + resolve(outDir, "summary.json") + ")");
    }
    List<String> reasons = new ArrayList<>();
    for (JsonNode run : summaryJson.path("runs")) {
      String reason = run.path("unusable_reason").asText("");
      if (!reason.isEmpty()) {
        reasons.add(reason);
      }
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
