package dev.loadprof.bench;

import dev.loadprof.model.Frame;
import dev.loadprof.perfdata.symbols.PerfTruth;
import dev.loadprof.perfdata.symbols.SymbolSources;
import dev.loadprof.perfdata.symbols.Symbolizer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Frames per second of the native reader's {@link Symbolizer} on a real recording, against perf
 * script printing the same frames ({@code -F ip,sym,dso}, its decoding included, so perf's rate
 * is a bound on its symbolization alone). The recording's records come from perf's dump (parsed
 * once, not timed). Per round: perf script; a cold pass (a new symbolizer: ELF files, kallsyms and
 * c++filt loaded on first use); then warm passes over every sample's callchain with all frames
 * cached. Ratios are taken within each round; medians printed. Also checks the frames against
 * perf's. Usage: SymbolizeThroughput FILE.data ROUNDS
 */
public final class SymbolizeThroughput {
  private static final int WARM_PASSES = 20;
  /** Keeps the warm passes' results alive, so the JIT cannot drop the calls. */
  static volatile long blackhole;

  public static void main(String[] args) throws Exception {
    Path data = Path.of(args[0]);
    int rounds = Integer.parseInt(args[1]);
    List<PerfTruth.Event> events = PerfTruth.events(data, List.of("perf"), List.of());
    List<PerfTruth.Sample> samples = new ArrayList<>();
    for (PerfTruth.Event event : events) {
      if (event instanceof PerfTruth.Sample sample) {
        samples.add(sample);
      }
    }
    double[] perfRate = new double[rounds];
    double[] coldRate = new double[rounds];
    double[] warmRate = new double[rounds];
    long frames = 0;
    for (int r = 0; r < rounds; r++) {
      long t0 = System.nanoTime();
      Process perf = new ProcessBuilder("perf", "script", "-F", "ip,sym,dso", "-i",
          data.toString()).redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      if (perf.waitFor() != 0) {
        throw new IllegalStateException("perf script -i " + data + " failed");
      }
      double perfSeconds = (System.nanoTime() - t0) / 1e9;
      List<PerfTruth.Pair> pairs = new ArrayList<>();
      try (Symbolizer symbolizer = new Symbolizer(SymbolSources.live())) {
        long t1 = System.nanoTime();
        frames = PerfTruth.feed(events, symbolizer, pairs);
        double coldSeconds = (System.nanoTime() - t1) / 1e9;
        long t2 = System.nanoTime();
        long warmFrames = 0;
        for (int pass = 0; pass < WARM_PASSES; pass++) {
          for (PerfTruth.Sample sample : samples) {
            for (int k = 0; k < sample.ips().length; k++) {
              Frame frame = symbolizer.frame(sample.pid(), sample.ips()[k], sample.kernel()[k]);
              blackhole ^= frame.address();
            }
            warmFrames += sample.ips().length;
          }
        }
        double warmSeconds = (System.nanoTime() - t2) / 1e9;
        perfRate[r] = frames / perfSeconds;
        coldRate[r] = frames / coldSeconds;
        warmRate[r] = warmFrames / warmSeconds;
        long same = pairs.stream().filter(p -> p.perf().equals(p.ours())).count();
        System.out.printf("round %d: perf script %.3f s (%.2f M frames/s), cold %.3f s (%.2f M"
            + " frames/s), warm %.2f M frames/s; %d of %d frames as perf printed them%n",
            r + 1, perfSeconds, perfRate[r] / 1e6, coldSeconds, coldRate[r] / 1e6,
            warmRate[r] / 1e6, same, pairs.size());
        if (r == 0) {
          printDifferences(pairs);
        }
      }
    }
    double[] warmOverPerf = new double[rounds];
    double[] coldOverPerf = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      warmOverPerf[r] = warmRate[r] / perfRate[r];
      coldOverPerf[r] = coldRate[r] / perfRate[r];
    }
    System.out.printf("%d frames, %d samples; medians: perf script %.2f M frames/s, cold %.2f M,"
        + " warm %.2f M; warm/perf %.1fx (rounds %s), cold/perf %.1fx%n", frames, samples.size(),
        median(perfRate) / 1e6, median(coldRate) / 1e6, median(warmRate) / 1e6,
        median(warmOverPerf), Arrays.toString(round(warmOverPerf)), median(coldOverPerf));
  }

  private static void printDifferences(List<PerfTruth.Pair> pairs) {
    Set<String> seen = new HashSet<>();
    for (PerfTruth.Pair pair : pairs) {
      if (!pair.perf().equals(pair.ours()) && seen.add(pair.perf() + " / " + pair.ours())
          && seen.size() <= 10) {
        System.out.printf("  differs: perf %x %s, ours %x %s%n", pair.perf().address(),
            pair.perf(), pair.ours().address(), pair.ours());
      }
    }
  }

  private static double[] round(double[] values) {
    return Arrays.stream(values).map(v -> Math.round(v * 10) / 10.0).toArray();
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
