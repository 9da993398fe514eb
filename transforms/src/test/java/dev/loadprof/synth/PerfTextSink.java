package dev.loadprof.synth;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.HashMap;
import java.util.Map;

/**
 * Formats records exactly as {@code perf script -F comm,pid,tid,cpu,time,period,event,trace,ip,sym,
 * dso --ns --show-task-events} prints them (perf 6.x, with call chains):
 *
 * <pre>
 * comm pid/tid [cpu] time: period event: trace      ("%s %5d/%-5d [%03d] %5d.%09d: %10d %18s: ")
 * \t%16x sym (dso)                                   (stack, leaf first)
 * (blank line)                                       (after every record with a stack)
 * comm pid/tid [cpu] time: PERF_RECORD_...           (task events: no stack, no blank line)
 * </pre>
 *
 * Hand-rolled number formatting into a char buffer (no String.format) keeps a 100 MB trace
 * within seconds.
 */
final class PerfTextSink implements RecordSink {
  /** perf right-aligns event names to the longest event name of the session. */
  static final int EVENT_WIDTH = "sched:sched_switch".length();

  private static final String KERNEL_DSO = "[kernel.kallsyms]";
  private static final String[] IDLE_SAMPLE_STACK = {
      "pv_native_safe_halt", "default_idle", "do_idle", "cpu_startup_entry", "start_secondary"};
  private static final String[] SWITCH_IDLE_STACK = {
      "__schedule", "schedule_idle", "do_idle", "cpu_startup_entry", "start_secondary"};
  private static final String[] SWITCH_EXIT_STACK = {
      "__schedule", "do_task_dead", "do_exit", "__x64_sys_exit", "do_syscall_64"};
  private static final String[] SWITCH_SLEEP_STACK = {
      "__schedule", "schedule", "futex_wait", "do_futex", "do_syscall_64"};
  private static final String[] SWITCH_PREEMPT_STACK = {
      "__schedule", "preempt_schedule_irq", "irqentry_exit", "asm_sysvec_apic_timer_interrupt"};
  private static final String[] WAKEUP_STACK = {"ttwu_do_activate", "try_to_wake_up"};

  private static final long[] POW10 = {
      1L, 10L, 100L, 1_000L, 10_000L, 100_000L, 1_000_000L, 10_000_000L, 100_000_000L,
      1_000_000_000L};

  private final Writer out;
  private final long samplePeriodNs;
  private char[] buf = new char[1 << 16];
  private int len;
  /** Fixed, distinct fake addresses per (symbol, dso): kernel ones look like kernel text. */
  private final Map<String, Long> addresses = new HashMap<>();
  private long nextKernelIp = 0xffffffff81200000L;
  private final Map<String, Long> nextUserIp = new HashMap<>();

  PerfTextSink(Writer out, long samplePeriodNs) {
    this.out = out;
    this.samplePeriodNs = samplePeriodNs;
  }

  @Override
  public void preamble(String comm, String text) {
    header(comm, 0, 0, 0, 0L);
    append(text).append('\n');
    maybeFlush();
  }

  @Override
  public void sample(long timeNs, int cpu, SynthThread thread, String function) {
    if (thread == null) {
      header("swapper", 0, 0, cpu, timeNs);
      eventField(samplePeriodNs, "cpu-clock");
      append('\n');
      kernelStack(IDLE_SAMPLE_STACK);
    } else {
      header(thread.commAt(timeNs), thread.pid, thread.tid, cpu, timeNs);
      eventField(samplePeriodNs, "cpu-clock");
      append('\n');
      userStack(thread, function);
    }
    append('\n');
    maybeFlush();
  }

  @Override
  public void schedSwitch(long timeNs, int cpu, SynthThread prev, char prevState,
      boolean prevExited, SynthThread next, long period) {
    String prevComm = prev == null ? "swapper/" + cpu : prev.commAt(timeNs);
    if (prev == null) {
      header("swapper", 0, 0, cpu, timeNs);
    } else if (prevExited) {
      // perf no longer knows the exited thread: comm ":-1", tid -1, only the pid is left.
      header(":-1", prev.pid, -1, cpu, timeNs);
    } else {
      header(prevComm, prev.pid, prev.tid, cpu, timeNs);
    }
    eventField(period, "sched:sched_switch");
    append("prev_comm=").append(prevComm).append(" prev_pid=").append(prev == null ? 0 : prev.tid)
        .append(" prev_prio=120 prev_state=").append(prevState).append(" ==> next_comm=")
        .append(next == null ? "swapper/" + cpu : next.commAt(timeNs))
        .append(" next_pid=").append(next == null ? 0 : next.tid).append(" next_prio=120\n");
    String[] stack = prev == null ? SWITCH_IDLE_STACK
        : prevState == 'X' || prevState == 'Z' ? SWITCH_EXIT_STACK
        : prevState == 'R' ? SWITCH_PREEMPT_STACK : SWITCH_SLEEP_STACK;
    kernelStack(stack);
    append('\n');
    maybeFlush();
  }

