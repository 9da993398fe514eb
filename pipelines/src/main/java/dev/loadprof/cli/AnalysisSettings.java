package dev.loadprof.cli;

import dev.loadprof.pipelines.AnalyzeSettings;

/** The settings of an analysis job, built once from the option groups its command has. */
final class AnalysisSettings {
  private AnalysisSettings() {}

  /** {@code selection} is null for a command that has no run selection (compare). */
  static AnalyzeSettings of(String outDir, ParsingOptions parsing, FilterOptions filters,
      RunSelectionOptions selection) throws UsageException {
    AnalyzeSettings.Builder builder = AnalyzeSettings.builder(outDir);
    parsing.applyTo(builder);
    filters.applyTo(builder);
    if (selection != null) {
      selection.applyTo(builder);
    }
    return builder.build();
  }
}
