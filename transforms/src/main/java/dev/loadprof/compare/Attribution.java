package dev.loadprof.compare;

/**
 * A real-time change split by real = CPU / load into the part due to CPU work and the part due
 * to the load, exactly: real_c - real_b = (cpu_c - cpu_b) / load_b + cpu_c (1/load_c - 1/load_b).
 *
 * <p>Medians are taken per side of the real time and the CPU time, and the load of a side is the
 * one they imply, load = median CPU / median real, so the two parts add up exactly to the change
 * of the median real times that the tables show. When the baseline has no CPU time (a new
 * function), all of the change is CPU work.
 *
 * <p>The load part is split further by the thread states where the runs have them: the change
 * of the time the process's runnable threads waited for CPUs that other processes held
 * (interference) is the part of the load part that is not the code's doing.
 *
 * @param cause cpu when the CPU part is at least twice the load part in size, parallelism when
 *     the load part is at least twice the CPU part, both otherwise; interference when the
 *     interference part is, in the change's direction, at least half of the change
 * @param interferencePartNs of the load part, the change of the wait for other processes'
 *     CPUs; NaN when the runs do not tell (no thread states, per-process recordings)
 * @param oversubscriptionPartNs of the load part, the change of the wait for CPUs the
 *     process's own threads held (more runnable threads than CPUs); NaN likewise. The rest of
 *     the load part, {@link #waitsPartNs()}, is the code's own: threads sleeping, on disk or
 *     not there where they ran in parallel before.
 * @param critical the function whose time on the critical path changed most the change's way,
 *     where every run of both sides has a critical path; null otherwise (a column beside the
 *     cause: it says which code the change of the path is in, not why)
 */
public record Attribution(double cpuPartNs, double parallelismPartNs, Cause cause,
    double interferencePartNs, double oversubscriptionPartNs, CriticalChange critical) {
  /** A part must be at least this many times the other to take the whole cause. */
  public static final double DOMINANCE = 2;
  /** Interference takes the cause when it is at least this share of the change. */
  public static final double INTERFERENCE_SHARE = 0.5;

  public enum Cause {
    CPU("cpu"),
    PARALLELISM("parallelism"),
    BOTH("both"),
    /** Most of the change is time waiting for CPUs other processes held: not the code. */
    INTERFERENCE("interference"),
    /**
     * A function of a process slowed by interference, whose own CPU time grew while the
     * process's did not: CPU time moved between the process's functions (preemption moves where
     * cpu-clock samples land), not more work, so, as interference, not the code's doing. Its
     * parts say CPU; the name says where that CPU came from.
     */
    MOVED("moved");

    public final String id;

    Cause(String id) {
      this.id = id;
    }
  }

  /**
   * The change of a function's time on the critical path (medians per side; a run whose path
   * does not pass through the function counts 0), and the change of the path's length.
   *
   * @param function null when no function's time on the path changed the change's way
   * @param own whether the function is the row's own (a function's row), not the one named
   *     for its process
   */
  public record CriticalChange(String function, double functionChangeNs, double pathChangeNs,
      boolean own) {}

  public Attribution(double cpuPartNs, double parallelismPartNs, Cause cause,
      double interferencePartNs, double oversubscriptionPartNs) {
    this(cpuPartNs, parallelismPartNs, cause, interferencePartNs, oversubscriptionPartNs, null);
  }

  public static Attribution of(double realB, double cpuB, double realC, double cpuC) {
    double change = realC - realB;
    double cpuPart = cpuB <= 0 || realB <= 0 ? change : (cpuC - cpuB) * realB / cpuB;
    double loadPart = change - cpuPart; // = cpuC * (1/loadC - 1/loadB), by the identity
    Cause cause;
    if (Math.abs(cpuPart) >= DOMINANCE * Math.abs(loadPart)) {
      cause = Cause.CPU;
    } else if (Math.abs(loadPart) >= DOMINANCE * Math.abs(cpuPart)) {
      cause = Cause.PARALLELISM;
    } else {
      cause = Cause.BOTH;
    }
    return new Attribution(cpuPart, loadPart, cause, Double.NaN, Double.NaN);
  }

  public Attribution(double cpuPartNs, double parallelismPartNs, Cause cause) {
    this(cpuPartNs, parallelismPartNs, cause, Double.NaN, Double.NaN);
  }

  /** The load part that is neither interference nor oversubscription; NaN when not known. */
  public double waitsPartNs() {
    return parallelismPartNs - interferencePartNs - oversubscriptionPartNs;
  }

  /**
   * This attribution with the interference part known: the cause becomes interference when
   * that part goes the change's way and is at least half of it, and the CPU work alone does not
   * explain the change.
   *
   * @param interferenceNs the change of the medians of the interference figure
   * @param oversubscriptionNs the change of the medians of the wait for own threads' CPUs
   */
  public Attribution withInterference(double interferenceNs, double oversubscriptionNs) {
    double change = cpuPartNs + parallelismPartNs;
    boolean dominant = change != 0 && Math.signum(interferenceNs) == Math.signum(change)
        && Math.abs(interferenceNs) >= INTERFERENCE_SHARE * Math.abs(change);
    Cause c = dominant && cause != Cause.CPU ? Cause.INTERFERENCE : cause;
    return new Attribution(cpuPartNs, parallelismPartNs, c, interferenceNs, oversubscriptionNs,
        critical);
  }

  public boolean isInterference() {
    return cause == Cause.INTERFERENCE;
  }

  /** The same parts, the cause moved (CPU moved between an interfered process's functions). */
  public Attribution asMoved() {
    return new Attribution(cpuPartNs, parallelismPartNs, Cause.MOVED, interferencePartNs,
        oversubscriptionPartNs, critical);
  }

  /** The same attribution naming where on the critical path the change is. */
  public Attribution withCritical(CriticalChange c) {
    return new Attribution(cpuPartNs, parallelismPartNs, cause, interferencePartNs,
        oversubscriptionPartNs, c);
  }

  /** Interference, or CPU moved by it between functions: the machine, not the code. */
  public boolean isFromInterference() {
    return cause == Cause.INTERFERENCE || cause == Cause.MOVED;
  }
}
