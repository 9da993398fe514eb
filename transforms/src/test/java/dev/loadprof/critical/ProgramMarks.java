package dev.loadprof.critical;

import dev.loadprof.model.CallStack;
import dev.loadprof.model.Frame;
import dev.loadprof.model.ThreadState;
import dev.loadprof.wall.ThreadMarks;
import dev.loadprof.wall.ThreadStates;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A program's marks for the critical path's tests, written as what each thread did (times in
 * ms; a sample each 0.25 ms of a run): process 100, main thread 100.
 */
public final class ProgramMarks {
  static final long MS = 1_000_000L;
  static final int PID = 100;

  final ThreadMarks marks = new ThreadMarks();
  final Map<Integer, long[]> forks = new HashMap<>();
  long end;

  /** tid ran [a, b) ms in function f (a sample each ms), called from root. */
  public ProgramMarks run(int tid, double a, double b, String f, String root) {
    marks.addRun(tid, ms(a), ms(b), tid % 4, ms(a), 0, 0, -1);
    CallStack s = new CallStack(new Frame[] {new Frame(f, "/bin/prog"),
        new Frame(root, "/bin/prog")});
    for (long t = ms(a); t < ms(b); t += MS / 4) {
      marks.addSample(tid, t + MS / 8, s);
    }
    end = Math.max(end, ms(b));
    return this;
  }

  /** tid ran [a, b): its first half in f, its second in g. */
  public ProgramMarks run2(int tid, double a, double b, String f, String g, String root) {
    double mid = (a + b) / 2;
    run(tid, a, mid, f, root);
    marks.addRun(tid, ms(mid), ms(b), tid % 4, ms(mid), 0, 0, -1);
    CallStack s = new CallStack(new Frame[] {new Frame(g, "/bin/prog"),
        new Frame(root, "/bin/prog")});
    for (long t = ms(mid); t < ms(b); t += MS / 4) {
      marks.addSample(tid, t + MS / 8, s);
    }
    end = Math.max(end, ms(b));
    return this;
  }

  /** tid left its CPU at t in state (S, D, X) with the leaf frame where. */
  public ProgramMarks out(int tid, double t, char state, String where) {
    int code = state == 'X' ? ThreadState.EXITED : ThreadState.codeOfPrevState(String.valueOf(state));
    marks.addOut(tid, ms(t), code, where == null ? null
        : new CallStack(new Frame[] {new Frame(where, "[kernel.kallsyms]")}));
    return this;
  }

  public ProgramMarks wake(int tid, double t, int wakerPid, int wakerTid) {
    marks.addWake(tid, ms(t), wakerPid, wakerTid);
    return this;
  }

  public ProgramMarks fork(int tid, double t, int creator) {
    forks.put(tid, new long[] {ms(t), creator});
    return this;
  }

  public CriticalPath path(List<WhatIfRequest> whatIfs) {
    return path(whatIfs, true);
  }

  /** The path, as from a recording with wake-up records (hasWakers) or without. */
  public CriticalPath path(List<WhatIfRequest> whatIfs, boolean hasWakers) {
    marks.noteEnd(end);
    ThreadStates.Replayed r = ThreadStates.replay(marks, end);
    return CriticalPaths.compute(new CriticalPaths.Input(r, 0, end, PID, "prog",
        pid -> pid == 7 ? "noise" : "pid " + pid, forks, hasWakers, whatIfs, List.of()));
  }

  public static long ms(double v) {
    return Math.round(v * MS);
  }
}
