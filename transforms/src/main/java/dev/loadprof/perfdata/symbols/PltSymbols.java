package dev.loadprof.perfdata.symbols;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import net.fornwall.jelf.ElfFile;
import net.fornwall.jelf.ElfSection;
import net.fornwall.jelf.ElfSymbolTableSection;

/**
 * The "name@plt" symbols perf 6.1 makes up for a file's lazy-binding PLT (symbol-elf.c,
 * dso__synthesize_plt_symbols): after the .plt header, one entry of .plt's entry size per
 * .rela.plt relocation, in order, named after the relocation's .dynsym symbol (without version).
 * At file offsets, like the other symbols.
 */
final class PltSymbols {
  private static final int RELA_SIZE_64 = 24;
  private static final int RELA_SIZE_32 = 12;

  private PltSymbols() {}

  static List<SymbolTable.Entry> of(ElfSymbols.Opened object) {
    int pltIndex = object.sections().named(".plt");
    int relocationsIndex = object.sections().named(".rela.plt");
    if (pltIndex < 0 || relocationsIndex < 0 || !object.hasDynsym()) {
      return List.of();
    }
    ElfFile elf = object.elf();
    try {
      ElfSection plt = elf.getSection(pltIndex);
      ElfSection relocations = elf.getSection(relocationsIndex);
      ElfSymbolTableSection dynsym = object.symbolTable(object.sections().dynsym());
      if (plt.header.sh_entsize <= 0) {
        return List.of();
      }
      ByteBuffer data = ByteBuffer.wrap(relocations.getData()).order(
          elf.ei_data == ElfFile.DATA_MSB ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
      boolean is64 = !elf.is32Bits();
      int entrySize = is64 ? RELA_SIZE_64 : RELA_SIZE_32;
      long size = plt.header.sh_entsize;
      long offset = plt.header.sh_offset + size; // the first entry is the PLT's own header
      List<SymbolTable.Entry> entries = new ArrayList<>();
      for (int at = 0; at + entrySize <= data.limit(); at += entrySize) {
        long info = is64 ? data.getLong(at + 8) : Integer.toUnsignedLong(data.getInt(at + 4));
        int symbol = (int) (is64 ? info >>> 32 : info >>> 8);
        if (symbol >= 0 && symbol < dynsym.symbols.length) {
          // symbol 0 (an IRELATIVE slot, as in libc) has no name: perf prints "@plt"
          String name = symbol == 0 ? "" : dynsym.symbols[symbol].getName();
          entries.add(new SymbolTable.Entry(offset, size, SymbolTable.GLOBAL, name + "@plt", ""));
        }
        offset += size;
      }
      return entries;
    } catch (RuntimeException e) { // a malformed PLT: perf then makes up nothing either
      return List.of();
    }
  }
}
