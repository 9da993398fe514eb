package dev.loadprof.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.loadprof.model.Frame;
import dev.loadprof.model.ProcessKey;
import dev.loadprof.model.RunInfo;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The run's subject: the program perf started (perf record -- CMD), which the trace shows as
 * perf's child {@code perf-exec} exec'ing it, with every process that program started.
 */
class SubjectTest {
  private static final long MS = 1_000_000L;
  private static final Frame[] NO_STACK = new Frame[0];
  /** perf record's pid; its child, perf-exec, is 500. */
  private static final int PERF = 499;
  private static final int STUB = 500;

  private static BlockBuilder builder() {
    return new BlockBuilder("run", "t.txt", 10 * MS, null, blocks -> { });
  }

  /** perf's records of its child at the start (time 0), then the child's exec of CMD. */
  private static BlockBuilder perfStarted(String program) {
    BlockBuilder b = builder();
    b.fork(0, STUB, STUB, PERF, PERF);
    b.comm(0, 0, STUB, STUB, "perf-exec", false);
    b.sample(1 * MS, 0, STUB, STUB, "perf-exec", "cpu-clock", 250_000, NO_STACK);
    b.comm(2 * MS, 0, STUB, STUB, program, true);
    return b;
  }

  private static void sample(BlockBuilder b, long t, int pid, String comm) {
    b.sample(t, 1, pid, pid, comm, "cpu-clock", 250_000, NO_STACK);
  }

  @Test
  void theProgramPerfExecBecameIsTheSubjectWithWhatItStarted() {
    BlockBuilder b = perfStarted("prog");
    int prog = ProcessKey.of(STUB, 1);
    b.fork(3 * MS, STUB, 502, STUB, STUB); // a thread of prog: no process of its own
    b.fork(4 * MS, 501, 501, STUB, STUB); // a child process of prog
    b.comm(5 * MS, 1, 501, 501, "gzip", true); // which runs gzip: still prog's
    b.fork(6 * MS, 700, 700, 501, 501); // and a grandchild
    b.fork(7 * MS, 600, 600, 1, 1); // another process of the machine
    b.comm(7 * MS, 1, 600, 600, "cron", true);
    sample(b, 8 * MS, 600, "cron");
    RunInfo info = b.finish();
    assertEquals(prog, info.subjectPid);
    assertEquals("prog", info.processName(info.subjectPid));
    assertEquals(Set.of(prog, 501, ProcessKey.of(501, 1), 700), info.subjectPids);
    assertFalse(info.isSubject(STUB), "perf's stub before the exec is perf's, not the program");
    assertFalse(info.isSubject(600));
  }

  /** perf record -- sh -c 'exec ./prog': the program is the last one its pid ran. */
  @Test
  void aSubjectThatExecsAgainIsTheSubjectAsItsNewProgram() {
    BlockBuilder b = perfStarted("sh");
    b.comm(3 * MS, 0, STUB, STUB, "prog", true);
    RunInfo info = b.finish();
    assertEquals(ProcessKey.of(STUB, 2), info.subjectPid);
    assertEquals("prog", info.processName(info.subjectPid));
    assertEquals(new TreeSet<>(Set.of(ProcessKey.of(STUB, 1), ProcessKey.of(STUB, 2))),
        info.subjectPids);
  }

  /** Another perf record on the machine during a system-wide recording starts no subject. */
  @Test
  void onlyTheFirstPerfExecIsTheSubject() {
    BlockBuilder b = perfStarted("prog");
    b.fork(10 * MS, 800, 800, 799, 799);
    b.comm(10 * MS, 1, 800, 800, "perf-exec", false);
    b.comm(11 * MS, 1, 800, 800, "other", true);
    RunInfo info = b.finish();
    assertEquals(ProcessKey.of(STUB, 1), info.subjectPid);
    assertFalse(info.isSubject(ProcessKey.of(800, 1)));
  }

  @Test
  void aTraceThatDoesNotSayHasNoSubject() {
    // An exec of a process that was not perf's stub (perf record -a, or -p, without a command).
    BlockBuilder b = builder();
    b.comm(0, 0, STUB, STUB, "bash", false);
    b.comm(2 * MS, 0, STUB, STUB, "prog", true);
    sample(b, 3 * MS, STUB, "prog");
    RunInfo execOfAShell = b.finish();
    assertFalse(execOfAShell.hasSubject());
    assertEquals(Set.of(), execOfAShell.subjectPids);
    // perf script without --show-task-events, perf's child never sampled before its exec.
    BlockBuilder text = builder();
    text.sample(3 * MS, 0, STUB, STUB, "prog", "cpu-clock", 250_000, NO_STACK);
    RunInfo noTaskRecords = text.finish();
    assertFalse(noTaskRecords.hasSubject());
    assertEquals(RunInfo.NO_SUBJECT, noTaskRecords.subjectPid);
  }

  /**
   * perf script without --show-task-events, perf's child sampled before its exec: its samples
   * say perf-exec, then (its main thread) the program. Before, the process was named perf-exec.
   */
  @Test
  void samplesOfPerfExecThenOfTheProgramNameTheSubject() {
    BlockBuilder text = builder();
    text.sample(1 * MS, 0, STUB, STUB, "perf-exec", "cpu-clock", 250_000, NO_STACK);
    text.sample(3 * MS, 0, STUB, STUB, "prog", "cpu-clock", 250_000, NO_STACK);
    text.sample(4 * MS, 1, STUB, STUB + 1, "worker", "cpu-clock", 250_000, NO_STACK);
    text.sample(5 * MS, 1, 600, 600, "cron", "cpu-clock", 250_000, NO_STACK);
    RunInfo info = text.finish();
    assertEquals(STUB, info.subjectPid);
    assertEquals("prog", info.processName(STUB));
    assertEquals(Set.of(STUB), info.subjectPids);
    // A thread of another name first: the process keeps perf-exec's name until its main thread.
    BlockBuilder threadFirst = builder();
    threadFirst.sample(1 * MS, 0, STUB, STUB, "perf-exec", "cpu-clock", 250_000, NO_STACK);
    threadFirst.sample(3 * MS, 0, STUB, STUB + 1, "worker", "cpu-clock", 250_000, NO_STACK);
    assertFalse(threadFirst.finish().hasSubject());
  }

  @Test
  void theSubjectSurvivesACopy() {
    RunInfo info = perfStarted("prog").finish();
    RunInfo copy = info.copy();
    assertEquals(info, copy);
    copy.subjectPids.clear();
    assertEquals(1, info.subjectPids.size(), "a deep copy");
  }
}
