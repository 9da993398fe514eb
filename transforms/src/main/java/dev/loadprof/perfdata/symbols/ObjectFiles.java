package dev.loadprof.perfdata.symbols;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The symbol table of each mapped object, read once and shared by every process that maps it.
 * The file is chosen as perf does (util/symbol.c, dso__load): the build-id cache's copy and its
 * debug file, the distribution's debug files under usr/lib/debug (by build id and by path), then
 * the file on disk; a candidate whose build id differs from the recorded one is skipped (so a
 * rebuilt binary is read from the cache), the first with a .symtab wins, else the first with a
 * .dynsym.
 */
final class ObjectFiles {
  private record Key(String path, String buildId) {}

  private final SymbolSources sources;
  private final Demangler demangler;
  private final ConcurrentHashMap<Key, SymbolTable> tables = new ConcurrentHashMap<>();

  ObjectFiles(SymbolSources sources, Demangler demangler) {
    this.sources = sources;
    this.demangler = demangler;
  }

  /** The symbols of {@code path} (as the MMAP record names it), {@code buildId} hex or null. */
  SymbolTable table(String path, String buildId) {
    return tables.computeIfAbsent(new Key(path, buildId), key -> load(key.path(), key.buildId()));
  }

  /** The symbols of the vdso, which exists only in the build-id cache. */
  SymbolTable vdsoTable(String recordedBuildId) {
    // A pipe-mode recording names no build ids; perf then takes its own vdso, this machine's:
    // the one the build-id cache holds, when it holds one only.
    String buildId = recordedBuildId != null ? recordedBuildId : onlyCachedVdso();
    if (buildId == null) {
      return SymbolTable.EMPTY;
    }
    return tables.computeIfAbsent(new Key("[vdso]", buildId), key -> {
      List<Path> candidates = new ArrayList<>(buildIdCacheCandidates(buildId));
      candidates.add(sources.buildIdCache().resolve("[vdso]").resolve(buildId).resolve("vdso"));
      return choose(candidates, buildId, null, null);
    });
  }

  private String onlyCachedVdso() {
    String[] ids = sources.buildIdCache().resolve("[vdso]").toFile().list();
    return ids != null && ids.length == 1 ? ids[0] : null;
  }

  private SymbolTable load(String path, String recordedBuildId) {
    String buildId = recordedBuildId;
    Path diskPath = sources.underRoot(path);
    ElfSymbols.Opened onDisk = ElfSymbols.open(diskPath);
    if (buildId == null && onDisk != null) {
      // as perf does when the recording has none (objects hit only inside callchains): the id
      // of the file on disk, to find its debug files
      buildId = onDisk.buildId();
    }
    List<Path> candidates = new ArrayList<>();
    if (buildId != null) {
      candidates.addAll(buildIdCacheCandidates(buildId));
    }
    String relative = path.startsWith("/") ? path.substring(1) : path;
    Path debugDir = sources.root().resolve("usr/lib/debug");
    candidates.add(debugDir.resolve(relative + ".debug"));
    candidates.add(debugDir.resolve(relative));
    if (buildId != null && buildId.length() > 2) {
      candidates.add(debugDir.resolve(".build-id").resolve(buildId.substring(0, 2))
          .resolve(buildId.substring(2) + ".debug"));
    }
    candidates.add(diskPath);
    return choose(candidates, buildId, diskPath, onDisk);
  }

  /** ~/.debug/.build-id/xx/rest: a link to the cached object's directory (elf, debug) or file. */
  private List<Path> buildIdCacheCandidates(String buildId) {
    if (buildId.length() <= 2) {
      return List.of();
    }
    Path link = sources.buildIdCache().resolve(".build-id").resolve(buildId.substring(0, 2))
        .resolve(buildId.substring(2));
    if (Files.isDirectory(link)) {
      return List.of(link.resolve("elf"), link.resolve("debug"));
    }
    return List.of(link);
  }

  /**
   * perf's two sources: the first candidate with a .symtab gives the names, the first with a
   * .dynsym (the runtime object) the load segments and PLT; without a .symtab the runtime object
   * gives the names too. A separate debug file's segments cannot be used: its sections hold no
   * bytes, so its PT_LOAD offsets are 0.
   */
  private SymbolTable choose(List<Path> candidates, String buildId, Path openedPath,
      ElfSymbols.Opened alreadyOpened) {
    ElfSymbols.Opened symtab = null;
    ElfSymbols.Opened runtime = null;
    for (Path candidate : candidates) {
      ElfSymbols.Opened opened =
          candidate.equals(openedPath) ? alreadyOpened : ElfSymbols.open(candidate);
      if (opened == null || !sameBuild(opened.buildId(), buildId)) {
        continue;
      }
      if (opened.hasSymtab() && symtab == null) {
        symtab = opened;
      }
      if (opened.hasDynsym() && runtime == null) {
        runtime = opened;
      }
      if (symtab != null && runtime != null) {
        break;
      }
    }
    if (symtab == null && runtime == null) {
      return SymbolTable.EMPTY;
    }
    return ElfSymbols.table(symtab != null ? symtab : runtime, runtime, demangler);
  }

  private static boolean sameBuild(String found, String wanted) {
    if (wanted == null) {
      return true;
    }
    // perf.data stores build ids padded with zeros to 20 bytes; compare what both have
    String a = found == null ? "" : found.toLowerCase(Locale.ROOT);
    String b = wanted.toLowerCase(Locale.ROOT);
    return !a.isEmpty() && (b.startsWith(a) && b.substring(a.length()).matches("0*"));
  }
}
