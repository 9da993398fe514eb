package dev.loadprof.perfdata.symbols;

import dev.loadprof.model.Frame;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Turns a callchain address into the frame {@code perf script -F ip,sym,dso} prints for it, from
 * the processes' memory maps (fed from the MMAP, FORK and COMM-exec records in time order) and the
 * symbols of the mapped objects, the kernel (kallsyms) and JIT maps (perf-PID.map).
 *
 * <p>Each distinct (address space, address) is resolved once; each object's symbol table is read
 * once and shared by all processes that map it. Printed addresses follow perf: relative to the
 * object (ip - map start + file offset) for files, absolute for the kernel, JIT code, anonymous
 * memory and addresses outside every map. Safe to call from several threads.
 *
 * <p>Give {@link #mmap} the build ids the recording holds (MMAP2 records, or the header's build-id
 * table, at their real length: 20 bytes for SHA-1); without one, the object on disk gives its
 * own, as perf does. Close the symbolizer to end its c++filt process.
 */
public final class Symbolizer implements AutoCloseable {
  static final String UNKNOWN = "[unknown]";
  static final String KERNEL_DSO = "[kernel.kallsyms]";

  private final SymbolSources sources;
  private final ObjectFiles objects;
  private final Demangler demangler;
  private final ConcurrentHashMap<Integer, AddressSpace> spaces = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Integer, SymbolTable> perfMaps = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Long, Frame> kernelFrames = new ConcurrentHashMap<>();
  private final List<AddressSpace.Mapping> kernelMaps = new CopyOnWriteArrayList<>();
  private volatile KernelSymbols.Loaded kernel;
  private volatile boolean preloading;

  public Symbolizer(SymbolSources sources) {
    this(sources, new Demangler());
  }

  Symbolizer(SymbolSources sources, Demangler demangler) {
    this.sources = sources;
    this.objects = new ObjectFiles(sources, demangler);
    this.demangler = demangler;
  }

  /**
   * A mapping of {@code filename} at [start, start+length) from file offset {@code pgoff}; pid -1
   * for the kernel's maps ("[kernel.kallsyms]_text" and module files). {@code buildId} may be null.
   */
  public void mmap(int pid, long start, long length, long pgoff, String filename, byte[] buildId) {
    String id = buildId == null || buildId.length == 0 ? null : HexFormat.of().formatHex(buildId);
    AddressSpace.Mapping mapping =
        new AddressSpace.Mapping(start, start + length, pgoff, filename, id);
    if (pid == -1) {
      kernelMaps.add(mapping);
      kernelFrames.clear();
      if (filename.startsWith(KERNEL_DSO)) {
        preloadKernelSymbols();
      }
      return;
    }
    spaces.computeIfAbsent(pid, p -> new AddressSpace()).add(mapping);
  }

  /** A new process: it starts with its parent's maps. A new thread (same pid) changes nothing. */
  public void fork(int parentPid, int childPid) {
    if (parentPid == childPid) {
      return;
    }
    AddressSpace parent = spaces.get(parentPid);
    spaces.put(childPid, parent == null ? new AddressSpace() : new AddressSpace(parent));
  }

  /**
   * An exec. perf 6.1 keeps the old image's maps until the new image's MMAP records cover them
   * (a sample in execve's return path still resolves in the old libc), and so does this.
   */
  public void exec(int pid) {
    spaces.computeIfAbsent(pid, p -> new AddressSpace());
  }

  /** The frame perf script prints for {@code address} of process {@code pid}. */
  public Frame frame(int pid, long address, boolean kernel) {
    if (kernel) {
      return kernelFrames.computeIfAbsent(address, this::kernelFrame);
    }
    AddressSpace space = spaces.get(pid);
    if (space == null) {
      return new Frame(UNKNOWN, UNKNOWN, address);
    }
    Frame known = space.frames().get(address);
    if (known != null) {
      return known;
    }
    Frame frame = userFrame(pid, space.find(address), address);
    space.frames().putIfAbsent(address, frame);
    return frame;
  }

