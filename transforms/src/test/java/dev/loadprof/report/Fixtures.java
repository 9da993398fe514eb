package dev.loadprof.report;

import dev.loadprof.critical.CriticalPath;
import dev.loadprof.critical.ProgramMarks;
import dev.loadprof.critical.WhatIfRequest;

import dev.loadprof.model.Frame;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceHealth;
import dev.loadprof.profile.LoadRange;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.profile.StackWeight;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/** Small hand-made analyses for the report tests. One sample = 1 ms of CPU. */
public final class Fixtures {
  public static final long MS = 1_000_000L;

  private Fixtures() {}

  /** "symbol" or "symbol@dso", leaf first. */
  public static StackWeight stack(String run, int pid, int load, long cpuMs, String... frames) {
    Frame[] stack = new Frame[frames.length];
    for (int i = 0; i < frames.length; i++) {
      String[] parts = frames[i].split("@", 2);
      stack[i] = new Frame(parts[0], parts.length > 1 ? parts[1] : "");
    }
    return new StackWeight(run, pid, pid, load, stack, cpuMs, cpuMs * MS);
  }

  public static RunInfo run(String id, long startNs, long endNs) {
    RunInfo r = new RunInfo();
    r.runId = id;
    r.source = "/traces/" + id + ".txt.gz";
    r.host = "testhost";
    r.samplingEvent = "cpu-clock";
    r.sampleIntervalNs = MS;
    r.cpuCount = 64;
    r.startNs = startNs;
    r.endNs = endNs;
    r.health.add(TraceHealth.LINES, 1000);
    r.health.add(TraceHealth.SAMPLE_RECORDS, 900);
    return r;
  }

  /** The process figures implied by its stacks, with the exact time at load given in ms. */
  public static ProcessLoad process(String run, int pid, String comm, List<StackWeight> all,
      long... timeAtLoadMs) {
    ProcessLoad p = new ProcessLoad();
    p.runId = run;
    p.pid = pid;
    p.comm = comm;
    int max = 0;
    for (StackWeight s : all) {
      if (s.runId().equals(run) && s.pid() == pid) {
        max = Math.max(max, s.load());
      }
    }
    p.samplesAtLoad = new long[max + 1];
    p.cpuNsAtLoad = new long[max + 1];
    for (StackWeight s : all) {
      if (s.runId().equals(run) && s.pid() == pid) {
        p.samples += s.count();
        p.cpuNs += s.cpuNs();
        p.samplesAtLoad[s.load()] += s.count();
        p.cpuNsAtLoad[s.load()] += s.cpuNs();
      }
    }
    p.timeAtLoadNs = new long[timeAtLoadMs.length];
    for (int k = 0; k < timeAtLoadMs.length; k++) {
      p.timeAtLoadNs[k] = timeAtLoadMs[k] * MS;
    }
    return p;
  }

  /**
   * The classic case: a serial function runs 2 s at load 1, a parallel one 64 s of CPU at load
   * 64. Real time splits 2/3 vs 1/3, CPU time ~3% vs ~97%.
   */
  public static Analysis classic() {
    List<StackWeight> stacks =
        List.of(
            stack("app", 100, 1, 2000, "serial_setup@/usr/bin/app", "main@/usr/bin/app"),
            stack("app", 100, 64, 64000, "parallel_work@/usr/bin/app",
                "worker_start@/usr/bin/app"));
    long[] time = new long[65];
    time[0] = 500;
    time[1] = 2000;
    time[64] = 1000;
    ProcessLoad app = process("app", 100, "app", stacks, time);
    app.criticalPath = classicPath();
    return new Analysis(
        List.of(run("app", 0, 3_500 * MS)),
        List.of(app),
        stacks,
        LoadRange.ALL);
  }

  /**
   * A critical path of a fork-join program: main's serial_setup (20 ms), two workers'
   * parallel_work (10 and 20 ms), joined one after the other, then 5 ms of serial_setup; a
   * --what-if of parallel_work at 50 %.
   */
  static CriticalPath classicPath() {
    return new ProgramMarks().run(100, 0, 20, "serial_setup", "main").fork(101, 20, 100)
        .fork(102, 20, 100).out(100, 20, 'S', "futex_wait")
        .run(101, 20, 30, "parallel_work", "worker_start").out(101, 30, 'X', null)
        .run(102, 20, 40, "parallel_work", "worker_start").out(102, 40, 'X', null)
        .wake(100, 30, 100, 101).run(100, 30, 30.5, "serial_setup", "main")
        .out(100, 30.5, 'S', "futex_wait").wake(100, 40, 100, 102)
        .run(100, 40, 45, "serial_setup", "main").out(100, 45, 'X', null)
        .path(List.of(new WhatIfRequest("^parallel_work$", 50)));
  }

