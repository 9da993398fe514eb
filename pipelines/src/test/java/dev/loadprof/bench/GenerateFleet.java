package dev.loadprof.bench;

import dev.loadprof.synth.SyntheticFleet;
import java.nio.file.Path;

/** Writes a synthetic fleet: GenerateFleet DIR RUNS [SEED]; see SyntheticFleet for the manifests. */
public final class GenerateFleet {
  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    int runs = Integer.parseInt(args[1]);
    long seed = args.length > 2 ? Long.parseLong(args[2]) : 1;
    long t0 = System.nanoTime();
    SyntheticFleet.generate(dir, runs, seed);
    System.out.printf("generated %d runs in %s in %.1f s%n", runs, dir,
        (System.nanoTime() - t0) / 1e9);
  }
}
