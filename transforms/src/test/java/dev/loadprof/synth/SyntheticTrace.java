package dev.loadprof.synth;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.function.IntPredicate;
import java.util.zip.GZIPOutputStream;

/**
 * A synthetic {@code perf script} trace with exactly known answers. A script of phases for one
 * main process (serial work, parallel workers, sleeps) plus optional background noise is compiled
 * into ground-truth run intervals; the trace text (samples, sched_switch, sched_wakeup, FORK, EXIT,
 * COMM records, in the recommended {@code perf script -F ...} layout) is derived from those
 * intervals, and {@link #expected()} derives its figures from the same intervals, never from text.
 *
 * <pre>{@code
 * SyntheticTrace t = SyntheticTrace.builder().cpus(64).seed(1)
 *     .serial(2_000_000_000L, "serial_work")
 *     .parallel(64, 1_000_000_000L, "parallel_work")
 *     .build();
 * t.writeTo(Path.of("headline.txt.gz"));
 * double share = t.expected().process(t.pid()).sampledRealShare("serial_work");
 * }</pre>
 */
public final class SyntheticTrace {
  /** User frames of the synthetic programs live here. */
  public static final String APP_DSO = "/opt/synth/app";
  public static final String NOISE_DSO = "/opt/synth/noise";
  /** Function the main thread runs while creating workers, and while exiting. */
  public static final String SPAWN_FUNCTION = "spawn_workers";
  public static final String EXIT_FUNCTION = "_exit";

  // ---------------------------------------------------------------------------------------------
  // Builder

  public static Builder builder() {
    return new Builder();
  }

  /** A step of the main process's script. */
  private sealed interface Step permits Serial, Parallel, Sleep {}

  private record Serial(long durationNs, String function) implements Step {}

  private record Parallel(int threads, long durationNs, String function) implements Step {}

  private record Sleep(long durationNs) implements Step {}

  private record Noise(int cpu, int pid, String comm, String function, long burstNs, long gapNs) {}

  public static final class Builder {
    private int cpus = 4;
    private long samplePeriodNs = 250_000;
    private long startNs = 100_000_000_000L;
    private long seed = 1;
    private int pid = 4242;
    private String comm = "synth";
    private int mainCpu = 0;
    private boolean wakeups;
    private IntPredicate dropIdleToTask = cpu -> false;
    private int switchSamplingPeriod = 1;
    private boolean idleSamples;
    private long marginNs = 2_000_000;
    private final List<Step> steps = new ArrayList<>();
    private final List<Noise> noises = new ArrayList<>();

    private Builder() {}

    public Builder cpus(int cpus) {
      if (cpus < 1 || cpus > 999) {
        throw new IllegalArgumentException("cpus must be 1..999: " + cpus);
      }
      this.cpus = cpus;
      return this;
    }

    /** cpu-clock period: each running thread is sampled this often on its CPU. */
    public Builder samplePeriodNs(long samplePeriodNs) {
      if (samplePeriodNs < 1000) {
        throw new IllegalArgumentException("sample period below 1 µs: " + samplePeriodNs);
      }
      this.samplePeriodNs = samplePeriodNs;
      return this;
    }

    /** When the main process is switched in (trace clock, ns). */
    public Builder startNs(long startNs) {
      this.startNs = startNs;
      return this;
    }

    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** The main process: its pid (= main tid), its name after exec, and the CPU it starts on. */
    public Builder process(int pid, String comm, int mainCpu) {
      if (pid < 2) {
        throw new IllegalArgumentException("pid must be >= 2 (pid - 1 is the launching perf)");
      }
      this.pid = pid;
      this.comm = comm;
      this.mainCpu = mainCpu;
      return this;
    }

    /** The main thread runs {@code function} on its CPU for the duration. */
    public Builder serial(long durationNs, String function) {
      steps.add(new Serial(positive(durationNs), function));
      return this;
    }

    /**
     * The main thread forks {@code threads} workers (one per CPU, starting at the main CPU), sleeps
     * while they run {@code function} for about the duration, and is woken when the last exits.
     */
    public Builder parallel(int threads, long durationNs, String function) {
      if (threads < 1) {
        throw new IllegalArgumentException("threads must be >= 1");
      }
      steps.add(new Parallel(threads, positive(durationNs), function));
      return this;
    }

    /** The whole process is off-CPU for the duration (load 0 inside its span). */
    public Builder sleep(long durationNs) {
      steps.add(new Sleep(positive(durationNs)));
      return this;
    }