  /** One process at loads 1, 2, 4 and 8, with recursion and an unknown frame; one run. */
  static List<StackWeight> dbStacks(String run) {
    return List.of(
        stack(run, 200, 1, 3000, "spin_lock@[kernel.kallsyms]", "commit@/usr/bin/db",
            "main@/usr/bin/db"),
        stack(run, 200, 1, 1000, "parse_query@/usr/bin/db", "main@/usr/bin/db"),
        stack(run, 200, 2, 2000, "compute@/usr/bin/db", "main@/usr/bin/db"),
        stack(run, 200, 4, 8000, "compute@/usr/bin/db", "recurse@/usr/bin/db",
            "recurse@/usr/bin/db", "main@/usr/bin/db"),
        stack(run, 200, 4, 1200, "memcpy@/usr/lib/libc.so.6", "recurse@/usr/bin/db",
            "main@/usr/bin/db"),
        stack(run, 200, 8, 16000, "hash_rows@/usr/bin/db", "scan@/usr/bin/db",
            "main@/usr/bin/db"),
        stack(run, 200, 8, 800, "[unknown]@/usr/lib/libc.so.6", "scan@/usr/bin/db",
            "main@/usr/bin/db"));
  }

  /** The db process alone: what the pprof tests run stock pprof on. */
  public static Analysis singleProcess() {
    List<StackWeight> stacks = dbStacks("db");
    return new Analysis(
        List.of(run("db", 1_000 * MS, 9_000 * MS)),
        List.of(process("db", 200, "db", stacks, 1000, 4000, 1000, 0, 2300, 0, 0, 0, 2100)),
        stacks,
        LoadRange.ALL);
  }

  /** Two runs: the db process, the idle task, a small web process; warnings and bad lines. */
  public static Analysis mixed(LoadRange filter) {
    List<StackWeight> stacks = new ArrayList<>(dbStacks("trace-a"));
    stacks.add(stack("trace-a", 0, 2, 500, "cpu_idle@[kernel.kallsyms]"));
    stacks.add(stack("trace-b", 300, 1, 600, "handle@/usr/sbin/web", "serve@/usr/sbin/web"));
    stacks.add(stack("trace-b", 300, 2, 800, "parse@/usr/sbin/web", "handle@/usr/sbin/web",
        "serve@/usr/sbin/web"));
    stacks.add(stack("trace-b", 301, 1, 100, "tick@/usr/bin/cron"));
    RunInfo a = run("trace-a", 1_000 * MS, 12_000 * MS);
    RunInfo b = run("trace-b", 20_000 * MS, 22_000 * MS);
    b.health.add(TraceHealth.MALFORMED_LINES, 2);
    b.health.addMalformedExample("trace-b.txt:17: no timestamp");
    b.health.addMalformedExample("trace-b.txt:42: truncated stack");
    b.warnings.add("context switches were sampled; loads are estimated");
    b.processNames.put(301, "cron");
    List<ProcessLoad> processes =
        List.of(
            process("trace-a", 200, "db", stacks, 1000, 4000, 1000, 0, 2300, 0, 0, 0, 2100),
            process("trace-a", 0, "swapper", stacks, 0, 0, 250),
            process("trace-b", 300, "web", stacks, 300, 600, 400),
            process("trace-b", 301, "", stacks, 1900, 100));
    processes.get(0).health.put(TraceHealth.SAMPLES_CONTRADICTED, 3L);
    return new Analysis(List.of(b, a), processes, stacks, filter);
  }

  /** The same analysis with every list shuffled and every stack array copied. */
  public static Analysis shuffled(Analysis a, long seed) {
    Random random = new Random(seed);
    List<RunInfo> runs = new ArrayList<>(a.runs());
    List<ProcessLoad> processes = new ArrayList<>(a.processes());
    List<StackWeight> stacks = new ArrayList<>();
    for (StackWeight s : a.threadStacks()) {
      stacks.add(new StackWeight(s.runId(), s.pid(), s.tid(), s.load(), s.stack().clone(),
          s.count(), s.cpuNs()));
    }
    Collections.shuffle(runs, random);
    Collections.shuffle(processes, random);
    Collections.shuffle(stacks, random);
    return new Analysis(runs, processes, stacks, a.loadFilter(), a.groupBy());
  }
}
