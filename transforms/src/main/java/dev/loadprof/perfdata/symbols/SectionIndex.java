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

  private final Path path;
  private long[] offsets = new long[0];
  private long[] sizes = new long[0];
  private int[] links = new int[0];
  private final Map<String, Integer> byName = new HashMap<>();
  private final List<Integer> notes = new ArrayList<>();
  private int symtab = -1;
  private int dynsym = -1;

  private SectionIndex(Path path) {
    this.path = path;
  }

  static SectionIndex read(Path path, ElfFile elf) throws IOException {
    SectionIndex index = new SectionIndex(path);
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
    boolean is64 = !elf.is32Bits();
    index.offsets = new long[count];
    index.sizes = new long[count];
    index.links = new int[count];
    for (int i = 1; i < count && (i + 1) * size <= headers.position(); i++) {
      int at = i * size;
      int name = headers.getInt(at);
      int type = headers.getInt(at + 4);
      // Elf64_Shdr: offset at 24, size at 32, link at 40; Elf32_Shdr: 16, 20, 24
      index.offsets[i] = is64 ? headers.getLong(at + 24) : unsigned(headers.getInt(at + 16));
      index.sizes[i] = is64 ? headers.getLong(at + 32) : unsigned(headers.getInt(at + 20));
      index.links[i] = headers.getInt(at + (is64 ? 40 : 24));
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

  private static long unsigned(int value) {
    return Integer.toUnsignedLong(value);
  }

  /**
   * The bytes of the string table linked to section {@code index} (a symbol table's names), read
   * at once: jelf reads a name a byte at a time, which made names most of a large file's cost.
   */
  byte[] linkedStrings(int index) throws IOException {
    int strings = links[index];
    if (strings <= 0 || strings >= offsets.length || sizes[strings] > Integer.MAX_VALUE) {
      return new byte[0];
    }
    ByteBuffer bytes = ByteBuffer.allocate((int) sizes[strings]);
    try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
      while (bytes.hasRemaining()
          && channel.read(bytes, offsets[strings] + bytes.position()) > 0) {
        // read until the table is in
      }
    }
    return bytes.array();
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
