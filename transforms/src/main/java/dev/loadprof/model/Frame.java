package dev.loadprof.model;

import java.io.Serializable;

/**
 * One stack frame as perf prints it: the symbol ("[unknown]" when perf could not resolve it) and
 * the object it lives in ("[kernel.kallsyms]", "/usr/lib/.../libc.so.6"). Readers intern frames so
 * that equal frames are usually the same instance.
 */
public record Frame(String symbol, String dso) implements Serializable {
  public Frame {
    symbol = symbol == null || symbol.isEmpty() ? "[unknown]" : symbol;
    dso = dso == null ? "" : dso;
  }

  /** "symbol" for frames whose object is unknown, else "symbol (dso)"; the form perf prints. */
  @Override
  public String toString() {
    return dso.isEmpty() ? symbol : symbol + " (" + dso + ")";
  }
}
