package dev.loadprof.model;

/**
 * What a thread is doing at an instant, as the scheduler tells it: the compact code a switch
 * record keeps for the thread it switches out ({@link #code}), and the states of the whole-wall
 * view. A switch-out's code says why the thread left its CPU: preempted (still runnable),
 * sleeping (S), in uninterruptible wait (D, mostly disk), something else (stopped, dead, parked,
 * idle kernel threads), or unknown (the trace does not say).
 */
public enum ThreadState {
  RUNNING("running"),
  RUNNABLE("runnable"),
  SLEEPING("sleeping"),
  DISK("disk"),
  OTHER("other"),
  UNKNOWN("unknown");

  /**
   * The code of a thread switched out dead (prev_state X or Z): it waits for nothing, so its
   * time ends at that switch. Reads as {@link #OTHER}.
   */
  public static final int EXITED = 6;

  /** The code of a switch record that switches out no thread, or of an archive that has none. */
  public static final int NO_STATE = TraceEventSink.UNKNOWN_ID;

  private static final ThreadState[] BY_CODE = values();

  /** The name used in outputs (summary.json keys, pprof labels, folded leaf frames). */
  public final String label;

  ThreadState(String label) {
    this.label = label;
  }

  /** The code stored in a switch record's state column. */
  public int code() {
    return ordinal();
  }

  /** The state of a code; {@link #UNKNOWN} for {@link #NO_STATE} or a code it does not know. */
  public static ThreadState ofCode(int code) {
    if (code == EXITED) {
      return OTHER;
    }
    return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : UNKNOWN;
  }

  /**
   * The code of sched_switch's prev_state as perf prints it: "R" and "R+" are preempted
   * (runnable), "S" sleeping, "D" (alone or with flags, "D|K") disk, "X"/"Z" {@link #EXITED}, other letters other, and a
   * missing or empty state unknown.
   */
  public static int codeOfPrevState(String prevState) {
    if (prevState == null || prevState.isEmpty()) {
      return UNKNOWN.code();
    }
    return switch (prevState.charAt(0)) {
      case 'R' -> RUNNABLE.code();
      case 'S' -> SLEEPING.code();
      case 'D' -> DISK.code();
      case 'X', 'Z' -> EXITED;
      default -> OTHER.code();
    };
  }
}
