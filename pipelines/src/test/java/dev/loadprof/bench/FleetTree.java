package dev.loadprof.bench;

import dev.loadprof.archive.NightIndex;
import dev.loadprof.archive.RunSelection;
import dev.loadprof.archive.beam.ArchiveLayout;
import dev.loadprof.archive.beam.NightIndexes;
import dev.loadprof.schemas.RunManifestRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.ResourceId;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * The scale bench's fleet archive written on local disk, fast, to be copied into a store
 * afterwards ({@link UploadTree}): nights of HOSTS hosts x RUNS_PER_HOST runs, each run a clone
 * of one of the source night's runs ({@link FleetArchive#writeRun}: own run id, host, job,
 * night and fingerprint, blocks re-encoded with its run id), then one night index per night and
 * host, as an archive job writes them. Run ids are hostHHH-bSSS-NIGHT (a benchmark per host and
 * slot); a night's job is fbYYYYMMDD. Nights already written are written again, byte for byte.
 *
 * <p>{@code FleetTree SRC_ARCHIVE SRC_NIGHT DST_DIR FIRST_NIGHT NIGHTS HOSTS RUNS_PER_HOST
 * THREADS}
 */
public final class FleetTree {
  public static void main(String[] args) throws Exception {
    String src = args[0];
    String srcNight = args[1];
    Path dst = Path.of(args[2]).toAbsolutePath();
    LocalDate first = LocalDate.parse(args[3]);
    int nights = Integer.parseInt(args[4]);
    int hosts = Integer.parseInt(args[5]);
    int runsPerHost = Integer.parseInt(args[6]);
    int threads = Integer.parseInt(args[7]);
    PipelineOptions options = PipelineOptionsFactory.create();
    FileSystems.setDefaultPipelineOptions(options);
    long t0 = System.nanoTime();
    List<FleetArchive.SourceRun> sources = FleetArchive.readNight(src, srcNight, Integer.MAX_VALUE);
    String archive = dst.toString();
    Files.createDirectories(dst);
    ArchiveLayout.createMarker(archive, options);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    int runs = 0;
    for (int n = 0; n < nights; n++) {
      String night = first.plusDays(n).toString();
      String jobId = "fb" + night.replace("-", "");
      Map<String, List<NightIndex.Run>> byHost = new ConcurrentHashMap<>();
      List<Future<?>> done = new ArrayList<>();
      for (int h = 0; h < hosts; h++) {
        String host = String.format("host%03d", h);
        for (int slot = 1; slot <= runsPerHost; slot++) {
          FleetArchive.SourceRun s = sources.get((h * runsPerHost + slot) % sources.size());
          String runId = String.format("%s-b%03d-%s", host, slot, night);
          done.add(pool.submit(() -> {
            RunManifestRecord m = FleetArchive.writeRun(archive, s, runId, host, jobId, night,
                FleetTree::write);
            byHost.computeIfAbsent(RunSelection.hostPartition(host),
                k -> Collections.synchronizedList(new ArrayList<>())).add(NightIndexes.run(m));
            return null;
          }));
          runs++;
        }
      }
      for (Future<?> f : done) {
        f.get();
      }
      for (Map.Entry<String, List<NightIndex.Run>> p : new TreeMap<>(byHost).entrySet()) {
        List<NightIndex.Run> sorted = new ArrayList<>(p.getValue());
        sorted.sort((a, b) -> a.runId().compareTo(b.runId()));
        NightIndexes.write(archive, jobId, night, p.getKey(), sorted);
      }
    }
    pool.shutdown();
    System.out.printf("wrote %d runs (clones of %d runs of %s) over %d nights from %s into %s"
        + " in %.1f s%n", runs, sources.size(), src, nights, first, dst,
        (System.nanoTime() - t0) / 1e9);
  }

  private static void write(ResourceId file, byte[] bytes) {
    try {
      Path path = Path.of(file.toString());
      Files.createDirectories(path.getParent());
      Files.write(path, bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
