package dev.loadprof.compare;

/** Which side of a comparison a run is on. */
public enum Side {
  BASELINE,
  CANDIDATE
}