  private Frame userFrame(int pid, AddressSpace.Mapping map, long address) {
    if (map == null) {
      return new Frame(UNKNOWN, UNKNOWN, address);
    }
    String file = map.filename();
    if (MapKinds.isAnonymous(file)) {
      String jitMap = sources.perfMapDir().resolve("perf-" + pid + ".map").toString();
      SymbolTable table = perfMaps.computeIfAbsent(pid,
          p -> PerfMaps.load(sources.perfMapDir().resolve("perf-" + p + ".map")));
      return new Frame(nameAt(table, address, false), jitMap, address);
    }
    if (MapKinds.hasNoObject(file)) {
      return new Frame(UNKNOWN, file, address);
    }
    long offset = address - map.start() + map.pgoff();
    SymbolTable table = MapKinds.isVdso(file) ? objects.vdsoTable(map.buildId())
        : objects.table(file, map.buildId());
    return new Frame(nameAt(table, offset, true), file, offset);
  }

  private Frame kernelFrame(long address) {
    KernelSymbols.Loaded loaded = kernelSymbols();
    String dso = kernelDso(address);
    return new Frame(nameAt(loaded.table(), address, false), dso, address);
  }

  /**
   * The kernel map's name as perf prints it: [kernel.kallsyms], or [module] for a module file.
   * As in perf, the kernel's own map reaches to the next kernel map (or the end of memory), past
   * the length its MMAP record gives: .init.text lies beyond _etext.
   */
  private String kernelDso(long address) {
    if (kernelMaps.isEmpty()) {
      return KERNEL_DSO;
    }
    AddressSpace.Mapping holder = null;
    for (AddressSpace.Mapping map : kernelMaps) {
      if (Long.compareUnsigned(address, map.start()) >= 0
          && (holder == null || Long.compareUnsigned(map.start(), holder.start()) > 0)) {
        holder = map;
      }
    }
    if (holder == null) {
      return UNKNOWN;
    }
    boolean kernelItself = holder.filename().startsWith(KERNEL_DSO);
    return kernelItself || Long.compareUnsigned(address, holder.end()) < 0
        ? MapKinds.kernelDsoName(holder.filename()) : UNKNOWN;
  }

  /**
   * Starts reading the kernel's symbols (kallsyms: ~0.15 s) on a thread of its own once the
   * kernel's map is known, so that the first kernel frame rarely waits for them; a frame that
   * comes first waits for the one load.
   */
  private void preloadKernelSymbols() {
    if (kernel != null || preloading) {
      return;
    }
    preloading = true;
    Thread t = new Thread(() -> {
      try {
        kernelSymbols();
      } catch (RuntimeException e) {
        // the first kernel frame loads them again and meets the failure itself
      }
    }, "loadprof-kallsyms");
    t.setDaemon(true);
    t.start();
  }

  private KernelSymbols.Loaded kernelSymbols() {
    KernelSymbols.Loaded loaded = kernel;
    if (loaded == null) {
      synchronized (this) {
        if (kernel == null) {
          kernel = KernelSymbols.load(KernelSources.kallsymsFor(sources, kernelBuildId()));
        }
        loaded = kernel;
      }
    }
    return loaded;
  }

  private String kernelBuildId() {
    for (AddressSpace.Mapping map : kernelMaps) {
      if (map.filename().startsWith(KERNEL_DSO) && map.buildId() != null) {
        return map.buildId();
      }
    }
    return null;
  }

  private String nameAt(SymbolTable table, long address, boolean demangle) {
    int index = table.find(address);
    if (index < 0) {
      return UNKNOWN;
    }
    return demangle ? demangler.demangle(table.name(index)) : table.name(index);
  }

  /** Why kernel frames have no names (kptr_restrict, no kallsyms), or null when they have them. */
  public String kernelSymbolProblem() {
    return kernelSymbols().problem();
  }

  /** Names left mangled because c++filt could not be run. */
  public long namesLeftMangled() {
    return demangler.unavailable();
  }

  @Override
  public void close() {
    demangler.close();
  }
}
