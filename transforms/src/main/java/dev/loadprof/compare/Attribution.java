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
 * @param cause cpu when the CPU part is at least twice the load part in size, parallelism when
 *     the load part is at least twice the CPU part, both otherwise
 */
public record Attribution(double cpuPartNs, double parallelismPartNs, Cause cause) {
  /** A part must be at least this many times the other to take the whole cause. */
  public static final double DOMINANCE = 2;

  public enum Cause {
    CPU("cpu"),
    PARALLELISM("parallelism"),
    BOTH("both");

    public final String id;

    Cause(String id) {
      this.id = id;
    }
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
    return new Attribution(cpuPart, loadPart, cause);
  }
}
