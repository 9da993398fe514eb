package dev.loadprof.perfdata.symbols;

/** What kind of memory a mapping's file name stands for, by perf's rules (util/map.c). */
final class MapKinds {
  private MapKinds() {}

  /** Anonymous memory: JIT code, whose symbols come from perf-PID.map. */
  static boolean isAnonymous(String filename) {
    return filename.equals("//anon") || filename.startsWith("/dev/zero")
        || filename.startsWith("/anon_hugepage");
  }

  /** Memory without an object (stack, heap, SysV shared memory): printed by name, no symbols. */
  static boolean hasNoObject(String filename) {
    return filename.startsWith("[stack") || filename.startsWith("/SYSV")
        || filename.equals("[heap]");
  }

  static boolean isVdso(String filename) {
    return filename.equals("[vdso]");
  }

  /**
   * A kernel map's name as perf script prints it: "[kernel.kallsyms]" for the kernel's own maps
   * ("[kernel.kallsyms]_text"), "[name]" for a module file (dashes become underscores, as module
   * names do), the name itself otherwise.
   */
  static String kernelDsoName(String filename) {
    if (filename.startsWith(Symbolizer.KERNEL_DSO)) {
      return Symbolizer.KERNEL_DSO;
    }
    if (filename.startsWith("[")) {
      return filename;
    }
    String base = filename.substring(filename.lastIndexOf('/') + 1);
    int ko = base.indexOf(".ko");
    if (ko > 0) {
      return "[" + base.substring(0, ko).replace('-', '_') + "]";
    }
    return filename;
  }
}
