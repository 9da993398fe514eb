package dev.loadprof.pipelines;

import dev.loadprof.archive.beam.ReadArchive;
import dev.loadprof.archive.RunSelection;
import dev.loadprof.beam.ParseTraces;
import dev.loadprof.model.EventBlock;
import dev.loadprof.model.RunInfo;
import java.util.List;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PCollectionTuple;

/** Archives as inputs of the analyze pipeline: their runs join the parsed ones. */
final class ArchiveInputs {
  private ArchiveInputs() {}

  /**
   * The archives' runs as {@link ReadArchive} reads them (with stored figures of
   * {@code storedKind} read instead of blocks, unless ""), or null without archives.
   */
  static PCollectionTuple read(PCollectionTuple parsed, List<String> archives,
      RunSelection selection, String storedKind) {
    return archives.isEmpty() ? null : parsed.getPipeline().begin()
        .apply("Read archives", new ReadArchive(archives, selection, storedKind));
  }

  /**
   * The parsed runs together with those read from archives ({@link #read}), in the shape
   * ParseTraces gives.
   */
  static PCollectionTuple withArchives(PCollectionTuple parsed, PCollectionTuple archived) {
    if (archived == null) {
      return parsed;
    }
    PCollection<EventBlock> blocks = PCollectionList.of(parsed.get(ParseTraces.BLOCKS))
        .and(archived.get(ParseTraces.BLOCKS))
        .apply("Parsed and archived blocks", Flatten.pCollections());
    PCollection<RunInfo> runs = PCollectionList.of(parsed.get(ParseTraces.RUNS))
        .and(archived.get(ParseTraces.RUNS))
        .apply("Parsed and archived runs", Flatten.pCollections());
    return PCollectionTuple.of(ParseTraces.BLOCKS, blocks).and(ParseTraces.RUNS, runs);
  }
}