  @Override
  public void wakeup(long timeNs, int cpu, SynthThread running, SynthThread woken,
      int targetCpu) {
    if (running == null) {
      header("swapper", 0, 0, cpu, timeNs);
    } else {
      header(running.commAt(timeNs), running.pid, running.tid, cpu, timeNs);
    }
    eventField(1, "sched:sched_wakeup");
    append("comm=").append(woken.commAt(timeNs)).append(" pid=").append(woken.tid)
        .append(" prio=120 target_cpu=");
    pad0(targetCpu, 3);
    append('\n');
    kernelStack(WAKEUP_STACK);
    append('\n');
    maybeFlush();
  }

  @Override
  public void task(long timeNs, int cpu, SynthThread header, String text) {
    header(header.commAt(timeNs), header.pid, header.tid, cpu, timeNs);
    append(text).append('\n');
    maybeFlush();
  }

  void flush() throws IOException {
    out.write(buf, 0, len);
    len = 0;
    out.flush();
  }

  // --- formatting ------------------------------------------------------------------------------

  /** "comm pid/tid [cpu] sssss.nnnnnnnnn: " */
  private void header(String comm, int pid, int tid, int cpu, long timeNs) {
    append(comm).append(' ');
    padLeft(pid, 5);
    append('/');
    padRight(tid, 5);
    append(" [");
    pad0(cpu, 3);
    append("] ");
    padLeft(timeNs / 1_000_000_000L, 5);
    append('.');
    pad0(timeNs % 1_000_000_000L, 9);
    append(": ");
  }

  /** "%10d %18s: " */
  private void eventField(long period, String event) {
    padLeft(period, 10);
    append(' ');
    for (int i = event.length(); i < EVENT_WIDTH; i++) {
      append(' ');
    }
    append(event).append(": ");
  }

  private void userStack(SynthThread thread, String function) {
    frame(function, thread.dso);
    frame(thread.rootFrame, thread.dso);
    frame("_start", thread.dso);
  }

  private void kernelStack(String[] symbols) {
    for (String s : symbols) {
      frame(s, KERNEL_DSO);
    }
  }

  /** "\t%16x sym (dso)\n" */
  private void frame(String symbol, String dso) {
    long ip = address(symbol, dso);
    append('\t');
    String hex = Long.toHexString(ip);
    for (int i = hex.length(); i < 16; i++) {
      append(' ');
    }
    append(hex).append(' ').append(symbol).append(" (").append(dso).append(")\n");
  }

  private long address(String symbol, String dso) {
    String key = dso + '\0' + symbol;
    Long ip = addresses.get(key);
    if (ip == null) {
      if (dso.equals(KERNEL_DSO)) {
        ip = nextKernelIp;
        nextKernelIp += 0x1a3;
      } else {
        ip = nextUserIp.merge(dso, 0x1129L, (a, b) -> a + 0x47);
      }
      addresses.put(key, ip);
    }
    return ip;
  }

  private PerfTextSink append(String s) {
    int n = s.length();
    ensure(n);
    s.getChars(0, n, buf, len);
    len += n;
    return this;
  }

  private PerfTextSink append(char c) {
    ensure(1);
    buf[len++] = c;
    return this;
  }

  private PerfTextSink append(long v) {
    return append(Long.toString(v));
  }

  /** Right-aligned decimal (like %5d); wider numbers are printed in full. */
  private void padLeft(long v, int width) {
    String s = Long.toString(v);
    for (int i = s.length(); i < width; i++) {
      append(' ');
    }
    append(s);
  }

  /** Left-aligned decimal (like %-5d). */
  private void padRight(long v, int width) {
    String s = Long.toString(v);
    append(s);
    for (int i = s.length(); i < width; i++) {
      append(' ');
    }
  }

  /** Zero-padded decimal (like %09d) of a non-negative value, written without allocation. */
  private void pad0(long v, int width) {
    if (v >= POW10[width]) {
      append(Long.toString(v));
      return;
    }
    ensure(width);
    int end = len + width;
    for (int i = end - 1; i >= len; i--) {
      buf[i] = (char) ('0' + (v % 10));
      v /= 10;
    }
    len = end;
  }

  private void ensure(int n) {
    if (len + n > buf.length) {
      buf = java.util.Arrays.copyOf(buf, Math.max(buf.length * 2, len + n));
    }
  }

  private void maybeFlush() {
    if (len > (1 << 15)) {
      try {
        out.write(buf, 0, len);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      len = 0;
    }
  }
}
