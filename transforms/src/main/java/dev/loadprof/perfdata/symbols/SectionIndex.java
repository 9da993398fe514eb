package dev.loadprof.perfdata.symbols;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.fornwall.jelf.ElfFile;

/**
 * Which section is where, from the raw section header table. jelf builds a section's object
 * (parsing its content: all of a 26 MB .rela.dyn in Chromium) whenever a lookup by type or name
 * passes it, so the symbolizer finds the few sections it needs here and asks jelf only for those.
 */
final class SectionIndex {
  private static final int SHT_SYMTAB = 2;
  private static final int SHT_NOTE = 7;
  private static final int SHT_DYNSYM = 11;

  private final Map<String, Integer> byName = new HashMap<>();
  private final List<Integer> notes = new ArrayList<>();
  private int symtab = -1;
  private int dynsym = -1;

  private SectionIndex() {}

  static SectionIndex read(Path path, ElfFile elf) throws IOException {
    SectionIndex index = new SectionIndex();
    int count = elf.e_shnum & 0xffff;
    int size = elf.e_shentsize & 0xffff;
    ByteBuffer headers = ByteBuffer.allocate(count * size).order(
        elf.ei_data == ElfFile.DATA_MSB ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
    try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
      long at = elf.e_shoff;
      while (headers.hasRemaining() && channel.read(headers, at + headers.position()) > 0) {
        // read until the table is in
      }
    }
    var names = count > 0 ? elf.getSectionNameStringTable() : null;
    for (int i = 1; i < count && (i + 1) * size <= headers.position(); i++) {
      int name = headers.getInt(i * size);
      int type = headers.getInt(i * size + 4);
      if (type == SHT_SYMTAB && index.symtab < 0) {
        index.symtab = i;
      } else if (type == SHT_DYNSYM && index.dynsym < 0) {
        index.dynsym = i;
      } else if (type == SHT_NOTE) {
        index.notes.add(i);
      }
      if (names != null) {
        index.byName.putIfAbsent(names.get(name), i);
      }
    }
    return index;
  }

  /** The .symtab's index, or -1. */
  int symtab() {
    return symtab;
  }

  /** The .dynsym's index, or -1. */
  int dynsym() {
    return dynsym;
  }

  List<Integer> notes() {
    return notes;
  }

  /** The index of the first section named {@code name}, or -1. */
  int named(String name) {
    return byName.getOrDefault(name, -1);
  }
}
