package dev.loadprof.perfdata.reader;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * The tracepoint formats a perf.data file carries in its tracing-data section (the kernel's
 * events/SYSTEM/NAME/format files at record time), by tracepoint id. Raw sample fields are read
 * at the offsets these formats give, never at fixed ones.
 */
final class TracepointFormats {
  /** One field of a tracepoint's raw data. */
  record Field(int offset, int size, boolean signed) {}

  /** One tracepoint: its system and name, fields by name, and its print format. */
  record Format(String system, String name, Map<String, Field> fields, String printFormat) {
    Field field(String fieldName) {
      return fields.get(fieldName);
    }
  }

  private static final byte[] MAGIC = {0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'};

  private final Map<Long, Format> byId = new HashMap<>();

  Format byId(long id) {
    return byId.get(id);
  }

  int size() {
    return byId.size();
  }

  /** Parses the tracing-data section in {@code data}; throws if it is not one perf writes. */
  static TracepointFormats parse(ByteBuffer data) throws UnsupportedPerfDataException {
    TracepointFormats formats = new TracepointFormats();
    ByteBuffer b = data.slice().order(ByteOrder.LITTLE_ENDIAN);
    for (byte m : MAGIC) {
      if (b.get() != m) {
        throw new UnsupportedPerfDataException("its tracing data has an unknown magic");
      }
    }
    cString(b); // version
    if (b.get() != 0) {
      throw new UnsupportedPerfDataException("its tracing data is big-endian");
    }
    b.get(); // size of long
    b.getInt(); // page size
    skipNamedBlock(b, "header_page");
    skipNamedBlock(b, "header_event");
    int ftraceFiles = b.getInt();
    for (int i = 0; i < ftraceFiles; i++) {
      skip(b, b.getLong());
    }
    int systems = b.getInt();
    for (int s = 0; s < systems; s++) {
      String system = cString(b);
      int files = b.getInt();
      for (int f = 0; f < files; f++) {
        byte[] text = new byte[fitting(b, b.getLong())];
        b.get(text);
        formats.add(system, new String(text, StandardCharsets.UTF_8));
      }
    }
    return formats;
  }

  private void add(String system, String text) {
    String name = null;
    long id = -1;
    String print = "";
    Map<String, Field> fields = new HashMap<>();
    for (String line : text.split("\n")) {
      String t = line.strip();
      if (t.startsWith("name:")) {
        name = t.substring(5).strip();
      } else if (t.startsWith("ID:")) {
        id = Long.parseLong(t.substring(3).strip());
      } else if (t.startsWith("print fmt:")) {
        print = t.substring("print fmt:".length()).strip();
      } else if (t.startsWith("field:")) {
        addField(t, fields);
      }
    }
    if (name != null && id >= 0) {
      byId.put(id, new Format(system, name, fields, print));
    }
  }

  /** "field:char prev_comm[16];	offset:8;	size:16;	signed:0;" */
  private static void addField(String line, Map<String, Field> fields) {
    String[] parts = line.split(";");
    if (parts.length < 4) {
      return;
    }
    String decl = parts[0].substring("field:".length()).strip();
    int bracket = decl.indexOf('[');
    String beforeBracket = bracket < 0 ? decl : decl.substring(0, bracket);
    String fieldName = beforeBracket.substring(beforeBracket.lastIndexOf(' ') + 1);
    int offset = -1;
    int size = -1;
    boolean signed = false;
    for (int i = 1; i < parts.length; i++) {
      String p = parts[i].strip();
      if (p.startsWith("offset:")) {
        offset = Integer.parseInt(p.substring(7));
      } else if (p.startsWith("size:")) {
        size = Integer.parseInt(p.substring(5));
      } else if (p.startsWith("signed:")) {
        signed = p.substring(7).equals("1");
      }
    }
    if (offset >= 0 && size > 0) {
      fields.put(fieldName, new Field(offset, size, signed));
    }
  }

  private static void skipNamedBlock(ByteBuffer b, String name) throws UnsupportedPerfDataException {
    String found = cString(b);
    if (!found.equals(name)) {
      throw new UnsupportedPerfDataException("its tracing data lacks " + name);
    }
    skip(b, b.getLong());
  }

  private static void skip(ByteBuffer b, long n) {
    b.position(b.position() + fitting(b, n));
  }

  /** A size read from the section, checked to fit in what is left of it before it is used. */
  private static int fitting(ByteBuffer b, long size) {
    if (size < 0 || size > b.remaining()) {
      throw new IllegalArgumentException("a size of " + Long.toUnsignedString(size)
          + " in the tracing data, with " + b.remaining() + " bytes left");
    }
    return (int) size;
  }

  private static String cString(ByteBuffer b) {
    int start = b.position();
    while (b.get() != 0) {
      // find the terminating NUL
    }
    byte[] s = new byte[b.position() - 1 - start];
    b.get(start, s);
    return new String(s, StandardCharsets.UTF_8);
  }
}
