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

  /**
   * The value a record's own hashCode gives (each component's hash, combined by 31), written out:
   * the record's is a method-handle chain that C1 does not inline, and stacks hash every frame.
   */
  @Override
  public int hashCode() {
    return (symbol.hashCode() * 31 + dso.hashCode()) * 31 + Long.hashCode(address);
  }

  @Override
  public boolean equals(Object o) {
    return o == this || o instanceof Frame f && address == f.address && symbol.equals(f.symbol)
        && dso.equals(f.dso);
  }

  /** "symbol" for frames whose object is unknown, else "symbol (dso)"; the form perf prints. */
  @Override
  public String toString() {
    return dso.isEmpty() ? symbol : symbol + " (" + dso + ")";
  }
}
