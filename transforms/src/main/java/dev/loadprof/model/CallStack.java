package dev.loadprof.model;

import java.io.Serializable;
import java.util.Arrays;

/**
 * A call stack as a value, leaf first: equal frames in the same order make equal stacks. The
 * hash is computed once, because stacks are map keys on every sample's path.
 */
public final class CallStack implements Serializable {
  private final Frame[] frames;
  private final int hash;

  /** Takes the array as it is: callers hand over a stack they no longer change. */
  public CallStack(Frame[] frames) {
    this.frames = frames;
    this.hash = Arrays.hashCode(frames);
  }

  /** The frames, leaf first; not to be modified. */
  public Frame[] frames() {
    return frames;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CallStack s && hash == s.hash && Arrays.equals(frames, s.frames);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    return Arrays.toString(frames);
  }
}
