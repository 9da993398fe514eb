package dev.loadprof.report;

import static dev.loadprof.report.Fixtures.process;
import static dev.loadprof.report.Fixtures.run;
import static dev.loadprof.report.Fixtures.stack;

import dev.loadprof.model.RunInfo;
import dev.loadprof.profile.LoadRange;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.profile.StackWeight;
import java.util.ArrayList;
import java.util.List;

/** Analyses of several runs for the many-runs report tests. One sample = 1 ms of CPU. */
final class ManyRunsFixtures {
  private ManyRunsFixtures() {}

  /**
   * A small fleet: nightly-01 and canary-01 on host alpha, nightly-02 on host beta. Every run has
   * a db process (different pids); nightly-02 also runs backup, canary-01 also runs web. Exact
   * times at load agree with the samples (wall at load k = CPU at load k / k), plus some load 0.
   */
  static Analysis fleet(String groupBy) {
    List<StackWeight> stacks = new ArrayList<>();
    // nightly-01/db: 2 s serial commit, 8 s CPU of compute at load 4 (2 s real).
    stacks.add(stack("nightly-01", 200, 1, 2000, "commit", "main"));
    stacks.add(stack("nightly-01", 200, 4, 8000, "compute", "main"));
    // nightly-02/db: 1 s commit, 2 s CPU of parse at load 2, 12 s CPU of compute at load 4.
    stacks.add(stack("nightly-02", 210, 1, 1000, "commit", "main"));
    stacks.add(stack("nightly-02", 210, 2, 2000, "parse", "main"));
    stacks.add(stack("nightly-02", 210, 4, 12000, "compute", "main"));
    stacks.add(stack("nightly-02", 400, 1, 500, "gzip", "backup_main"));
    // canary-01/db: mostly serial (commit, a spin lock under it), 8 s CPU of compute at load 8.
    stacks.add(stack("canary-01", 220, 1, 3000, "commit", "main"));
    stacks.add(stack("canary-01", 220, 1, 1000, "spin_lock", "commit", "main"));
    stacks.add(stack("canary-01", 220, 8, 8000, "compute", "main"));
    stacks.add(stack("canary-01", 300, 2, 600, "handle", "serve"));

    RunInfo n1 = run("nightly-01", 0, 5_000 * Fixtures.MS);
    n1.host = "alpha";
    RunInfo n2 = run("nightly-02", 0, 6_000 * Fixtures.MS);
    n2.host = "beta";
    RunInfo c1 = run("canary-01", 0, 5_500 * Fixtures.MS);
    c1.host = "alpha";
    List<ProcessLoad> processes =
        List.of(
            process("nightly-01", 200, "db", stacks, 500, 2000, 0, 0, 2000),
            process("nightly-02", 210, "db", stacks, 0, 1000, 1000, 0, 3000),
            process("nightly-02", 400, "backup", stacks, 100, 500),
            process("canary-01", 220, "db", stacks, 0, 4000, 0, 0, 0, 0, 0, 0, 1000),
            process("canary-01", 300, "web", stacks, 200, 0, 300));
    return new Analysis(
        List.of(n2, c1, n1), processes, stacks, LoadRange.ALL, GroupBy.parse(groupBy));
  }

  /**
   * One process name in two runs: 1 s at load 1 only, and 3 s at load 2 only. Weighted by time
   * the group spends 25% of its real time at load 1; averaging the runs' fractions would say 50%.
   */
  static Analysis shortSerialLongParallel() {
    List<StackWeight> stacks =
        List.of(
            stack("short", 10, 1, 1000, "serial_part", "main"),
            stack("long", 20, 2, 6000, "parallel_part", "main"));
    return new Analysis(
        List.of(run("short", 0, 1_000 * Fixtures.MS), run("long", 0, 3_000 * Fixtures.MS)),
        List.of(
            process("short", 10, "app", stacks, 0, 1000),
            process("long", 20, "app", stacks, 0, 0, 3000)),
        stacks,
        LoadRange.ALL,
        GroupBy.parse("comm"));
  }
}