    /**
     * A background process on {@code cpu} (not the main CPU) that runs bursts of about burstNs
     * every burstNs + gapNs during the whole trace, preempting whatever app thread is there.
     */
    public Builder noise(int cpu, int pid, String comm, String function, long burstNs,
        long gapNs) {
      noises.add(new Noise(cpu, pid, comm, function, positive(burstNs), positive(gapNs)));
      return this;
    }

    /** Emit a sched:sched_wakeup, targeted at the CPU, a few µs before every switch-in. */
    public Builder wakeups(boolean wakeups) {
      this.wakeups = wakeups;
      return this;
    }

    /**
     * Deletes every "swapper/N ==> task" switch on CPUs matching the predicate: the chain break
     * seen on real VMs ("X ==> swapper/1" followed by "Y ==> Z" with nothing switching Y in).
     */
    public Builder dropIdleToTaskSwitches(IntPredicate cpus) {
      this.dropIdleToTask = cpus;
      return this;
    }

    /**
     * Keeps only every n-th sched_switch of each CPU and prints it with period n, as perf record
     * -F does to tracepoints. 1 (the default) keeps all.
     */
    public Builder switchSamplingPeriod(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("switch sampling period must be >= 1");
      }
      this.switchSamplingPeriod = n;
      return this;
    }

    /** Idle CPUs get cpu-clock samples of swapper (most VMs' idle CPUs get none: the default). */
    public Builder idleSamples(boolean idleSamples) {
      this.idleSamples = idleSamples;
      return this;
    }

    /** Trace time recorded before the process starts and after it ends (default 2 ms). */
    public Builder marginNs(long marginNs) {
      this.marginNs = marginNs;
      return this;
    }

    public SyntheticTrace build() {
      if (steps.isEmpty() || steps.get(0) instanceof Sleep) {
        throw new IllegalStateException("the script must start with serial or parallel work");
      }
      if (mainCpu < 0 || mainCpu >= cpus) {
        throw new IllegalArgumentException("main cpu out of range: " + mainCpu);
      }
      for (Step s : steps) {
        if (s instanceof Parallel p && p.threads() > cpus) {
          throw new IllegalArgumentException("more workers than CPUs: " + p.threads());
        }
      }
      for (Noise n : noises) {
        if (n.cpu() == mainCpu || n.cpu() < 0 || n.cpu() >= cpus) {
          throw new IllegalArgumentException("noise needs a CPU other than the main one");
        }
        if (n.pid() == pid || n.pid() == pid - 1) {
          throw new IllegalArgumentException("noise pid clashes with the main process");
        }
      }
      return new SyntheticTrace(this);
    }

