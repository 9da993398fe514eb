package dev.loadprof.perfdata.symbols;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The kernel's symbols from a kallsyms file ("ADDRESS TYPE NAME [MODULE]"), kept as perf keeps
 * them: text, weak, data and bss symbols; each ends where the next begins. A file whose addresses
 * are all zero (kptr_restrict, or read without root) holds no usable symbol.
 */
final class KernelSymbols {
  /** The kernel's symbol table, and why it is empty when it is (null otherwise). */
  record Loaded(SymbolTable table, String problem) {}

  private KernelSymbols() {}

  static Loaded load(Path kallsyms) {
    if (kallsyms == null || !Files.isReadable(kallsyms)) {
      return new Loaded(SymbolTable.EMPTY, "cannot read " + kallsyms);
    }
    List<SymbolTable.Entry> entries;
    try (InputStream in = Files.newInputStream(kallsyms)) {
      entries = parseAll(in.readAllBytes()); // /proc/kallsyms has no size: read to its end
    } catch (IOException | RuntimeException e) {
      return new Loaded(SymbolTable.EMPTY, "cannot read " + kallsyms + ": " + e.getMessage());
    }
    boolean anyAddress = false;
    for (SymbolTable.Entry entry : entries) {
      anyAddress |= entry.start() != 0;
    }
    if (!anyAddress) {
      return new Loaded(SymbolTable.EMPTY, kallsyms + " shows no addresses (kptr_restrict:"
          + " read it as root, or record with the build-id cache)");
    }
    return new Loaded(SymbolTable.of(entries, true), null);
  }

  /**
   * The entries {@link #parse} keeps of each line of {@code text}, in order. Plain ASCII lines
   * are read from the bytes (kallsyms: ~120,000 lines, no text decoding, no line strings); any
   * other line, and the whole text when it holds a carriage return, go through {@link #parse}.
   */
  static List<SymbolTable.Entry> parseAll(byte[] text) {
    List<SymbolTable.Entry> entries = new ArrayList<>(text.length / 40 + 1);
    for (byte b : text) {
      if (b == '\r') { // lines as a line reader splits them
        new BufferedReader(new StringReader(utf8(text, 0, text.length))).lines()
            .map(KernelSymbols::parse).filter(e -> e != null).forEach(entries::add);
        return entries;
      }
    }
    Map<String, String> modules = new HashMap<>();
    for (int start = 0; start < text.length; ) {
      int end = start;
      while (end < text.length && text[end] != '\n') {
        end++;
      }
      SymbolTable.Entry entry = parseAscii(text, start, end, modules);
      if (entry == TEXT) {
        entry = parse(utf8(text, start, end - start));
      }
      if (entry != null) {
        entries.add(entry);
      }
      start = end + 1;
    }
    return entries;
  }

  /** The text of bytes that must be UTF-8 (a line reader's error otherwise). */
  private static String utf8(byte[] text, int start, int length) {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .decode(java.nio.ByteBuffer.wrap(text, start, length)).toString();
    } catch (java.nio.charset.CharacterCodingException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Marks a line {@link #parseAscii} leaves to {@link #parse}. */
  private static final SymbolTable.Entry TEXT = new SymbolTable.Entry(0, 0, 0, "", "");

  /** {@link #parse} of the line text[start, end) when it is plain ASCII, else {@link #TEXT}. */
  private static SymbolTable.Entry parseAscii(byte[] text, int start, int end,
      Map<String, String> modules) {
    int space = -1;
    int tab = -1;
    for (int i = start; i < end; i++) {
      byte b = text[i];
      if (b < 0x20 && b != '\t' || b == 0x7f || b < 0) {
        return TEXT; // control characters and UTF-8: as text
      }
      if (b == ' ' && space < 0) {
        space = i;
      } else if (b == '\t' && tab < 0 && space >= 0 && i >= space + 3) {
        tab = i;
      }
    }
    if (space <= start || space + 3 > end || text[space + 2] != ' ') {
      return null;
    }
    char type = (char) text[space + 1];
    char upper = Character.toUpperCase(type);
    if (upper != 'T' && upper != 'W' && upper != 'D' && upper != 'B' && type != 'u'
        && type != 'l') {
      return null;
    }
    int nameEnd = tab >= 0 ? tab : end;
    String module = "";
    if (tab >= 0) {
      int from = tab + 1;
      int to = end;
      while (from < to && Character.isWhitespace((char) text[from])) {
        from++;
      }
      while (to > from && Character.isWhitespace((char) text[to - 1])) {
        to--;
      }
      if (to - from >= 2 && text[from] == '[' && text[to - 1] == ']') {
        from++;
        to--;
      }
      module = new String(text, from, to - from, StandardCharsets.ISO_8859_1);
      module = modules.computeIfAbsent(module, m -> m);
    }
    int nameStart = space + 3;
    if (nameEnd == nameStart || (!module.isEmpty() && text[nameStart] == '$')) {
      return null;
    }
    int digits = space - start;
    if (digits > 16) {
      return TEXT; // as Long.parseUnsignedLong takes it (leading zeros, or too big)
    }
    long address = 0;
    for (int i = start; i < space; i++) {
      int d = Character.digit((char) text[i], 16);
      if (d < 0) {
        return TEXT; // not hex: parse fails as it does for text
      }
      address = address << 4 | d;
    }
    int binding = Character.isUpperCase(type) ? SymbolTable.GLOBAL : SymbolTable.LOCAL;
    if (upper == 'W') {
      binding = SymbolTable.WEAK;
    }
    return new SymbolTable.Entry(address, 0, binding,
        new String(text, nameStart, nameEnd - nameStart, StandardCharsets.ISO_8859_1), module);
  }

  /** One kallsyms line, or null for a type perf ignores or a malformed line. */
  static SymbolTable.Entry parse(String line) {
    int space = line.indexOf(' ');
    if (space <= 0 || space + 3 > line.length() || line.charAt(space + 2) != ' ') {
      return null;
    }
    char type = line.charAt(space + 1);
    char upper = Character.toUpperCase(type);
    if (upper != 'T' && upper != 'W' && upper != 'D' && upper != 'B' && type != 'u'
        && type != 'l') {
      return null;
    }
    String rest = line.substring(space + 3);
    String module = "";
    int tab = rest.indexOf('\t');
    if (tab >= 0) {
      String tail = rest.substring(tab + 1).strip();
      module = tail.startsWith("[") && tail.endsWith("]") ? tail.substring(1, tail.length() - 1)
          : tail;
      rest = rest.substring(0, tab);
    }
    if (rest.isEmpty() || (!module.isEmpty() && rest.startsWith("$"))) {
      return null;
    }
    long address = Long.parseUnsignedLong(line.substring(0, space), 16);
    int binding = Character.isUpperCase(type) ? SymbolTable.GLOBAL : SymbolTable.LOCAL;
    if (upper == 'W') {
      binding = SymbolTable.WEAK;
    }
    return new SymbolTable.Entry(address, 0, binding, rest, module);
  }
}
