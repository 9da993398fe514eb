package dev.loadprof.synth;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Many seeded runs for benchmarks: each run is a {@code run-NNN.txt.gz} with 32-128 CPUs and a
 * random phase script, and two manifests describe what each run must yield:
 *
 * <ul>
 *   <li>{@code expected.tsv}, one row per (run, process): file, cpus, options, pid, comm, span,
 *       wall at load 0 / 1 / >= 2, serial fraction, true CPU, samples, sampled CPU and real time;
 *   <li>{@code expected_functions.tsv}, one row per (run, process, function): samples, sampled
 *       CPU and real time, true CPU and real time.
 * </ul>
 */
public final class SyntheticFleet {
  public static final String MANIFEST = "expected.tsv";
  public static final String FUNCTION_MANIFEST = "expected_functions.tsv";

  private SyntheticFleet() {}

  /** One generated run: its file and its trace (whose expected() holds the answers). */
  public record Run(Path file, SyntheticTrace trace) {}

  /** Writes {@code runs} traces and the manifests into {@code dir} (created if needed). */
  public static List<Run> generate(Path dir, int runs, long seed) throws IOException {
    Files.createDirectories(dir);
    SplittableRandom rnd = new SplittableRandom(seed);
    List<Run> result = new ArrayList<>();
    try (Writer runsTsv = Files.newBufferedWriter(dir.resolve(MANIFEST), StandardCharsets.UTF_8);
        Writer fnTsv = Files.newBufferedWriter(dir.resolve(FUNCTION_MANIFEST),
            StandardCharsets.UTF_8)) {
      runsTsv.write("file\tcpus\twakeups\tdrop_idle_switches\tpid\tcomm\tspan_ns\twall_load0_ns"
          + "\twall_load1_ns\twall_load_ge2_ns\tserial_fraction\ttrue_cpu_ns\tsamples"
          + "\tsampled_cpu_ns\tsampled_real_ns\n");
      fnTsv.write("file\tpid\tfunction\tsamples\tsampled_cpu_ns\tsampled_real_ns\ttrue_cpu_ns"
          + "\ttrue_real_ns\n");
      for (int r = 0; r < runs; r++) {
        String name = String.format(Locale.ROOT, "run-%03d.txt.gz", r);
        boolean wakeups = rnd.nextInt(3) == 0;
        boolean drop = rnd.nextInt(3) == 0;
        SyntheticTrace trace = randomRun(rnd, r, wakeups, drop);
        Path file = dir.resolve(name);
        trace.writeTo(file);
        result.add(new Run(file, trace));
        for (Expected.ProcessFigures p : trace.expected().processes.values()) {
          long ge2 = p.busyWallNs() - p.wallNsAtLoad(1);
          runsTsv.write(String.join("\t", name, "" + trace.cpus(), "" + wakeups, "" + drop,
              "" + p.pid, p.comm, "" + p.spanNs(), "" + p.wallNsAtLoad(0),
              "" + p.wallNsAtLoad(1), "" + ge2, fmt(p.serialFraction()), "" + p.trueCpuNs,
              "" + p.samples, "" + p.sampledCpuNs(), fmt(p.sampledRealNs())) + "\n");
          for (Map.Entry<String, Long> e : p.trueCpuNsByFunction.entrySet()) {
            String fn = e.getKey();
            fnTsv.write(String.join("\t", name, "" + p.pid, fn,
                "" + p.samplesByFunction.getOrDefault(fn, 0L),
                "" + p.sampledCpuNsByFunction.getOrDefault(fn, 0L),
                fmt(p.sampledRealNsByFunction.getOrDefault(fn, 0.0)), "" + e.getValue(),
                fmt(p.trueRealNsByFunction.getOrDefault(fn, 0.0))) + "\n");
          }
        }
      }
    }
    return result;
  }

  /** A random but modest run (well under a second of trace time) so fleets stay quick. */
  static SyntheticTrace randomRun(SplittableRandom rnd, int index, boolean wakeups,
      boolean dropOddIdleSwitches) {
    int cpus = rnd.nextInt(32, 129);
    SyntheticTrace.Builder b = SyntheticTrace.builder()
        .cpus(cpus)
        .seed(rnd.nextLong())
        .startNs(rnd.nextLong(10_000_000_000L, 1_000_000_000_000L))
        .process(2000 + 10 * index, "app" + index, rnd.nextInt(cpus))
        .wakeups(wakeups);
    if (dropOddIdleSwitches) {
      b.dropIdleToTaskSwitches(cpu -> cpu % 2 == 1);
    }
    int phases = rnd.nextInt(2, 6);
    for (int i = 0; i < phases; i++) {
      int kind = i == 0 ? rnd.nextInt(2) : rnd.nextInt(3);
      if (kind == 0) {
        b.serial(ms(rnd, 20, 200), "serial_" + i);
      } else if (kind == 1) {
        b.parallel(rnd.nextInt(2, cpus + 1), ms(rnd, 10, 100), "parallel_" + i);
      } else {
        b.sleep(ms(rnd, 5, 50));
      }
    }
    return b.build();
  }

  private static long ms(SplittableRandom rnd, int from, int to) {
    return rnd.nextLong(from, to + 1) * 1_000_000L;
  }

  private static String fmt(double v) {
    return String.format(Locale.ROOT, "%.6f", v);
  }
}
