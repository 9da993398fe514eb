package dev.loadprof.synth;

/** Named synthetic traces with known answers, shared by pipeline tests and benchmarks. */
public final class Scenarios {
  public static final String SERIAL_FUNCTION = "serial_work";
  public static final String PARALLEL_FUNCTION = "parallel_work";
  public static final int HEADLINE_PID = 4242;
  public static final String HEADLINE_COMM = "headline";

  private Scenarios() {}

  /**
   * The headline case: 64 CPUs; 2 s of serial_work on one thread, then 64 threads (one per CPU)
   * for 1 s of parallel_work. serial_work is 2 / (2 + 64) = 3.03 % of the CPU time but
   * 2 / (2 + 1) = 66.7 % of the real time.
   */
  public static SyntheticTrace.Builder headline64Builder() {
    return SyntheticTrace.builder()
        .cpus(64)
        .samplePeriodNs(250_000)
        .startNs(100_000_000_000L)
        .seed(1)
        .process(HEADLINE_PID, HEADLINE_COMM, 0)
        .serial(2_000_000_000L, SERIAL_FUNCTION)
        .parallel(64, 1_000_000_000L, PARALLEL_FUNCTION);
  }

  public static SyntheticTrace headline64() {
    return headline64Builder().build();
  }

  /** headline64 as a VM loses them: every "swapper ==> task" switch on odd CPUs is missing. */
  public static SyntheticTrace headline64DroppedIdleSwitches() {
    return headline64Builder().dropIdleToTaskSwitches(cpu -> cpu % 2 == 1).build();
  }

  /** headline64 recorded with -e sched:sched_wakeup. */
  public static SyntheticTrace headline64Wakeups() {
    return headline64Builder().wakeups(true).build();
  }

  /** Both damages plus wakeups: the case wakeup-based chain repair is for. */
  public static SyntheticTrace headline64DroppedWithWakeups() {
    return headline64Builder().wakeups(true).dropIdleToTaskSwitches(cpu -> cpu % 2 == 1).build();
  }

  /**
   * A small trace for unit tests: 4 CPUs, serial 20 ms, 3 workers 10 ms, sleep 5 ms, serial
   * 10 ms, with a noise process on CPU 2 (preempting a worker) and wakeups.
   */
  public static SyntheticTrace small(long seed) {
    return SyntheticTrace.builder()
        .cpus(4)
        .seed(seed)
        .process(1000, "small", 0)
        .serial(20_000_000L, SERIAL_FUNCTION)
        .parallel(3, 10_000_000L, PARALLEL_FUNCTION)
        .sleep(5_000_000L)
        .serial(10_000_000L, "tail_work")
        .noise(2, 500, "noised", "noise_work", 300_000L, 2_000_000L)
        .wakeups(true)
        .build();
  }
}
