package dev.loadprof.beam;

import dev.loadprof.load.ProcessAccumulator;
import dev.loadprof.model.Frame;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.AtomicCoder;

/** Encodes a {@link ProcessAccumulator}; each distinct frame is written once per element. */
public final class ProcessAccumulatorCoder extends AtomicCoder<ProcessAccumulator> {
  private static final ProcessAccumulatorCoder INSTANCE = new ProcessAccumulatorCoder();

  public static ProcessAccumulatorCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(ProcessAccumulator a, OutputStream outStream) throws IOException {
    DataOutputStream out = new DataOutputStream(outStream);
    out.writeUTF(a.runId);
    Varint.writeInt(out, a.pid);
    Varint.writeLong(out, a.samples);
    writeArray(out, a.samplesAtLoad);
    writeArray(out, a.cpuNsAtLoad);
    writeArray(out, a.timeAtLoadNs);
    Varint.writeLong(out, a.spanStartNs);
    Varint.writeLong(out, a.spanEndNs);
    Varint.writeInt(out, a.health.size());
    for (Map.Entry<String, Long> e : a.health.entrySet()) {
      out.writeUTF(e.getKey());
      Varint.writeLong(out, e.getValue());
    }
    Map<Frame, Integer> frameIds = new HashMap<>();
    List<Frame> frames = new ArrayList<>();
    for (ProcessAccumulator.LoadStack k : a.stacks.keySet()) {
      for (Frame f : k.stack()) {
        if (frameIds.putIfAbsent(f, frames.size()) == null) {
          frames.add(f);
        }
      }
    }
    Varint.writeInt(out, frames.size());
    for (Frame f : frames) {
      EventBlockCoder.writeString(out, f.symbol());
      EventBlockCoder.writeString(out, f.dso());
    }
    Varint.writeInt(out, a.stacks.size());
    for (Map.Entry<ProcessAccumulator.LoadStack, long[]> e : a.stacks.entrySet()) {
      Frame[] stack = e.getKey().stack();
      Varint.writeInt(out, e.getKey().load());
      Varint.writeInt(out, stack.length);
      for (Frame f : stack) {
        Varint.writeInt(out, frameIds.get(f));
      }
      Varint.writeLong(out, e.getValue()[0]);
      Varint.writeLong(out, e.getValue()[1]);
    }
    out.flush();
  }

  @Override
  public ProcessAccumulator decode(InputStream inStream) throws IOException {
    DataInputStream in = new DataInputStream(inStream);
    ProcessAccumulator a = new ProcessAccumulator(in.readUTF(), Varint.readInt(in));
    a.samples = Varint.readLong(in);
    a.samplesAtLoad = readArray(in);
    a.cpuNsAtLoad = readArray(in);
    a.timeAtLoadNs = readArray(in);
    a.spanStartNs = Varint.readLong(in);
    a.spanEndNs = Varint.readLong(in);
    int healthCount = Varint.readInt(in);
    for (int i = 0; i < healthCount; i++) {
      a.health.put(in.readUTF(), Varint.readLong(in));
    }
    Frame[] frames = new Frame[Varint.readInt(in)];
    for (int i = 0; i < frames.length; i++) {
      frames[i] = new Frame(EventBlockCoder.readString(in), EventBlockCoder.readString(in));
    }
    int stackCount = Varint.readInt(in);
    for (int i = 0; i < stackCount; i++) {
      int load = Varint.readInt(in);
      Frame[] stack = new Frame[Varint.readInt(in)];
      for (int f = 0; f < stack.length; f++) {
        stack[f] = frames[Varint.readInt(in)];
      }
      a.stacks.put(new ProcessAccumulator.LoadStack(load, stack),
          new long[] {Varint.readLong(in), Varint.readLong(in)});
    }
    return a;
  }

  private static void writeArray(DataOutputStream out, long[] a) throws IOException {
    Varint.writeInt(out, a.length);
    Varint.writeLongs(out, a, a.length);
  }

  private static long[] readArray(DataInputStream in) throws IOException {
    return Varint.readLongs(in, Varint.readInt(in));
  }
}
