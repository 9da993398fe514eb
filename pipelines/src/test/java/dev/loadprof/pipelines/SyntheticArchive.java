package dev.loadprof.pipelines;

import dev.loadprof.archive.IndexEntry;
import dev.loadprof.archive.NightIndex;
import dev.loadprof.archive.RunSelection;
import dev.loadprof.archive.beam.ArchiveFiles;
import dev.loadprof.archive.beam.ArchiveLayout;
import dev.loadprof.archive.beam.NightIndexes;
import dev.loadprof.schemas.BlockFileRecord;
import dev.loadprof.schemas.EventBlockRecord;
import dev.loadprof.schemas.RunManifestRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.beam.sdk.io.FileSystems;

/**
 * Many runs in an archive without parsing many traces: one archived run copied under other run
 * ids, nights and hosts, its blocks rewritten with the new run id, each copy committed as an
 * archive job commits a run (block files, manifest with its checksum, index entry), and one
 * night index per night and host written after them.
 */
final class SyntheticArchive {
  private SyntheticArchive() {}

  /**
   * Adds nights x hosts x runsPer copies of {@code baseRunId} (archived in {@code archive}) under
   * job {@code jobId}; returns the run ids added.
   */
  static List<String> addCopies(Path archive, String baseRunId, List<String> nights,
      List<String> hosts, int runsPer, String jobId, boolean writeNightIndexes)
      throws IOException {
    RunManifestRecord base = ArchiveFiles.readManifest(FileSystems.matchNewResource(
        archive.resolve("runs").resolve(baseRunId + ".avro").toString(), false));
    List<String> added = new ArrayList<>();
    Map<String, List<NightIndex.Run>> byPartition = new TreeMap<>();
    for (String night : nights) {
      for (String host : hosts) {
        for (int k = 0; k < runsPer; k++) {
          String runId = "synth-" + night + "-" + host + "-" + k;
          RunManifestRecord m = RunManifestRecord.newBuilder(base).setRunId(runId)
              .setNight(night).setHost(host).setJobId(jobId)
              .setSource(base.getSource() + "#" + runId)
              .setFingerprint("sha256:synthetic-" + runId).build();
          List<BlockFileRecord> files = new ArrayList<>();
          for (int i = 0; i < base.getBlockFiles().size(); i++) {
            String path = ArchiveLayout.blockFilePath(runId, jobId, i);
            Path to = archive.resolve(path);
            copyBlocks(archive.resolve(base.getBlockFiles().get(i).getPath()), to, runId);
            files.add(new BlockFileRecord(path, Files.size(to)));
          }
          m.setBlockFiles(files);
          ArchiveFiles.writeManifest(m, ArchiveLayout.manifest(archive.toString(), runId));
          String hostPartition = RunSelection.hostPartition(host);
          Path entry = Path.of(ArchiveLayout.indexEntry(archive.toString(), night,
              hostPartition, runId, jobId).toString());
          Files.createDirectories(entry.getParent());
          Files.write(entry, new IndexEntry(runId, jobId, night, hostPartition, m.getSource())
              .encode());
          byPartition.computeIfAbsent(night + "\u0000" + hostPartition, p -> new ArrayList<>())
              .add(NightIndexes.run(m));
          added.add(runId);
        }
      }
    }
    if (writeNightIndexes) {
      for (Map.Entry<String, List<NightIndex.Run>> p : byPartition.entrySet()) {
        String[] key = p.getKey().split("\u0000");
        NightIndexes.write(archive.toString(), jobId, key[0], key[1], p.getValue());
      }
    }
    return added;
  }

  private static void copyBlocks(Path from, Path to, String runId) throws IOException {
    Files.createDirectories(to.getParent());
    try (DataFileReader<EventBlockRecord> in = new DataFileReader<>(from.toFile(),
            new SpecificDatumReader<>(EventBlockRecord.class));
        DataFileWriter<EventBlockRecord> out = new DataFileWriter<>(
            new SpecificDatumWriter<>(EventBlockRecord.class))) {
      out.setCodec(CodecFactory.snappyCodec());
      out.create(EventBlockRecord.getClassSchema(), to.toFile());
      for (EventBlockRecord r : in) {
        r.setRunId(runId);
        out.append(r);
      }
    }
  }
}
