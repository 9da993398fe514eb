package dev.loadprof.perfdata.symbols;

import java.nio.file.Path;

/**
 * Where symbols come from, as perf script looks for them: {@code root} is prefixed to every object
 * path (perf's --symfs; "/" on the live machine, and also holds usr/lib/debug), {@code
 * buildIdCache} is perf's build-id cache (~/.debug), {@code kallsyms} the kernel's symbol list and
 * {@code perfMapDir} the directory of JIT maps (perf-PID.map).
 */
public record SymbolSources(Path root, Path buildIdCache, Path kallsyms, Path perfMapDir) {
  /** The live machine's places: "/", ~/.debug, /proc/kallsyms and /tmp. */
  public static SymbolSources live() {
    return new SymbolSources(Path.of("/"), Path.of(System.getProperty("user.home"), ".debug"),
        Path.of("/proc/kallsyms"), Path.of("/tmp"));
  }

  /** {@code objectPath} (absolute, as an MMAP record names it) under {@code root}. */
  Path underRoot(String objectPath) {
    return root.resolve(objectPath.startsWith("/") ? objectPath.substring(1) : objectPath);
  }
}
