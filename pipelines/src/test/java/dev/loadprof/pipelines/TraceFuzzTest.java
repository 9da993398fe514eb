package dev.loadprof.pipelines;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.fail;

import dev.loadprof.load.InMemoryAnalysis;
import dev.loadprof.load.ProcessAccumulator;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceHealth;
import dev.loadprof.parse.PerfScriptParser;
import dev.loadprof.pipelines.DamagedTraces.Rec;
import java.io.ByteArrayInputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the plain-Java analysis (parser, block cutter, timelines, load join: {@link
 * InMemoryAnalysis}, the cores the pipeline runs) with random damage to a small fixture: the
 * first {@value #FIXTURE_RECORDS} records of the example trace. {@value #CASES} cases, each one
 * of: deleted lines, duplicated records, swapped adjacent records, a truncation at a random
 * byte, flipped bytes. The seed is {@value #SEED} unless -Dfuzz.seed=N is given, and every
 * failure message starts with the seed and the case number, so it reproduces.
 *
 * <p>Bounds, in every case: no exception (bad input is never an exception: it is counted, or
 * the run is judged unusable, which is the CLI's exit 2); at most {@value #CASE_TIMEOUT_S} s
 * per case (a hang guard, not a speed claim); at most {@value #ALLOCATION_FACTOR} times the
 * clean fixture's allocated bytes (the heap bound: no allocation grows with damage, e.g. with
 * empty time after a flipped timestamp digit); no load above the run's CPU count; no process
 * with more real time than the run's span. The whole test is bounded to about
 * {@value #CASES} x the clean case's time (well under 60 s: 4 s on the shared 2-core machine). The
 * fixture spans more than one 1 s window, so damage also crosses window boundaries.
 *
 * <p>"A result that differs from the clean fixture comes with a warning" is asserted for the
 * damage that keeps the trace's meaning (duplicated and swapped records): the samples, CPU time
 * and time at each load of every process are exactly the clean ones, or the run has a warning
 * or malformed lines. Deleted lines, truncations and flipped bytes can make another valid trace
 * (a whole record gone, a timestamp digit changed), which no reader can tell from damage, so for
 * them only the bounds above are asserted.
 */
class TraceFuzzTest {
  static final long SEED = 20261122L;
  static final int CASES = 300;
  static final int FIXTURE_RECORDS = 6000;
  static final int CASE_TIMEOUT_S = 10;
  static final int ALLOCATION_FACTOR = 20;
  private static final long WINDOW_NS = 1_000_000_000L;

  enum Damage { DELETE_LINES, DUPLICATE_RECORDS, SWAP_RECORDS, TRUNCATE, FLIP_BYTES }

  record Outcome(RunInfo run, Map<Integer, ProcessAccumulator> processes, long allocated) {}

  @Test
  void randomDamageNeverCrashesHangsOrChangesAResultSilently() {
    long seed = Long.getLong("fuzz.seed", SEED);
    List<Rec> recs = DamagedTraces.records(DamagedTraces.text(E2e.trace("phases")));
    List<Rec> fixture = new ArrayList<>(recs.subList(0, Math.min(FIXTURE_RECORDS, recs.size())));
    String clean = DamagedTraces.join(fixture);
    Outcome reference = analyze(clean.getBytes(StandardCharsets.UTF_8), "seed " + seed
        + " clean fixture");
    if (!reference.run().warnings.isEmpty()) {
      fail("seed " + seed + ": the clean fixture has warnings " + reference.run().warnings);
    }
    Map<Damage, Integer> warnedChanges = new TreeMap<>();
    Map<Damage, Integer> unwarnedChanges = new TreeMap<>(); // another valid trace, see above
    Random random = new Random(seed);
    for (int i = 0; i < CASES; i++) {
      Damage damage = Damage.values()[random.nextInt(Damage.values().length)];
      String what = "seed " + seed + " case " + i + " (" + damage + ")";
      byte[] input = damage(damage, fixture, clean, random);
      Outcome o = analyze(input, what);
      checkBounds(o, reference, what);
      boolean differs = !figures(o).equals(figures(reference));
      boolean warned = !o.run().warnings.isEmpty()
          || o.run().health.get(TraceHealth.MALFORMED_LINES) > 0 || o.run().isUnusable();
      if (damage == Damage.DUPLICATE_RECORDS || damage == Damage.SWAP_RECORDS) {
        if (differs && !warned) {
          fail(what + ": the result differs from the clean fixture without a warning");
        }
      }
      if (differs) {
        (warned ? warnedChanges : unwarnedChanges).merge(damage, 1, Integer::sum);
      }
    }
    System.out.println("FUZZ: seed " + seed + ", " + CASES + " cases; changed results that"
        + " came with a warning, by damage: " + warnedChanges + "; without one (deletions, cuts and"
        + " flips that leave a valid trace): " + unwarnedChanges + "; clean fixture allocated "
        + reference.allocated() / 1024 + " KiB, spans "
        + (reference.run().endNs - reference.run().startNs) / 1_000_000 + " ms on "
        + reference.run().cpuCount + " CPUs");
  }

  private static Outcome analyze(byte[] input, String what) {
    try {
      return assertTimeoutPreemptively(Duration.ofSeconds(CASE_TIMEOUT_S), () -> {
        com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        InMemoryAnalysis a = InMemoryAnalysis.of(new PerfScriptParser(),
            new ByteArrayInputStream(input), "fuzz", WINDOW_NS);
        return new Outcome(a.run, a.processes,
            threads.getCurrentThreadAllocatedBytes() - before);
      }, () -> what + ": no result within " + CASE_TIMEOUT_S + " s (a hang)");
    } catch (AssertionError e) {
      throw e;
    } catch (Throwable t) {
      throw new AssertionError(what + ": threw " + t, t);
    }
  }

  private static void checkBounds(Outcome o, Outcome reference, String what) {
    if (o.allocated() > ALLOCATION_FACTOR * reference.allocated()) {
      fail(what + ": allocated " + o.allocated() + " bytes, more than " + ALLOCATION_FACTOR
          + " x the clean fixture's " + reference.allocated());
    }
    RunInfo run = o.run();
    long span = Math.max(0, run.endNs - run.startNs);
    for (ProcessAccumulator p : o.processes().values()) {
      for (int load = run.cpuCount + 1; load < p.timeAtLoadNs.length; load++) {
        if (p.timeAtLoadNs[load] != 0 || (load < p.samplesAtLoad.length
            && p.samplesAtLoad[load] != 0)) {
          fail(what + ": pid " + p.pid + " at load " + load + " on " + run.cpuCount + " CPUs");
        }
      }
      long real = Arrays.stream(p.timeAtLoadNs).sum();
      if (real > span || (p.spanEndNs >= p.spanStartNs && p.spanEndNs - p.spanStartNs > span)) {
        fail(what + ": pid " + p.pid + " has " + real + " ns of real time in a run of " + span
            + " ns");
      }
    }
  }

  /** Per pid: samples, CPU ns and time at each load (trailing zeros dropped). */
  private static Map<Integer, List<Long>> figures(Outcome o) {
    Map<Integer, List<Long>> f = new TreeMap<>();
    o.processes().forEach((pid, p) -> {
      List<Long> v = new ArrayList<>(List.of(p.samples, Arrays.stream(p.cpuNsAtLoad).sum()));
      long[] t = p.timeAtLoadNs;
      int end = t.length;
      while (end > 0 && t[end - 1] == 0) {
        end--;
      }
      for (int k = 0; k < end; k++) {
        v.add(t[k]);
      }
      if (p.samples != 0 || end != 0) {
        f.put(pid, v);
      }
    });
    return f;
  }

  private static byte[] damage(Damage d, List<Rec> fixture, String clean, Random r) {
    byte[] bytes = clean.getBytes(StandardCharsets.UTF_8);
    switch (d) {
      case DELETE_LINES -> {
        List<String> lines = new ArrayList<>(Arrays.asList(clean.split("\n", -1)));
        int count = 1 + r.nextInt(5);
        for (int k = 0; k < count && lines.size() > 1; k++) {
          lines.remove(r.nextInt(lines.size()));
        }
        return String.join("\n", lines).getBytes(StandardCharsets.UTF_8);
      }
      case DUPLICATE_RECORDS -> {
        List<Rec> recs = new ArrayList<>(fixture);
        int from = 1 + r.nextInt(recs.size() - 1);
        int length = 1 + r.nextInt(Math.min(50, recs.size() - from));
        recs.addAll(from + length, new ArrayList<>(recs.subList(from, from + length)));
        return DamagedTraces.join(recs).getBytes(StandardCharsets.UTF_8);
      }
      case SWAP_RECORDS -> {
        List<Rec> recs = new ArrayList<>(fixture);
        int count = 1 + r.nextInt(10);
        for (int k = 0; k < count; k++) {
          int a = 1 + r.nextInt(recs.size() - 2); // the preamble (record 0) stays first
          Rec x = recs.get(a);
          recs.set(a, recs.get(a + 1));
          recs.set(a + 1, x);
        }
        return DamagedTraces.join(recs).getBytes(StandardCharsets.UTF_8);
      }
      case TRUNCATE -> {
        return Arrays.copyOf(bytes, r.nextInt(bytes.length + 1));
      }
      case FLIP_BYTES -> {
        int count = 1 + r.nextInt(3);
        for (int k = 0; k < count; k++) {
          bytes[r.nextInt(bytes.length)] ^= (byte) (1 + r.nextInt(255));
        }
        return bytes;
      }
      default -> throw new IllegalStateException(d.toString());
    }
  }
}