    private static long positive(long ns) {
      if (ns <= 0) {
        throw new IllegalArgumentException("duration must be positive: " + ns);
      }
      return ns;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // The compiled plan

  private final int cpus;
  private final long samplePeriodNs;
  private final long seed;
  private final int pid;
  private final String comm;
  private final boolean wakeups;
  private final IntPredicate dropIdleToTask;
  private final int switchSamplingPeriod;
  private final boolean idleSamples;
  private final long windowStartNs;
  private final long windowEndNs;
  /** Ground truth: all run intervals, sorted by (cpu, start). */
  private final List<Interval> intervals = new ArrayList<>();
  /** Task events (time, cpu, header thread, text), in creation order. */
  private final List<TaskEvent> taskEvents = new ArrayList<>();
  /** Threads that existed before recording started: perf synthesizes COMM/FORK lines for them. */
  private final List<String[]> preamble = new ArrayList<>();
  private final long[] gridOffsetNs;
  private Expected expected;

  private record TaskEvent(long timeNs, int cpu, SynthThread header, String text) {}

  private SyntheticTrace(Builder b) {
    this.cpus = b.cpus;
    this.samplePeriodNs = b.samplePeriodNs;
    this.seed = b.seed;
    this.pid = b.pid;
    this.comm = b.comm;
    this.wakeups = b.wakeups;
    this.dropIdleToTask = b.dropIdleToTask;
    this.switchSamplingPeriod = b.switchSamplingPeriod;
    this.idleSamples = b.idleSamples;
    SplittableRandom rnd = new SplittableRandom(b.seed);
    // Each CPU's timer has its own phase, so samples of different CPUs are not simultaneous.
    gridOffsetNs = new long[cpus];
    for (int c = 0; c < cpus; c++) {
      gridOffsetNs[c] = rnd.nextLong(samplePeriodNs);
    }
    long endNs = planMainProcess(b, rnd);
    windowStartNs = b.startNs - b.marginNs;
    windowEndNs = endNs + b.marginNs;
    for (Noise n : b.noises) {
      planNoise(n, rnd);
    }
    intervals.sort(Comparator.comparingInt(Interval::cpu).thenComparingLong(Interval::startNs));
  }

  /** Lays out the main process's intervals and task events; returns its last instant. */
  private long planMainProcess(Builder b, SplittableRandom rnd) {
    int parent = pid - 1;
    long execNs = b.startNs + jitter(rnd, 20_000, 60_000);
    SynthThread main = new SynthThread(pid, pid, comm, execNs, APP_DSO, "main");
    preamble.add(new String[] {"perf", "PERF_RECORD_COMM: perf:" + parent + "/" + parent});
    preamble.add(new String[] {"perf",
        "PERF_RECORD_FORK(" + pid + ":" + pid + "):(" + parent + ":" + parent + ")"});
    preamble.add(new String[] {"perf-exec", "PERF_RECORD_COMM: perf-exec:" + pid + "/" + pid});
    taskEvents.add(new TaskEvent(execNs, b.mainCpu, main,
        "PERF_RECORD_COMM exec: " + comm + ":" + pid + "/" + pid));

    int nextTid = pid + 1;
    long t = b.startNs;
    for (Step step : b.steps) {
      if (step instanceof Serial s) {
        intervals.add(new Interval(b.mainCpu, main, t, t + s.durationNs(), s.function(), 'S'));
        t += s.durationNs();
      } else if (step instanceof Sleep s) {
        t += s.durationNs() + jitter(rnd, 1_000, 5_000);
      } else if (step instanceof Parallel p) {
        // The main thread forks the workers one by one (a few µs each), then blocks (S).
        long forkNs = Math.max(t, execNs);
        SynthThread[] workers = new SynthThread[p.threads()];
        long[] forks = new long[p.threads()];
        for (int i = 0; i < p.threads(); i++) {
          forkNs += jitter(rnd, 3_000, 8_000);
          workers[i] = new SynthThread(pid, nextTid++, comm, Long.MIN_VALUE, APP_DSO,
              "worker_main");
          forks[i] = forkNs;
          taskEvents.add(new TaskEvent(forkNs, b.mainCpu, main, "PERF_RECORD_FORK(" + pid + ":"
              + workers[i].tid + "):(" + pid + ":" + pid + ")"));
        }
        long mainOff = forkNs + jitter(rnd, 1_000, 3_000);
        intervals.add(new Interval(b.mainCpu, main, t, mainOff, SPAWN_FUNCTION, 'S'));
        long lastEnd = mainOff;
        for (int i = 0; i < p.threads(); i++) {
          int cpu = (b.mainCpu + i) % cpus;
          // The worker on the main CPU takes over directly when main blocks; others start
          // after their fork on an idle CPU.
          long start = cpu == b.mainCpu ? mainOff : forks[i] + jitter(rnd, 8_000, 30_000);
          long end = start + p.durationNs() + jitter(rnd, -20_000, 20_000);
          intervals.add(new Interval(cpu, workers[i], start, end, p.function(), 'X'));
          taskEvents.add(new TaskEvent(end - jitter(rnd, 1_000, 5_000), cpu, workers[i],
              "PERF_RECORD_EXIT(" + pid + ":" + workers[i].tid + "):(" + parent + ":" + parent
                  + ")"));
          lastEnd = Math.max(lastEnd, end);
        }
        t = lastEnd + jitter(rnd, 5_000, 20_000);
      }
    }
    // Exit: a short tail in _exit, the EXIT record, then the switch out as a zombie (Z).
    long end = t + jitter(rnd, 10_000, 30_000);
    intervals.add(new Interval(b.mainCpu, main, t, end, EXIT_FUNCTION, 'Z'));
    taskEvents.add(new TaskEvent(end - jitter(rnd, 1_000, 5_000), b.mainCpu, main,
        "PERF_RECORD_EXIT(" + pid + ":" + pid + "):(" + parent + ":" + parent + ")"));
    return end;
  }

  /**
   * Adds bursts of a background process on one CPU over the whole window. A burst that lands in
   * an app interval preempts it (the app piece before ends with state R); bursts too close to an
   * app interval's edges are skipped, so that FORK/EXIT records stay inside their thread's time.
   */
  private void planNoise(Noise n, SplittableRandom rnd) {
    SynthThread thread = new SynthThread(n.pid(), n.pid(), n.comm(), Long.MIN_VALUE, NOISE_DSO,
        "main");
    preamble.add(new String[] {n.comm(), "PERF_RECORD_COMM: " + n.comm() + ":" + n.pid() + "/"
        + n.pid()});
    List<Interval> onCpu = new ArrayList<>();
    List<Interval> others = new ArrayList<>();
    for (Interval iv : intervals) {
      (iv.cpu() == n.cpu() ? onCpu : others).add(iv);
    }
    onCpu.sort(Comparator.comparingLong(Interval::startNs));
    long guard = 20_000;
    long t = windowStartNs + jitter(rnd, 0, n.gapNs());
    List<Interval> result = new ArrayList<>();
    int i = 0;
    while (true) {
      long burst = Math.max(1_000, n.burstNs() + jitter(rnd, -n.burstNs() / 4, n.burstNs() / 4));
      long a = t;
      long b = t + burst;
      if (b >= windowEndNs) {
        break;
      }
      t = b + Math.max(1_000, n.gapNs() + jitter(rnd, -n.gapNs() / 4, n.gapNs() / 4));
      // Copy app intervals that end before the burst.
      while (i < onCpu.size() && onCpu.get(i).endNs() <= a - guard) {
        result.add(onCpu.get(i++));
      }
      if (i < onCpu.size() && onCpu.get(i).startNs() < b + guard) {
        Interval app = onCpu.get(i);
        if (app.startNs() + guard <= a && b + guard <= app.endNs()) {
          // Preemption: app runs [start, a) then noise [a, b) then app again [b, end).
          result.add(new Interval(n.cpu(), app.thread(), app.startNs(), a, app.function(), 'R'));
          result.add(new Interval(n.cpu(), thread, a, b, n.function(), 'S'));
          onCpu.set(i, new Interval(n.cpu(), app.thread(), b, app.endNs(), app.function(),
              app.endState()));
        }
        continue; // a burst overlapping an edge is skipped
      }
      result.add(new Interval(n.cpu(), thread, a, b, n.function(), 'S'));
    }
    while (i < onCpu.size()) {
      result.add(onCpu.get(i++));
    }
    intervals.clear();
    intervals.addAll(others);
    intervals.addAll(result);
  }

  private static long jitter(SplittableRandom rnd, long from, long to) {
    return from >= to ? from : rnd.nextLong(from, to);
  }

  // ---------------------------------------------------------------------------------------------
  // Accessors

  public int pid() {
    return pid;
  }

  public String comm() {
    return comm;
  }

  public int cpus() {
    return cpus;
  }

  public long samplePeriodNs() {
    return samplePeriodNs;
  }

  public long seed() {
    return seed;
  }

  /** First and last instant of the recorded window (the trace's records lie inside it). */
  public long windowStartNs() {
    return windowStartNs;
  }

  public long windowEndNs() {
    return windowEndNs;
  }

  /** The ground-truth run intervals, sorted by CPU then start (read-only). */
  List<Interval> intervals() {
    return Collections.unmodifiableList(intervals);
  }

  /** Exact figures from the ground truth; computed once (one pass over the records, no text). */
  public synchronized Expected expected() {
    if (expected == null) {
      Expected.Accumulator acc = new Expected.Accumulator(this, intervals);
      emit(acc);
      expected = acc.finish();
    }
    return expected;
  }

  // ---------------------------------------------------------------------------------------------
  // Output

  /** Writes the perf script text. The writer is flushed, not closed. */
  public void writeTo(Writer out) throws IOException {
    PerfTextSink sink = new PerfTextSink(out, samplePeriodNs);
    try {
      emit(sink);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    sink.flush();
  }

  /** Writes the text to a file, gzip-compressed when its name ends with ".gz". */
  public void writeTo(Path file) throws IOException {
    try (OutputStream raw = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
        OutputStream os = file.toString().endsWith(".gz") ? new GZIPOutputStream(raw, 1 << 16)
            : raw;
        Writer w = new OutputStreamWriter(os, StandardCharsets.UTF_8)) {
      writeTo(w);
    }
  }

  /** The whole text in memory; for small traces in tests. */
  public String text() {
    StringWriter w = new StringWriter();
    try {
      writeTo(w);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return w.toString();
  }

  /** Sends every record, globally sorted by (time, cpu, per-CPU order), to the sink. */
  void emit(RecordSink sink) {
    for (String[] p : preamble) {
      sink.preamble(p[0], p[1]);
    }
    PriorityQueue<CpuStream> queue = new PriorityQueue<>(
        Comparator.comparingLong(CpuStream::headTimeNs).thenComparingInt(s -> s.cpu));
    for (CpuStream s : cpuStreams()) {
      if (s.hasNext()) {
        queue.add(s);
      }
    }
    while (!queue.isEmpty()) {
      CpuStream s = queue.poll();
      s.emitHead(sink);
      if (s.hasNext()) {
        queue.add(s);
      }
    }
  }

  /** Builds each CPU's discrete records (switches, wakeups, task events) from the intervals. */
  private List<CpuStream> cpuStreams() {
    List<List<Interval>> byCpu = new ArrayList<>();
    List<List<CpuStream.Discrete>> discrete = new ArrayList<>();
    for (int c = 0; c < cpus; c++) {
      byCpu.add(new ArrayList<>());
      discrete.add(new ArrayList<>());
    }
    for (Interval iv : intervals) {
      byCpu.get(iv.cpu()).add(iv);
    }
    int seq = 0;
    for (TaskEvent e : taskEvents) {
      discrete.get(e.cpu()).add(new CpuStream.Discrete(e.timeNs(), CpuStream.Discrete.TASK,
          seq++, e.header(), null, ' ', false, 0, e.text()));
    }
    // Wakeup lead times come from their own generator so that the interval plan is the same
    // with and without wakeups.
    SplittableRandom wakeRnd = new SplittableRandom(seed ^ 0x5DEECE66DL);
    for (int c = 0; c < cpus; c++) {
      List<Interval> ivs = byCpu.get(c);
      List<CpuStream.Discrete> out = discrete.get(c);
      int switchCount = 0;
      Interval last = null;
      for (Interval iv : ivs) {
        boolean abuts = last != null && last.endNs() == iv.startNs();
        if (abuts && last.thread() == iv.thread()) {
          last = iv; // same thread goes on with another function: no switch
          continue;
        }
        if (wakeups) {
          long w = iv.startNs() - jitter(wakeRnd, 1_000, 6_000);
          if (last != null) {
            w = Math.max(w, last.startNs());
          }
          SynthThread running = last != null && w < last.endNs() ? last.thread() : null;
          out.add(new CpuStream.Discrete(w, CpuStream.Discrete.WAKEUP, seq++, running,
              iv.thread(), ' ', false, 1, null));
        }
        if (abuts) {
          switchCount = addSwitch(out, seq++, switchCount, iv.startNs(), last, iv.thread());
        } else {
          if (last != null) {
            switchCount = addSwitch(out, seq++, switchCount, last.endNs(), last, null);
          }
          if (!dropIdleToTask.test(c)) {
            switchCount = addSwitch(out, seq++, switchCount, iv.startNs(), null, iv.thread());
          }
        }
        last = iv;
      }
      if (last != null) {
        addSwitch(out, seq++, switchCount, last.endNs(), last, null);
      }
      out.sort(Comparator.comparingLong((CpuStream.Discrete d) -> d.timeNs)
          .thenComparingInt(d -> d.kind).thenComparingInt(d -> d.seq));
    }
    List<CpuStream> streams = new ArrayList<>();
    for (int c = 0; c < cpus; c++) {
      streams.add(new CpuStream(c, discrete.get(c), byCpu.get(c), samplePeriodNs,
          gridOffsetNs[c], idleSamples, windowStartNs, windowEndNs));
    }
    return streams;
  }

  /** Adds one switch (prev interval, or null for idle, to next thread); applies -F sampling. */
  private int addSwitch(List<CpuStream.Discrete> out, int seq, int count, long timeNs,
      Interval prev, SynthThread next) {
    count++;
    if (count % switchSamplingPeriod == 0) {
      char state = prev == null ? 'R' : prev.endState();
      out.add(new CpuStream.Discrete(timeNs, CpuStream.Discrete.SWITCH, seq,
          prev == null ? null : prev.thread(), next, state, state == 'X', switchSamplingPeriod,
          null));
    }
    return count;
  }

  /** Number of CPUs that switchSamplingPeriod and dropIdleToTask apply to; for Expected. */
  int switchSamplingPeriod() {
    return switchSamplingPeriod;
  }

  boolean dropsIdleToTaskOn(int cpu) {
    return dropIdleToTask.test(cpu);
  }

  boolean wakeups() {
    return wakeups;
  }
}
