package dev.loadprof.compare;

import dev.loadprof.report.PartCodec;
import dev.loadprof.report.PartReader;
import dev.loadprof.report.PartWriter;
import dev.loadprof.report.RunAnalyses;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What nightly keeps of a run ({@link NightlyJob.Kept}) as serialized, in the figures stored
 * beside archived runs: its function figures and its part as plain numbers ({@link PartCodec}),
 * in place of Java serialization's object graph, which a nightly read back for each of its
 * thousands of past runs. A kept part of another shape than the analysis makes is serialized
 * as before ({@link #compact} gives null).
 */
final class KeptCodec {
  private KeptCodec() {}

  /** What is serialized in place of a kept part; gives it back when read. */
  static final class Compact extends dev.loadprof.codec.CompactForm {
    private static final long serialVersionUID = 1L;

    Compact(byte[] bytes) {
      super(bytes);
    }

    @Override
    protected Object decode(byte[] bytes) throws IOException {
      return KeptCodec.decode(bytes);
    }

    @Override
    protected String what() {
      return "run figures";
    }
  }

  /** The kept part in its compact form, or null when it is not of the shape written so. */
  static Compact compact(NightlyJob.Kept kept) {
    byte[] bytes = encode(kept);
    return bytes == null ? null : new Compact(bytes);
  }

  static byte[] encode(NightlyJob.Kept kept) {
    Map<String, Map<String, double[]>> functions = kept.functions();
    if (functions == null || functions.getClass() != HashMap.class || kept.run() == null) {
      return null;
    }
    PartWriter out = new PartWriter();
    out.writeInt(functions.size());
    for (Map.Entry<String, Map<String, double[]>> process : functions.entrySet()) {
      Map<String, double[]> byFunction = process.getValue();
      if (byFunction == null || byFunction.getClass() != TreeMap.class
          || ((TreeMap<String, double[]>) byFunction).comparator() != null) {
        return null;
      }
      out.writeString(process.getKey());
      out.writeInt(byFunction.size());
      for (Map.Entry<String, double[]> f : byFunction.entrySet()) {
        out.writeString(f.getKey());
        out.writeDoubles(f.getValue());
      }
    }
    return out.part(kept.run()) == null ? out.bytes() : null;
  }

  static NightlyJob.Kept decode(byte[] bytes) throws IOException {
    PartReader in = new PartReader(bytes);
    int processes = in.count();
    Map<String, Map<String, double[]>> functions = PartCodec.asJavaReadsBack(processes);
    for (int i = 0; i < processes; i++) {
      String process = in.readString();
      Map<String, double[]> byFunction = new TreeMap<>();
      for (int n = in.count(); n > 0; n--) {
        byFunction.put(in.readString(), in.readDoubles());
      }
      functions.put(process, byFunction);
    }
    RunAnalyses.Part part = in.part();
    if (!in.atEnd()) {
      throw new IOException("bytes left after the run's figures");
    }
    return new NightlyJob.Kept(functions, part);
  }
}
