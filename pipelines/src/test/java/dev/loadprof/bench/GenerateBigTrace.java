package dev.loadprof.bench;

import dev.loadprof.synth.Expected;
import dev.loadprof.synth.SyntheticTrace;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes one long synthetic run as plain text, for the larger-than-heap benchmark:
 * GenerateBigTrace FILE CPUS PARALLEL_SECONDS [switches]. The script is 1 s serial, then all CPUs
 * busy for PARALLEL_SECONDS, then 1 s serial; the known answers go to FILE.expected. With
 * "switches", a noise process on every CPU but the first preempts the workers (0.3 ms bursts
 * every 2.3 ms) and every switch-in has its wakeup: about one switch record, with its switch-out
 * stack, and one wakeup per four samples.
 */
public final class GenerateBigTrace {
  public static void main(String[] args) throws Exception {
    Path file = Path.of(args[0]);
    int cpus = Integer.parseInt(args[1]);
    double parallelSeconds = Double.parseDouble(args[2]); // fractional: small traces
    long second = 1_000_000_000L;
    SyntheticTrace.Builder builder = SyntheticTrace.builder().cpus(cpus).seed(3)
        .process(7000, "bigjob", 0)
        .serial(second, "serial_head")
        .parallel(cpus, Math.round(parallelSeconds * second), "parallel_body")
        .serial(second, "serial_tail")
        .dropIdleToTaskSwitches(c -> c % 2 == 1);
    if (args.length > 3 && args[3].equals("switches")) {
      for (int c = 1; c < cpus; c++) {
        builder.noise(c, 9000 + c, "noise", "noise_work", 300_000L, 2_000_000L);
      }
      builder.wakeups(true);
    }
    SyntheticTrace trace = builder.build();
    long t0 = System.nanoTime();
    try (Writer w = Files.newBufferedWriter(file, java.nio.charset.StandardCharsets.UTF_8)) {
      trace.writeTo(w);
    }
    Expected.ProcessFigures p = trace.expected().processes.get(7000);
    String expected = String.format(
        "pid=7000%nsamples=%d%nwall_load1_ns=%d%nwall_load%d_ns=%d%nserial_fraction=%.6f%n"
            + "serial_real_share=%.6f%n",
        p.samples, p.wallNsAtLoad(1), cpus, p.wallNsAtLoad(cpus), p.serialFraction(),
        (p.sampledRealNsByFunction.getOrDefault("serial_head", 0.0)
            + p.sampledRealNsByFunction.getOrDefault("serial_tail", 0.0)) / p.sampledRealNs());
    Files.writeString(Path.of(file + ".expected"), expected);
    System.out.printf("wrote %s: %.2f GB in %.1f s%n%s", file, Files.size(file) / 1e9,
        (System.nanoTime() - t0) / 1e9, expected);
  }
}
