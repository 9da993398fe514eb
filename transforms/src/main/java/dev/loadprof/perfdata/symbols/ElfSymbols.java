package dev.loadprof.perfdata.symbols;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import net.fornwall.jelf.ElfFile;
import net.fornwall.jelf.ElfNoteSection;
import net.fornwall.jelf.ElfSegment;
import net.fornwall.jelf.ElfSymbol;
import net.fornwall.jelf.ElfSymbolTableSection;

/**
 * The symbols of one ELF file, read with jelf, as perf 6.1 keeps them (util/symbol-elf.c):
 * defined, named STT_FUNC, STT_GNU_IFUNC and STT_OBJECT symbols and the labels of executable
 * sections (assembly entry points such as ld.so's _dl_start_user), each moved from its virtual
 * address to its file offset by the PT_LOAD segment that holds it, so that a sample's address is
 * looked up as (ip - map start + map offset). Names are kept as the table
 * spells them: a .symtab written by ld 2.35 or later carries the version ("memcpy@@GLIBC_2.14"),
 * a .dynsym does not.
 */
final class ElfSymbols {
  private static final int STT_NOTYPE = 0;
  private static final int STT_OBJECT = 1;
  private static final int STT_FUNC = 2;
  private static final int STT_GNU_IFUNC = 10;
  private static final int SHN_UNDEF = 0;
  private static final int SHN_LORESERVE = 0xff00;
  private static final long SHF_EXECINSTR = 4;
  private static final int NT_GNU_BUILD_ID = 3;

  private ElfSymbols() {}

  /** An opened ELF file: its build id (null if it has none) and where its sections are. */
  record Opened(String buildId, SectionIndex sections, ElfFile elf) {
    boolean hasSymtab() {
      return sections.symtab() >= 0;
    }

    boolean hasDynsym() {
      return sections.dynsym() >= 0;
    }

    ElfSymbolTableSection symbolTable(int index) {
      return (ElfSymbolTableSection) elf.getSection(index);
    }
  }

  /** Opens {@code path}; null when it is missing or not a readable ELF file. */
  static Opened open(Path path) {
    if (path == null || !Files.isRegularFile(path)) {
      return null;
    }
    try {
      ElfFile elf = ElfFile.from(path);
      SectionIndex sections = SectionIndex.read(path, elf);
      return new Opened(buildId(elf, sections), sections, elf);
    } catch (IOException | RuntimeException e) { // jelf throws ElfException and others on junk
      return null;
    }
  }

  /** The GNU build id in hex, or null. */
  private static String buildId(ElfFile elf, SectionIndex sections) {
    for (int index : sections.notes()) {
      if (!(elf.getSection(index) instanceof ElfNoteSection notes)) {
        continue;
      }
      for (ElfNoteSection.ElfNote note : notes.notes()) {
        if (note.type == NT_GNU_BUILD_ID && "GNU".equals(note.name)) {
          return HexFormat.of().formatHex(note.descriptorBytes());
        }
      }
    }
    return null;
  }

