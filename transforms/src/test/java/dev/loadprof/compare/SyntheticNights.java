package dev.loadprof.compare;

import dev.loadprof.model.Frame;
import dev.loadprof.model.RunInfo;
import dev.loadprof.profile.LoadRange;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.profile.StackWeight;
import dev.loadprof.report.Analysis;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A generator of nightly histories of one benchmark, "app": a serial function setup (200 ms of
 * CPU at load 1), a parallel function crunch (1.6 s of CPU, 85% of it at load 4 and the rest at
 * load 2, so an average load of about 3.4) and a tiny poll (4 ms at load 1). Every CPU time gets
 * independent Gaussian noise of {@code cv} (relative), and crunch's share at load 4 noise of
 * 0.03. From {@code cpuNight} on, setup does 30% more CPU work; from {@code parallelismNight} on,
 * crunch runs 85% at load 2 and 15% at load 4 (same CPU, average load about 2.3).
 */
final class SyntheticNights {
  static final LocalDate FIRST = LocalDate.of(2026, 1, 1);
  static final long MS = 1_000_000L;

  final int nights;
  final int runsPerNight;
  final double cv;
  /** Night index from which the regression holds; -1 for none. */
  final int cpuNight;
  final int parallelismNight;
  /** Runs on the last night (repeats of the latest night), runsPerNight unless set. */
  final int latestRuns;

  SyntheticNights(int nights, int runsPerNight, double cv, int cpuNight, int parallelismNight) {
    this(nights, runsPerNight, cv, cpuNight, parallelismNight, runsPerNight);
  }

  private SyntheticNights(int nights, int runsPerNight, double cv, int cpuNight,
      int parallelismNight, int latestRuns) {
    this.nights = nights;
    this.runsPerNight = runsPerNight;
    this.cv = cv;
    this.cpuNight = cpuNight;
    this.parallelismNight = parallelismNight;
    this.latestRuns = latestRuns;
  }

  /** The same history with this many runs on its last night. */
  SyntheticNights withLatestRuns(int runs) {
    return new SyntheticNights(nights, runsPerNight, cv, cpuNight, parallelismNight, runs);
  }

  static LocalDate night(int i) {
    return FIRST.plusDays(i);
  }

  Analysis generate(long seed) {
    Random random = new Random(seed);
    List<RunInfo> runs = new ArrayList<>();
    List<ProcessLoad> processes = new ArrayList<>();
    List<StackWeight> stacks = new ArrayList<>();
    for (int n = 0; n < nights; n++) {
      for (int r = 0; r < (n == nights - 1 ? latestRuns : runsPerNight); r++) {
        String id = "app-" + night(n) + "-" + (char) ('a' + r);
        int pid = 1000 + n * 10 + r;
        RunInfo run = new RunInfo();
        run.runId = id;
        run.source = id + ".txt.gz";
        run.samplingEvent = "cpu-clock";
        run.sampleIntervalNs = 250_000;
        run.processNames.put(pid, "app");
        runs.add(run);
        List<StackWeight> mine = new ArrayList<>();
        double setup = 200 * MS * (n >= cpuNight && cpuNight >= 0 ? 1.3 : 1) * noise(random);
        mine.add(stack(id, pid, 1, setup, "setup"));
        double crunch = 1600 * MS * noise(random);
        double atFour = (n >= parallelismNight && parallelismNight >= 0 ? 0.15 : 0.85)
            + 0.03 * random.nextGaussian();
        atFour = Math.max(0, Math.min(1, atFour));
        mine.add(stack(id, pid, 4, crunch * atFour, "crunch"));
        mine.add(stack(id, pid, 2, crunch * (1 - atFour), "crunch"));
        mine.add(stack(id, pid, 1, 4 * MS * noise(random), "poll"));
        stacks.addAll(mine);
        processes.add(process(id, pid, "app", mine, 50 * MS * noise(random)));
      }
    }
    return new Analysis(runs, processes, stacks, LoadRange.ALL);
  }

  private double noise(Random random) {
    return Math.max(0.1, 1 + cv * random.nextGaussian());
  }

  static StackWeight stack(String run, int pid, int load, double cpuNs, String leaf) {
    long cpu = Math.round(cpuNs);
    return new StackWeight(run, pid, StackWeight.ALL_THREADS, load,
        new Frame[] {new Frame(leaf, "/usr/bin/app"), new Frame("main", "/usr/bin/app")},
        Math.max(1, cpu / 250_000), cpu);
  }

  /** Figures consistent with the stacks: the exact time at load k is CPU at load k over k. */
  static ProcessLoad process(String run, int pid, String comm, List<StackWeight> stacks,
      double waitNs) {
    ProcessLoad p = new ProcessLoad();
    p.runId = run;
    p.pid = pid;
    p.comm = comm;
    p.samplesAtLoad = new long[5];
    p.cpuNsAtLoad = new long[5];
    p.timeAtLoadNs = new long[5];
    for (StackWeight s : stacks) {
      p.samples += s.count();
      p.cpuNs += s.cpuNs();
      p.samplesAtLoad[s.load()] += s.count();
      p.cpuNsAtLoad[s.load()] += s.cpuNs();
      p.timeAtLoadNs[s.load()] += s.cpuNs() / s.load();
    }
    p.timeAtLoadNs[0] = Math.round(waitNs);
    return p;
  }
}
