package dev.loadprof.critical;

import dev.loadprof.critical.CriticalPath.FunctionOnPath;
import dev.loadprof.critical.CriticalPath.Kind;
import dev.loadprof.critical.CriticalPath.PathSegment;
import dev.loadprof.critical.CriticalPath.StackOnPath;
import dev.loadprof.critical.CriticalPath.ThreadShare;
import dev.loadprof.critical.CriticalPath.WaitOnPath;
import dev.loadprof.critical.CriticalPath.WhatIf;
import dev.loadprof.model.CallStack;
import dev.loadprof.model.Frame;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A critical path as serialized ({@link CriticalPath#writeReplace}): its fields as plain
 * numbers, each distinct string written once. Java serialization of its records, stacks and
 * frames took most of the time of reading a run's stored figures back (nightly reads every past
 * run's: bench/RESULTS.md section 34), and its frames' strings repeat across stacks.
 */
final class CriticalPathCodec {
  private static final int NULL = -1;
  private static final int NEW = -2;

  private CriticalPathCodec() {}

  /** What is serialized in place of a path; gives the path back when read. */
  static final class Compact extends dev.loadprof.codec.CompactForm {
    private static final long serialVersionUID = 2L;

    Compact(byte[] bytes) {
      super(bytes);
    }

    @Override
    protected Object decode(byte[] bytes) throws IOException {
      return CriticalPathCodec.decode(bytes);
    }

    @Override
    protected String what() {
      return "critical path";
    }
  }

  static byte[] encode(CriticalPath p) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try {
      new Writer(new DataOutputStream(bytes)).path(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // not from memory
    }
    return bytes.toByteArray();
  }

  static CriticalPath decode(byte[] bytes) throws IOException {
    Reader r = new Reader(new DataInputStream(new ByteArrayInputStream(bytes)));
    CriticalPath p = r.path();
    if (r.in.read() != -1) {
      throw new IOException("bytes left after the path");
    }
    return p;
  }

  private static final class Writer {
    final DataOutputStream out;
    final Map<String, Integer> strings = new HashMap<>();

    Writer(DataOutputStream out) {
      this.out = out;
    }

    void path(CriticalPath p) throws IOException {
      out.writeLong(p.spanStartNs);
      out.writeLong(p.spanEndNs);
      out.writeInt(p.segments().size());
      for (PathSegment s : p.segments()) {
        out.writeInt(s.tid());
        out.writeLong(s.startNs());
        out.writeLong(s.endNs());
        kind(s.kind());
        string(s.reason());
      }
      out.writeInt(p.topFunctions().size());
      for (FunctionOnPath f : p.topFunctions()) {
        string(f.function());
        out.writeLong(f.ns());
        out.writeDouble(f.share());
        out.writeLong(f.selfNs());
      }
      out.writeInt(p.threads().size());
      for (ThreadShare t : p.threads()) {
        out.writeInt(t.tid());
        string(t.name());
        out.writeLong(t.ns());
      }
      map(p.blockedByReason());
      out.writeLong(p.onCpuNs());
      out.writeLong(p.runnableOwnNs());
      out.writeLong(p.runnableOtherNs());
      out.writeInt(p.whatIfs().size());
      for (WhatIf w : p.whatIfs()) {
        string(w.function());
        out.writeInt(w.fasterPercent());
        out.writeLong(w.predictedWallNs());
        out.writeLong(w.changeNs());
      }
      map(p.foldedNs());
      out.writeInt(p.stacks().size());
      for (StackOnPath s : p.stacks()) {
        out.writeInt(s.tid());
        stack(s.stack());
        out.writeLong(s.ns());
      }
      out.writeInt(p.waits().size());
      for (WaitOnPath w : p.waits()) {
        out.writeInt(w.tid());
        kind(w.kind());
        string(w.reason());
        stack(w.stack());
        out.writeLong(w.ns());
      }
      out.writeInt(p.notes().size());
      for (String note : p.notes()) {
        string(note);
      }
    }

    void string(String s) throws IOException {
      Integer known = s == null ? Integer.valueOf(NULL) : strings.get(s);
      if (known != null) {
        out.writeInt(known);
        return;
      }
      strings.put(s, strings.size());
      byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
      out.writeInt(NEW);
      out.writeInt(utf8.length);
      out.write(utf8);
    }

    void kind(Kind k) throws IOException {
      out.writeByte(k == null ? NULL : k.ordinal());
    }

    void map(Map<String, Long> m) throws IOException {
      out.writeInt(m.size());
      for (Map.Entry<String, Long> e : m.entrySet()) { // in the map's order
        string(e.getKey());
        out.writeBoolean(e.getValue() != null);
        out.writeLong(e.getValue() == null ? 0 : e.getValue());
      }
    }

    void stack(CallStack s) throws IOException {
      if (s == null) {
        out.writeInt(NULL);
        return;
      }
      out.writeInt(s.frames().length);
      for (Frame f : s.frames()) {
        out.writeBoolean(f != null);
        if (f != null) {
          string(f.symbol());
          string(f.dso());
          out.writeLong(f.address());
        }
      }
    }
  }

  private static final class Reader {
    final DataInputStream in;
    final List<String> strings = new ArrayList<>();

    Reader(DataInputStream in) {
      this.in = in;
    }

    CriticalPath path() throws IOException {
      long spanStartNs = in.readLong();
      long spanEndNs = in.readLong();
      List<PathSegment> segments = new ArrayList<>();
      for (int i = count(); i > 0; i--) {
        segments.add(new PathSegment(in.readInt(), in.readLong(), in.readLong(), kind(),
            string()));
      }
      List<FunctionOnPath> top = new ArrayList<>();
      for (int i = count(); i > 0; i--) {
        top.add(new FunctionOnPath(string(), in.readLong(), in.readDouble(), in.readLong()));
      }
      List<ThreadShare> threads = new ArrayList<>();
      for (int i = count(); i > 0; i--) {
        threads.add(new ThreadShare(in.readInt(), string(), in.readLong()));
      }
      Map<String, Long> blocked = map();
      long onCpuNs = in.readLong();
      long runnableOwnNs = in.readLong();
      long runnableOtherNs = in.readLong();
      List<WhatIf> whatIfs = new ArrayList<>();
      for (int i = count(); i > 0; i--) {
        whatIfs.add(new WhatIf(string(), in.readInt(), in.readLong(), in.readLong()));
      }
      Map<String, Long> folded = map();
      List<StackOnPath> stacks = new ArrayList<>();
      for (int i = count(); i > 0; i--) {
        stacks.add(new StackOnPath(in.readInt(), stack(), in.readLong()));
      }
      List<WaitOnPath> waits = new ArrayList<>();
      for (int i = count(); i > 0; i--) {
        waits.add(new WaitOnPath(in.readInt(), kind(), string(), stack(), in.readLong()));
      }
      List<String> notes = new ArrayList<>();
      for (int i = count(); i > 0; i--) {
        notes.add(string());
      }
      return new CriticalPath(spanStartNs, spanEndNs, segments, top, threads, blocked, onCpuNs,
          runnableOwnNs, runnableOtherNs, whatIfs, folded, stacks, waits, notes);
    }

    /** A count, checked against what is left, so that damage cannot ask for a huge list. */
    int count() throws IOException {
      int n = in.readInt();
      if (n < 0 || n > in.available()) {
        throw new IOException("a count of " + n + " with " + in.available() + " bytes left");
      }
      return n;
    }

    String string() throws IOException {
      int i = in.readInt();
      if (i == NULL) {
        return null;
      }
      if (i != NEW) {
        if (i < 0 || i >= strings.size()) {
          throw new IOException("string " + i + " of " + strings.size());
        }
        return strings.get(i);
      }
      byte[] utf8 = new byte[count()];
      in.readFully(utf8);
      String s = new String(utf8, StandardCharsets.UTF_8);
      strings.add(s);
      return s;
    }

    Kind kind() throws IOException {
      int k = in.readByte();
      return k == NULL ? null : Kind.values()[k];
    }

    Map<String, Long> map() throws IOException {
      Map<String, Long> m = new LinkedHashMap<>();
      for (int i = count(); i > 0; i--) {
        String key = string();
        boolean present = in.readBoolean();
        long value = in.readLong();
        m.put(key, present ? value : null);
      }
      return m;
    }

    CallStack stack() throws IOException {
      int n = in.readInt();
      if (n == NULL) {
        return null;
      }
      if (n < 0 || n > in.available()) {
        throw new IOException("a stack of " + n + " frames with " + in.available() + " bytes left");
      }
      Frame[] frames = new Frame[n];
      for (int i = 0; i < n; i++) {
        frames[i] = in.readBoolean() ? new Frame(string(), string(), in.readLong()) : null;
      }
      return new CallStack(frames);
    }
  }
}
