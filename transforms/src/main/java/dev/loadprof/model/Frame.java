package dev.loadprof.model;

import java.io.Serializable;

/**
 * One stack frame as perf prints it: the symbol ("[unknown]" when perf could not resolve it), the
 * object it lives in ("[kernel.kallsyms]", "/usr/lib/.../libc.so.6") and the instruction address
 * perf printed before them. In callchains perf prints user-space addresses relative to the object
 * (what objdump shows for it) and kernel addresses as they are; 0 when the trace had none. Readers
 * intern frames so that equal frames are usually the same instance.
 */
public record Frame(String symbol, String dso, long address) implements Serializable {
  public Frame {
    symbol = symbol == null || symbol.isEmpty() ? "[unknown]" : symbol;
    dso = dso == null ? "" : dso;
  }

  /** A frame without an address. */
  public Frame(String symbol, String dso) {
    this(symbol, dso, 0);
  }

  /** "symbol" for frames whose object is unknown, else "symbol (dso)"; the form perf prints. */
  @Override
  public String toString() {
    return dso.isEmpty() ? symbol : symbol + " (" + dso + ")";
  }
}
