package dev.loadprof.bench;

import dev.loadprof.archive.IndexEntry;
import dev.loadprof.archive.NightIndex;
import dev.loadprof.archive.beam.NightIndexes;
import dev.loadprof.archive.RunSelection;
import dev.loadprof.archive.beam.ArchiveFiles;
import dev.loadprof.archive.beam.ArchiveLayout;
import dev.loadprof.archive.beam.ArchiveListing;
import dev.loadprof.schemas.BlockFileRecord;
import dev.loadprof.schemas.EventBlockRecord;
import dev.loadprof.schemas.RunManifestRecord;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import dev.loadprof.stores.PathStyleS3ClientBuilderFactory;
import java.net.URI;
import org.apache.beam.sdk.io.aws2.options.S3Options;
import org.apache.beam.sdk.io.fs.ResourceId;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * The scale bench's synthetic archive, made without running thousands of archive jobs: the runs
 * of one night of a real archive (written by {@code loadprof archive}) are cloned into NIGHTS
 * nights of another archive, each clone under its own run id, job, night and fingerprint, its
 * blocks re-written with its run id, its manifest and index entry written by the archive's own
 * code ({@link ArchiveFiles#writeManifest}, {@link IndexEntry}). Run ids are HOST-bSLOT-NIGHT, so
 * each (host, slot) is one benchmark every night, as nightly groups them.
 *
 * <p>Objects are written with one PutObject each through the stores module's S3 client (Beam's
 * S3 filesystem writes every object as a multipart upload, three requests, which S3Mock does not
 * take from several threads at once).
 *
 * <p>{@code FleetArchive SRC_ARCHIVE SRC_NIGHT RUNS_PER_NIGHT DST_ARCHIVE FIRST_NIGHT NIGHTS
 * THREADS [BEAM_ARGS...]}: s3:// archives only. With {@code -Dfleet.indexOnly=true} only the
 * night indexes are written (the runs are made in memory, as they were written before).
 */
public final class FleetArchive {
  /** A source run: its manifest and the records of each of its block files. */
  record SourceRun(RunManifestRecord manifest, List<List<EventBlockRecord>> files) {}

  public static void main(String[] args) throws Exception {
    String src = args[0];
    String srcNight = args[1];
    int runsPerNight = Integer.parseInt(args[2]);
    String dst = args[3];
    LocalDate first = LocalDate.parse(args[4]);
    int nights = Integer.parseInt(args[5]);
    int threads = Integer.parseInt(args[6]);
    PipelineOptions options = PipelineOptionsFactory.fromArgs(
        Arrays.copyOfRange(args, 7, args.length)).create();
    FileSystems.setDefaultPipelineOptions(options);
    s3 = new PathStyleS3ClientBuilderFactory().createBuilder(options.as(S3Options.class)).build();
    long t0 = System.nanoTime();
    List<SourceRun> sources = readNight(src, srcNight, runsPerNight);
    System.out.printf("read %d runs of night %s of %s in %.1f s%n", sources.size(), srcNight, src,
        (System.nanoTime() - t0) / 1e9);
    ArchiveLayout.createMarker(dst, options);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<?>> done = new ArrayList<>();
    AtomicLong written = new AtomicLong();
    boolean indexOnly = Boolean.getBoolean("fleet.indexOnly");
    Map<String, List<NightIndex.Run>> byPartition = new java.util.concurrent.ConcurrentHashMap<>();
    for (int n = 0; n < nights; n++) {
      String night = first.plusDays(n).toString();
      String jobId = "fb" + night.replace("-", "");
      Map<String, Integer> slots = new TreeMap<>();
      for (SourceRun s : sources) {
        String host = s.manifest().getHost();
        int slot = slots.merge(host, 1, Integer::sum);
        String runId = String.format("%s-b%03d-%s", host, slot, night);
        done.add(pool.submit(() -> {
          RunManifestRecord m = writeRun(dst, s, runId, host, jobId, night,
              indexOnly ? null : FleetArchive::put);
          written.addAndGet(m.getBlockFiles().stream().mapToLong(f -> f.getSizeBytes()).sum());
          byPartition.computeIfAbsent(night + "/" + RunSelection.hostPartition(m.getHost()),
              k -> java.util.Collections.synchronizedList(new ArrayList<>()))
              .add(NightIndexes.run(m));
          return null;
        }));
      }
    }
    for (Future<?> f : done) {
      f.get();
    }
    pool.shutdown();
    // One night index per night and host, as an archive job writes it after its runs.
    for (Map.Entry<String, List<NightIndex.Run>> p : new TreeMap<>(byPartition).entrySet()) {
      String[] nightHost = p.getKey().split("/", 2);
      List<NightIndex.Run> runs = p.getValue();
      NightIndexes.write(dst, runs.get(0).jobId(), nightHost[0], nightHost[1], runs);
    }
    System.out.printf("wrote %d runs (%d bytes) over %d nights into %s in %.1f s%n", done.size(),
        written.get(), nights, dst, (System.nanoTime() - t0) / 1e9);
    System.exit(0); // Beam's S3 filesystem keeps non-daemon threads
  }

  private static S3Client s3;

  static List<SourceRun> readNight(String archive, String night, int limit)
      throws Exception {
    List<SourceRun> runs = new ArrayList<>();
    List<ArchiveListing.ManifestRef> refs = new ArrayList<>(
        ArchiveListing.list(archive, RunSelection.parse(night, null)));
    refs.sort((a, b) -> a.path().compareTo(b.path()));
    for (ArchiveListing.ManifestRef ref : refs.subList(0, Math.min(limit, refs.size()))) {
      RunManifestRecord m = ArchiveFiles.readManifest(FileSystems.matchNewResource(ref.path(),
          false));
      List<List<EventBlockRecord>> files = new ArrayList<>();
      for (BlockFileRecord f : m.getBlockFiles()) {
        List<EventBlockRecord> records = new ArrayList<>();
        try (InputStream in = Channels.newInputStream(FileSystems.open(
                ArchiveLayout.resolve(archive, f.getPath())));
            DataFileStream<EventBlockRecord> s =
                new DataFileStream<>(in, new SpecificDatumReader<>(EventBlockRecord.class))) {
          s.forEach(records::add);
        }
        files.add(records);
      }
      runs.add(new SourceRun(m, files));
    }
    runs.sort((a, b) -> a.manifest().getRunId().compareTo(b.manifest().getRunId()));
    return runs;
  }

  /**
   * Writes one clone of {@code s} on {@code host}: block files, then the manifest, then the index
   * entry, each through {@code put} (none when null); returns its manifest.
   */
  static RunManifestRecord writeRun(String archive, SourceRun s, String runId, String host,
      String jobId, String night, BiConsumer<ResourceId, byte[]> put) throws Exception {
    List<BlockFileRecord> files = new ArrayList<>();
    for (int i = 0; i < s.files().size(); i++) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try (DataFileWriter<EventBlockRecord> w =
          new DataFileWriter<>(new SpecificDatumWriter<>(EventBlockRecord.class))) {
        w.setCodec(CodecFactory.snappyCodec()); // as WriteArchive writes them
        w.create(EventBlockRecord.getClassSchema(), out);
        for (EventBlockRecord r : s.files().get(i)) {
          EventBlockRecord copy = EventBlockRecord.newBuilder(r).setRunId(runId).build();
          w.append(copy);
        }
      }
      String path = ArchiveLayout.blockFilePath(runId, jobId, i);
      if (put != null) {
        put.accept(ArchiveLayout.resolve(archive, path), out.toByteArray());
      }
      files.add(new BlockFileRecord(path, (long) out.size()));
    }
    RunManifestRecord src = s.manifest();
    String source = src.getSource().replace(src.getRunId(), runId);
    RunManifestRecord m = RunManifestRecord.newBuilder(src).setRunId(runId).setSource(source)
        .setFingerprint("sha256:" + IndexEntry.sha256Hex((src.getFingerprint() + "/" + runId)
            .getBytes(StandardCharsets.UTF_8)))
        .setNight(night).setHost(host).setJobId(jobId).setBlockFiles(files).build();
    if (put != null) {
      ByteArrayOutputStream manifest = new ByteArrayOutputStream();
      ArchiveFiles.writeManifest(m, manifest);
      put.accept(ArchiveLayout.manifest(archive, runId), manifest.toByteArray());
      String partition = RunSelection.hostPartition(host);
      put.accept(ArchiveLayout.indexEntry(archive, night, partition, runId, jobId),
          new IndexEntry(runId, jobId, night, partition, source).encode());
    }
    return m;
  }

  private static void put(ResourceId file, byte[] bytes) {
    URI uri = URI.create(file.toString());
    s3.putObject(PutObjectRequest.builder().bucket(uri.getHost())
        .key(uri.getPath().substring(1)).build(), RequestBody.fromBytes(bytes));
  }
}
