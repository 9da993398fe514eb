package dev.loadprof.perfdata.symbols;

import java.nio.file.Files;
import java.nio.file.Path;

/** Which kallsyms file holds the recorded kernel's symbols. */
final class KernelSources {
  private KernelSources() {}

  /**
   * The build-id cache's copy for the recorded kernel (perf record saves it as
   * [kernel.kallsyms]/ID/kallsyms) when there is one, since it is that kernel's for certain; else
   * the configured kallsyms (the running kernel's).
   */
  static Path kallsymsFor(SymbolSources sources, String kernelBuildId) {
    if (kernelBuildId != null) {
      Path cached = sources.buildIdCache().resolve(Symbolizer.KERNEL_DSO).resolve(kernelBuildId)
          .resolve("kallsyms");
      if (Files.isReadable(cached)) {
        return cached;
      }
    }
    return sources.kallsyms();
  }
}
