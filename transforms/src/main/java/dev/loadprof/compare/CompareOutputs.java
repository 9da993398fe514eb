package dev.loadprof.compare;

import dev.loadprof.report.Analysis;
import java.io.IOException;
import java.io.OutputStream;
import java.util.function.Function;

/** Writes every output of loadprof compare, each to the stream {@code open} gives its name. */
public final class CompareOutputs {
  private CompareOutputs() {}

  /**
   * compare.txt, compare.json, baseline.pb.gz, candidate.pb.gz and diff.folded; each stream is
   * closed after writing.
   */
  public static void writeAll(Analysis all, Comparison c, Function<String, OutputStream> open)
      throws IOException {
    try (OutputStream out = open.apply(CompareText.FILE_NAME)) {
      new CompareText().write(c, out);
    }
    try (OutputStream out = open.apply(CompareJson.FILE_NAME)) {
      new CompareJson().write(c, out);
    }
    try (OutputStream out = open.apply(SideProfiles.BASELINE_FILE)) {
      SideProfiles.writeProfile(all, c.baselineRuns(), out);
    }
    try (OutputStream out = open.apply(SideProfiles.CANDIDATE_FILE)) {
      SideProfiles.writeProfile(all, c.candidateRuns(), out);
    }
    try (OutputStream out = open.apply(SideProfiles.DIFF_FILE)) {
      SideProfiles.writeFoldedDiff(all, c, out);
    }
  }
}