  /**
   * The symbol table of {@code symbols} (its .symtab, else its .dynsym), in file-offset space by
   * the load segments of {@code runtime} (the object itself; null when {@code symbols} is it), and
   * the PLT entries perf makes up from the runtime object. Names that share an address are
   * demangled first, since perf chooses among aliases by their demangled names ("operator new[]"
   * over "operator new").
   */
  static SymbolTable table(Opened symbols, Opened runtime, Demangler demangler) {
    Opened segments = runtime != null ? runtime : symbols;
    int index = symbols.hasSymtab() ? symbols.sections().symtab() : symbols.sections().dynsym();
    if (index < 0) {
      return SymbolTable.EMPTY;
    }
    ElfSymbolTableSection section = symbols.symbolTable(index);
    byte[] strings;
    try {
      strings = symbols.sections().linkedStrings(index);
    } catch (IOException e) {
      return SymbolTable.EMPTY;
    }
    List<ElfSegment> loads = loadSegments(segments.elf());
    List<SymbolTable.Entry> entries = new ArrayList<>();
    for (ElfSymbol symbol : section.symbols) {
      if (!kept(symbols.elf(), symbol)) {
        continue;
      }
      ElfSegment load = segmentHolding(loads, symbol.st_value);
      if (load == null) {
        continue; // perf drops a symbol that no load segment holds
      }
      String name = nameAt(strings, symbol.st_name);
      if (name.isEmpty()) {
        continue;
      }
      entries.add(new SymbolTable.Entry(symbol.st_value - (load.p_vaddr - load.p_offset),
          symbol.st_size, symbol.getBinding(), name, ""));
    }
    // perf's order: the file's symbols, their ends, one per address, then the PLT entries
    SymbolTree tree = new SymbolTree();
    for (SymbolTable.Entry entry : demangleAliases(entries, demangler)) {
      tree.insert(entry.start(), entry.start() + entry.size(), entry.binding(), entry.name());
    }
    tree.fixupEnds();
    tree.dropAliases();
    for (SymbolTable.Entry plt : PltSymbols.of(segments)) {
      tree.insert(plt.start(), plt.start() + plt.size(), plt.binding(), plt.name());
    }
    return SymbolTable.of(tree);
  }

  /** The NUL-terminated name at {@code offset} of a string table; "" when out of range. */
  private static String nameAt(byte[] strings, int offset) {
    if (offset < 0 || offset >= strings.length) {
      return "";
    }
    int end = offset;
    while (end < strings.length && strings[end] != 0) {
      end++;
    }
    return new String(strings, offset, end - offset, StandardCharsets.UTF_8);
  }

  private static List<SymbolTable.Entry> demangleAliases(List<SymbolTable.Entry> entries,
      Demangler demangler) {
    Map<Long, Integer> perStart = new HashMap<>();
    for (SymbolTable.Entry entry : entries) {
      perStart.merge(entry.start(), 1, Integer::sum);
    }
    List<String> aliases = new ArrayList<>();
    for (SymbolTable.Entry entry : entries) {
      if (perStart.get(entry.start()) > 1 && Demangler.looksMangled(entry.name())) {
        aliases.add(entry.name());
      }
    }
    if (aliases.isEmpty()) {
      return entries;
    }
    demangler.demangleAll(aliases);
    List<SymbolTable.Entry> named = new ArrayList<>(entries.size());
    for (SymbolTable.Entry entry : entries) {
      named.add(perStart.get(entry.start()) > 1
          ? new SymbolTable.Entry(entry.start(), entry.size(), entry.binding(),
              demangler.demangle(entry.name()), entry.module())
          : entry);
    }
    return named;
  }

  /** Functions and objects defined here, and labels (STT_NOTYPE) in executable sections. */
  private static boolean kept(ElfFile elf, ElfSymbol symbol) {
    int section = symbol.st_shndx & 0xffff;
    // reserved sections hold no code: SHN_ABS holds the version names a .dynsym defines
    // (CXXABI_TM_1 at 0), which perf does not print
    if (symbol.st_name == 0 || section == SHN_UNDEF || section >= SHN_LORESERVE) {
      return false;
    }
    int type = symbol.getType();
    if (type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_OBJECT) {
      return true;
    }
    if (type != STT_NOTYPE || section >= elf.e_shnum) {
      return false;
    }
    return (elf.getSection(section).header.sh_flags & SHF_EXECINSTR) != 0;
  }

  private static List<ElfSegment> loadSegments(ElfFile elf) {
    List<ElfSegment> loads = new ArrayList<>();
    for (int i = 0; i < elf.e_phnum; i++) {
      ElfSegment segment = elf.getProgramHeader(i);
      if (segment.p_type == ElfSegment.PT_LOAD) {
        loads.add(segment);
      }
    }
    return loads;
  }

  private static ElfSegment segmentHolding(List<ElfSegment> loads, long vaddr) {
    for (ElfSegment load : loads) {
      if (vaddr >= load.p_vaddr && vaddr < load.p_vaddr + load.p_memsz) {
        return load;
      }
    }
    return null;
  }
}
