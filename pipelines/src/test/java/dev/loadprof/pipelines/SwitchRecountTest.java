package dev.loadprof.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loadprof.pipelines.SwitchRecount.Counts;
import dev.loadprof.pipelines.SwitchRecount.State;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

/** The independent recount itself, on hand-written traces whose answer is worked out below. */
class SwitchRecountTest {
  private static final double NS = 1e-9;

  private static Counts count(String text, int pid) throws IOException {
    return SwitchRecount.count(new BufferedReader(new StringReader(text)), pid);
  }

  /**
   * Thread 100 sleeps 0.10 s, is woken and waits 0.05 s for the CPU, runs, waits 0.10 s on
   * disk, runs to the end. Thread 101 runs, is preempted and waits 0.10 s (its switch-in lost:
   * its next sample ends the wait), runs and exits. Thread 102 appears by a sample and goes to
   * sleep until the end (open). A process 200 and frame lines are ignored.
   */
  @Test
  void systemWideSwitchesSplitBySleepDiskRunnableAndWakeup() throws IOException {
    String trace = """
        # a perf header comment
        t 100/100 [000] 1.000000000:          1 sched:sched_switch: prev_comm=t prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=t next_pid=101 next_prio=120
        \tffffffff82265ec8 __schedule ([kernel.kallsyms])
        \t            1234 doze (/x/t)

        hog 200/200 [001] 1.050000000:          1 sched:sched_switch: prev_comm=hog prev_pid=200 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
        t 100/101 [000] 1.100000000:          1 sched:sched_wakeup: comm=t pid=100 prio=120 target_cpu=000
        t 100/101 [000] 1.150000000:          1 sched:sched_switch: prev_comm=t prev_pid=101 prev_prio=120 prev_state=R+ ==> next_comm=t next_pid=100 next_prio=120
        t 100/100 [000] 1.200000000:          1 sched:sched_switch: prev_comm=t prev_pid=100 prev_prio=120 prev_state=D ==> next_comm=hog next_pid=200 next_prio=120
        t 100/101 [001] 1.250000000:    4000000 cpu-clock: \n\
        \t            1234 busy (/x/t)

        hog 200/200 [000] 1.300000000:          1 sched:sched_switch: prev_comm=hog prev_pid=200 prev_prio=120 prev_state=R ==> next_comm=t next_pid=100 next_prio=120
        :-1 100/-1 [001] 1.400000000:          1 sched:sched_switch: prev_comm=t prev_pid=101 prev_prio=120 prev_state=X ==> next_comm=swapper/1 next_pid=0 next_prio=120
        t 100/102 [001] 1.420000000:    4000000 cpu-clock: \n\
        t 100/102 [001] 1.450000000:          1 sched:sched_switch: prev_comm=t prev_pid=102 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
        t 100/100 [000] 1.500000000:    4000000 cpu-clock: \n\
        hog 200/200 [000] 1.600000000:    4000000 cpu-clock: \n\
        """;
    Counts c = count(trace, 100);
    assertEquals(0.5, c.spanSeconds(), NS);
    assertEquals(0.10 + 0.05, c.seconds(State.SLEEPING), NS); // 100 before its wakeup; 102 open
    assertEquals(0.05 + 0.10, c.seconds(State.RUNNABLE), NS); // 100 after the wakeup; 101
    assertEquals(0.10, c.seconds(State.DISK), NS);
    assertEquals(0, c.seconds(State.OTHER), NS);
    assertEquals(0, c.seconds(State.UNKNOWN), NS);
    // lives 0.5 + 0.4 + 0.08 = 0.98 thread-seconds, of which 0.40 waits
    assertEquals(0.58, c.seconds(State.RUNNING), NS);
  }

  @Test
  void perProcessSwitchEventsArePreemptedOrUnknown() throws IOException {
    String trace = """
        p 300/300 [000] 2.000000000: PERF_RECORD_SWITCH OUT preempt  next pid/tid:     0/0
        p 300/300 [001] 2.010000000: PERF_RECORD_SWITCH IN
        p 300/300 [001] 2.020000000: PERF_RECORD_SWITCH OUT
        p 300/300 [001] 2.050000000:     250000 cpu-clock:u: \n\
        \t            142b produce (/x/p)
        """;
    Counts c = count(trace, 300);
    assertEquals(0.05, c.spanSeconds(), NS);
    assertEquals(0.01, c.seconds(State.RUNNABLE), NS);
    assertEquals(0.03, c.seconds(State.UNKNOWN), NS);
    assertEquals(0.01, c.seconds(State.RUNNING), NS);
    assertEquals(0, c.seconds(State.SLEEPING), NS);
  }
}
