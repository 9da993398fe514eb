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
 * <p>Maps change in record order on one thread; frames may be resolved later on others, each
 * against the maps of a {@link #view} taken at its record's place in that order.
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
  private volatile KernelMaps kernelMaps = new KernelMaps(List.of());
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
      KernelMaps k = kernelMaps;
      if (k.shared) {
        k = new KernelMaps(k.maps);
        kernelMaps = k;
      }
      k.maps.add(mapping);
      k.frames.clear();
      if (filename.startsWith(KERNEL_DSO)) {
        preloadKernelSymbols();
      }
      return;
    }
    spaces.compute(pid, (p, old) -> (old == null ? new AddressSpace() : old).with(mapping));
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

  /**
   * The maps of process {@code pid} and of the kernel as they are now, for frames resolved later
   * (on any thread) as they would have been now: maps added from now on do not change them.
   */
  public View view(int pid) {
    AddressSpace space = spaces.get(pid);
    KernelMaps k = kernelMaps;
    k.shared = true;
    return new View(pid, space == null ? null : space.share(), k);
  }

  /** The maps one record's frames are resolved in (see {@link #view}); only frame() reads them. */
  public record View(int pid, AddressSpace space, KernelMaps kernel) {}

  /** The kernel's maps and the frames resolved in them; copied when changed once shared. */
  private static final class KernelMaps {
    final List<AddressSpace.Mapping> maps;
    final ConcurrentHashMap<Long, Frame> frames = new ConcurrentHashMap<>();
    /** Set and read by the one thread that adds maps. */
    boolean shared;

    KernelMaps(List<AddressSpace.Mapping> from) {
      maps = new CopyOnWriteArrayList<>(from);
    }
  }

  /** The frame perf script prints for {@code address} of process {@code pid}, with its maps now. */
  public Frame frame(int pid, long address, boolean kernel) {
    return kernel ? kernelFrame(kernelMaps, address) : spaceFrame(pid, spaces.get(pid), address);
  }

  /** The frame perf script prints for {@code address} in the maps of {@code view}. */
  public Frame frame(View view, long address, boolean kernel) {
    return kernel ? kernelFrame(view.kernel(), address)
        : spaceFrame(view.pid(), view.space(), address);
  }

  private Frame spaceFrame(int pid, AddressSpace space, long address) {
    if (space == null) {
      return new Frame(UNKNOWN, UNKNOWN, address);
    }
    Frame known = space.frames().get(address);
    if (known != null) {
      return known;
    }
    Frame frame = userFrame(pid, space.find(address), address);
    Frame first = space.frames().putIfAbsent(address, frame);
    return first != null ? first : frame;
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

  private Frame kernelFrame(KernelMaps k, long address) {
    Frame known = k.frames.get(address);
    if (known != null) {
      return known;
    }
    KernelSymbols.Loaded loaded = kernelSymbols();
    String dso = kernelDso(k.maps, address);
    Frame frame = new Frame(nameAt(loaded.table(), address, false), dso, address);
    Frame first = k.frames.putIfAbsent(address, frame);
    return first != null ? first : frame;
  }

  /**
   * The kernel map's name as perf prints it: [kernel.kallsyms], or [module] for a module file.
   * As in perf, the kernel's own map reaches to the next kernel map (or the end of memory), past
   * the length its MMAP record gives: .init.text lies beyond _etext.
   */
  private static String kernelDso(List<AddressSpace.Mapping> kernelMaps, long address) {
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
      } catch (RuntimeException | Error e) {
        // The first kernel frame loads them again and meets the failure itself: out of heap
        // too, then in the job's own thread, which says it in one line (no stack trace here).
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
    for (AddressSpace.Mapping map : kernelMaps.maps) {
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
