package dev.loadprof.pipelines;

import dev.loadprof.archive.ArchiveConversions;
import dev.loadprof.archive.ArchiveCorruptException;
import dev.loadprof.archive.ArchiveFiles;
import dev.loadprof.archive.ArchiveLayout;
import dev.loadprof.archive.ArchiveListing;
import dev.loadprof.archive.RunSelection;
import dev.loadprof.archive.ReadArchive;
import dev.loadprof.beam.ParseTraces;
import dev.loadprof.model.EventBlock;
import dev.loadprof.model.RunInfo;
import dev.loadprof.pipelines.LoadprofCli.UsageException;
import dev.loadprof.schemas.BlockFileRecord;
import dev.loadprof.schemas.RunManifestRecord;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.ResourceId;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PCollectionTuple;

/**
 * Archives as inputs of {@code loadprof analyze}: tells archive directories from trace files,
 * checks archives before the job starts (so a damaged file is a one-line error, not a failed
 * job), and adds the archived runs to the parsed ones in the pipeline.
 */
final class ArchiveInputs {
  private ArchiveInputs() {}

  /** The inputs of analyze, split into archive directories and trace specs, in given order. */
  record Split(List<String> archives, List<String> traces) {}

  static Split split(List<String> inputs) {
    List<String> archives = new ArrayList<>();
    List<String> traces = new ArrayList<>();
    for (String input : inputs) {
      (ArchiveLayout.isArchive(input) ? archives : traces).add(input);
    }
    return new Split(archives, traces);
  }

  /**
   * Reads every manifest of the archives and checks that every block file they list exists, has
   * the recorded size and starts as an Avro file of blocks. Damage inside a file (caught by the
   * codec's checksums) can only be seen when it is read, in the job; the CLI reports it the same
   * way.
   *
   * <p>Archived runs keep the window and event they were parsed with. When analyze is given
   * another --event, or explicitly another --window, the archive cannot give what the traces
   * would, so that is an error too.
   *
   * @param windowNs the --window given explicitly, in ns, or null when it was not given
   * @return run id to the manifest it comes from, for every archived run
   */
  static Map<String, String> check(List<String> archives, RunSelection selection, String event,
      Long windowNs) throws UsageException {
    Map<String, String> runs = new LinkedHashMap<>();
    for (String archive : archives) {
      List<ArchiveListing.ManifestRef> manifests;
      try {
        manifests = ArchiveListing.list(archive, selection);
      } catch (IOException e) {
        throw new UsageException("cannot read archive " + archive + ": " + e.getMessage());
      } catch (IllegalArgumentException e) {
        throw new UsageException(e.getMessage());
      }
      int selected = 0;
      for (ArchiveListing.ManifestRef ref : manifests) {
        try {
          ResourceId file = FileSystems.matchNewResource(ref.path(), false);
          if (!ArchiveLayout.exists(file)) {
            continue; // an index entry of a job that never committed
          }
          RunManifestRecord manifest = ArchiveFiles.readManifest(file);
          if (!ref.accepts(manifest)) {
            continue; // a stale index entry
          }
          try {
            ArchiveConversions.fromManifest(manifest);
          } catch (IllegalArgumentException e) {
            throw new ArchiveCorruptException(ref.path(), e.getMessage(), e);
          }
          checkParsedAsRequested(manifest, ref.path(), event, windowNs);
          for (BlockFileRecord f : manifest.getBlockFiles()) {
            ResourceId blockFile = ArchiveLayout.resolve(archive, f.getPath());
            ArchiveFiles.checkSize(blockFile, f.getSizeBytes());
            checkHeader(blockFile);
          }
          String previous = runs.put(manifest.getRunId(), ref.path());
          if (previous != null) {
            throw new UsageException("two archives hold the run id '" + manifest.getRunId()
                + "': " + previous + " and " + ref.path() + "; give only one");
          }
          selected++;
        } catch (ArchiveCorruptException e) {
          throw new UsageException(e.getMessage());
        }
      }
      if (selected == 0) {
        throw new UsageException(selection.isAll()
            ? archive + " is an archive without runs; add traces with loadprof archive --out "
                + archive + " TRACE..."
            : archive + " has no runs of " + selection + "; leave out --nights/--hosts to"
                + " read them all");
      }
    }
    return runs;
  }

  private static void checkParsedAsRequested(RunManifestRecord manifest, String file,
      String event, Long windowNs) throws UsageException {
    if (event != null && !event.equals(manifest.getSamplingEvent())) {
      throw new UsageException(file + ": run " + manifest.getRunId() + " was archived with the"
          + " sampling event " + manifest.getSamplingEvent() + ", not " + event
          + "; archive it again with --event " + event);
    }
    if (windowNs != null && windowNs != manifest.getWindowNs()) {
      throw new UsageException(file + ": run " + manifest.getRunId() + " was archived with"
          + " --window " + manifest.getWindowNs() / 1_000_000 + "ms; archive it again with"
          + " this --window, or leave --window out");
    }
  }

  /** Fails unless the file starts with an Avro header whose schema is EventBlockRecord. */
  private static void checkHeader(ResourceId file) {
    try (InputStream in = Channels.newInputStream(FileSystems.open(file));
        DataFileStream<Object> avro = new DataFileStream<>(in, new GenericDatumReader<>())) {
      String schema = avro.getSchema().getFullName();
      if (!schema.equals(dev.loadprof.schemas.EventBlockRecord.getClassSchema().getFullName())) {
        throw new ArchiveCorruptException(file.toString(), "holds " + schema
            + " records, not event blocks", null);
      }
    } catch (IOException | RuntimeException e) {
      if (e instanceof ArchiveCorruptException a) {
        throw a;
      }
      throw new ArchiveCorruptException(file.toString(), "corrupt or truncated Avro file ("
          + e + ")", e);
    }
  }

  /** Fails when a trace has the run id of an archived run: the run would be counted twice. */
  static void checkNoClash(List<String> traceFiles, Map<String, String> archivedRuns)
      throws UsageException {
    for (String file : traceFiles) {
      String manifest = archivedRuns.get(ParseTraces.runIdOf(file));
      if (manifest != null) {
        throw new UsageException(file + " has the run id of an archived run (" + manifest
            + "); give the trace or the archive, not both");
      }
    }
  }

  /** The parsed runs together with the runs of the archives, in the shape ParseTraces gives. */
  static PCollectionTuple withArchives(PCollectionTuple parsed, List<String> archives,
      RunSelection selection) {
    if (archives.isEmpty()) {
      return parsed;
    }
    PCollectionTuple archived = parsed.getPipeline().begin()
        .apply("Read archives", new ReadArchive(archives, selection));
    PCollection<EventBlock> blocks = PCollectionList.of(parsed.get(ParseTraces.BLOCKS))
        .and(archived.get(ParseTraces.BLOCKS))
        .apply("Parsed and archived blocks", Flatten.pCollections());
    PCollection<RunInfo> runs = PCollectionList.of(parsed.get(ParseTraces.RUNS))
        .and(archived.get(ParseTraces.RUNS))
        .apply("Parsed and archived runs", Flatten.pCollections());
    return PCollectionTuple.of(ParseTraces.BLOCKS, blocks).and(ParseTraces.RUNS, runs);
  }
}
