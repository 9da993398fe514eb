package dev.loadprof.archive.beam;

import dev.loadprof.archive.ArchiveConversions;
import dev.loadprof.archive.ArchiveJob;
import dev.loadprof.beam.ParseTraces;
import dev.loadprof.beam.RunInfoCoder;
import dev.loadprof.model.EventBlock;
import dev.loadprof.model.RunInfo;
import dev.loadprof.schemas.EventBlockRecord;
import java.io.IOException;
import org.apache.avro.file.CodecFactory;
import dev.loadprof.archive.NightIndex;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.values.TupleTagList;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.extensions.avro.coders.AvroCoder;
import org.apache.beam.sdk.extensions.avro.io.AvroIO;
import org.apache.beam.sdk.io.FileIO;
import org.apache.beam.sdk.io.WriteFilesResult;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.transforms.join.CoGroupByKey;
import org.apache.beam.sdk.transforms.join.KeyedPCollectionTuple;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.apache.beam.sdk.values.TypeDescriptors;

/**
 * Writes what {@link ParseTraces} produced into an archive directory (layout: {@link
 * ArchiveLayout}). Block files are first written under ARCHIVE/.staging/JOB/; once all are
 * complete, each run is committed on its own by {@link CommitRun}: its block files are moved under
 * blocks/RUN_ID/, its manifest is created, only if absent, then its index entry is written;
 * once every run of a night and host is committed, the job's night index of them is written
 * ({@link NightIndexes}). A job that fails before a run's commit leaves nothing a reader sees.
 *
 * <p>The output is one line per run saying what happened to it (see {@link CommitRun.Outcome}).
 */
public final class WriteArchive extends PTransform<PCollectionTuple, PCollection<String>> {
  /**
   * Block files per run: a few, so that reading a long run spreads over workers, but not one per
   * bundle (many tiny files). Reading is per file, so this is also the read parallelism of a run.
   */
  public static final int DEFAULT_SHARDS_PER_RUN = 4;

  private final ArchiveJob job;
  private final int shardsPerRun;

  public WriteArchive(ArchiveJob job, int shardsPerRun) {
    this.job = job;
    this.shardsPerRun = shardsPerRun;
  }

  @Override
  public PCollection<String> expand(PCollectionTuple parsed) {
    PCollection<EventBlock> blocks = parsed.get(ParseTraces.BLOCKS);
    PCollection<RunInfo> runs = parsed.get(ParseTraces.RUNS);

    PCollection<EventBlockRecord> records = blocks
        .apply("Blocks to Avro records", MapElements
            .into(TypeDescriptor.of(EventBlockRecord.class))
            .via(ArchiveConversions::toRecord))
        .setCoder(AvroCoder.of(EventBlockRecord.class));
    WriteFilesResult<String> written = records.apply("Write block files", FileIO
        .<String, EventBlockRecord>writeDynamic()
        .by(EventBlockRecord::getRunId)
        .withDestinationCoder(StringUtf8Coder.of())
        .via(AvroIO.sink(EventBlockRecord.class).withCodec(codec()))
        .to(ArchiveLayout.stagingDir(job.archive(), job.jobId()).toString())
        .withNaming(runId -> FileIO.Write.defaultNaming(runId, ArchiveLayout.AVRO_SUFFIX))
        .withNumShards(shardsPerRun));

    PCollection<KV<String, Long>> blockCounts = records
        .apply("Run id of each block", MapElements.into(TypeDescriptors.strings())
            .via(EventBlockRecord::getRunId))
        .apply("Count blocks per run", Count.perElement());
    PCollection<KV<String, String>> fingerprints = runs
        .apply("Fingerprint traces", ParDo.of(new FingerprintFn()))
        .setCoder(KvCoder.of(StringUtf8Coder.of(), StringUtf8Coder.of()));
    PCollection<KV<String, RunInfo>> runsById = runs
        .apply("Key runs by id", WithKeys.of((RunInfo r) -> r.runId)
            .withKeyType(TypeDescriptors.strings()))
        .setCoder(KvCoder.of(StringUtf8Coder.of(), RunInfoCoder.of()));

    PCollectionTuple committed = KeyedPCollectionTuple.of(CommitRun.RUN, runsById)
        .and(CommitRun.FINGERPRINT, fingerprints)
        .and(CommitRun.FILES, written.getPerDestinationOutputFilenames())
        .and(CommitRun.BLOCK_COUNT, blockCounts)
        .apply("Gather each run", CoGroupByKey.create())
        .apply("Commit runs", ParDo.of(new CommitRun(job)).withOutputTags(CommitRun.OUTCOMES,
            TupleTagList.of(CommitRun.INDEXED)));
    // After every run of a night and host is committed: the night index lists only runs whose
    // manifests and index entries are there.
    committed.get(CommitRun.INDEXED)
        .setCoder(KvCoder.of(StringUtf8Coder.of(), SerializableCoder.of(NightIndex.Run.class)))
        .apply("Gather runs per night and host", GroupByKey.create())
        .apply("Write night indexes", ParDo.of(new NightIndexes.WriteFn(job.archive(),
            job.jobId())));
    return committed.get(CommitRun.OUTCOMES).setCoder(StringUtf8Coder.of());
  }

  /**
   * Avro's snappy codec: it checks a CRC32 of every decompressed Avro block, so damaged bytes in
   * the middle of a file are detected before they are decoded (deflate, as Avro uses it, has no
   * checksum), and it decodes several times faster than deflate.
   */
  static CodecFactory codec() {
    return CodecFactory.snappyCodec();
  }

  /** Run id -> fingerprint of its source trace (read a second time; cheap next to parsing). */
  static final class FingerprintFn extends DoFn<RunInfo, KV<String, String>> {
    @ProcessElement
    public void process(@Element RunInfo run, OutputReceiver<KV<String, String>> out)
        throws IOException {
      out.output(KV.of(run.runId, TraceFingerprint.of(run.source)));
    }
  }
}
