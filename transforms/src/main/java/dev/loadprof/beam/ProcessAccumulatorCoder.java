package dev.loadprof.beam;

import dev.loadprof.codec.Varint;
import dev.loadprof.load.ProcessAccumulator;
import dev.loadprof.model.CallStack;
import dev.loadprof.model.Frame;
import dev.loadprof.model.FrameCodec;
import dev.loadprof.profile.LoadTimeline;
import dev.loadprof.wall.ThreadMarks;
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
    Varint.Sink out = new Varint.Sink(256 + 32 * a.stacks.size());
    out.writeString(a.runId);
    out.writeInt(a.pid);
    out.writeLong(a.samples);
    writeArray(out, a.samplesAtLoad);
    writeArray(out, a.cpuNsAtLoad);
    writeArray(out, a.timeAtLoadNs);
    out.writeLong(a.spanStartNs);
    out.writeLong(a.spanEndNs);
    out.writeInt(a.health.size());
    for (Map.Entry<String, Long> e : a.health.entrySet()) {
      out.writeString(e.getKey());
      out.writeLong(e.getValue());
    }
    Map<Frame, Integer> frameIds = new HashMap<>();
    List<Frame> frames = new ArrayList<>();
    for (ProcessAccumulator.LoadStack k : a.stacks.keySet()) {
      for (Frame f : k.stack().frames()) {
        if (frameIds.putIfAbsent(f, frames.size()) == null) {
          frames.add(f);
        }
      }
    }
    FrameCodec.writeTable(frames, out);
    out.writeInt(a.stacks.size());
    for (Map.Entry<ProcessAccumulator.LoadStack, long[]> e : a.stacks.entrySet()) {
      Frame[] stack = e.getKey().stack().frames();
      out.writeInt(e.getKey().tid());
      out.writeInt(e.getKey().load());
      out.writeInt(stack.length);
      for (Frame f : stack) {
        out.writeInt(frameIds.get(f));
      }
      out.writeLong(e.getValue()[0]);
      out.writeLong(e.getValue()[1]);
    }
    writeTimeline(out, a.timeline);
    a.threads.write(out);
    out.writeDelimitedTo(outStream);
  }

  @Override
  public ProcessAccumulator decode(InputStream inStream) throws IOException {
    Varint.Source in = Varint.Source.readDelimitedFrom(inStream);
    ProcessAccumulator a = new ProcessAccumulator(in.readString(), in.readInt());
    a.samples = in.readLong();
    a.samplesAtLoad = readArray(in);
    a.cpuNsAtLoad = readArray(in);
    a.timeAtLoadNs = readArray(in);
    a.spanStartNs = in.readLong();
    a.spanEndNs = in.readLong();
    int healthCount = in.readInt();
    for (int i = 0; i < healthCount; i++) {
      a.health.put(in.readString(), in.readLong());
    }
    Frame[] frames = FrameCodec.readTable(in);
    int stackCount = in.readInt();
    for (int i = 0; i < stackCount; i++) {
      int tid = in.readInt();
      int load = in.readInt();
      Frame[] stack = new Frame[in.readInt()];
      for (int f = 0; f < stack.length; f++) {
        stack[f] = frames[in.readInt()];
      }
      a.stacks.put(new ProcessAccumulator.LoadStack(tid, load, new CallStack(stack)),
          new long[] {in.readLong(), in.readLong()});
    }
    a.timeline = readTimeline(in);
    a.threads = ThreadMarks.read(in);
    return a;
  }

  private static void writeTimeline(Varint.Sink out, LoadTimeline t) {
    out.writeInt(t.level);
    out.writeLong(t.minBaseIndex);
    out.writeLong(t.maxBaseIndex);
    out.writeInt(t.buckets.size());
    for (Map.Entry<Long, LoadTimeline.Bucket> e : t.buckets.entrySet()) {
      LoadTimeline.Bucket b = e.getValue();
      out.writeLong(e.getKey());
      out.writeLong(b.threadNs);
      out.writeLong(b.busyNs);
      out.writeInt(b.maxLoad);
      out.writeInt(b.functionCpuNs.size());
      for (Map.Entry<String, Long> f : b.functionCpuNs.entrySet()) {
        out.writeString(f.getKey());
        out.writeLong(f.getValue());
      }
    }
  }

  private static LoadTimeline readTimeline(Varint.Source in) throws IOException {
    LoadTimeline t = new LoadTimeline();
    t.level = in.readInt();
    t.minBaseIndex = in.readLong();
    t.maxBaseIndex = in.readLong();
    int count = in.readInt();
    for (int i = 0; i < count; i++) {
      LoadTimeline.Bucket b = new LoadTimeline.Bucket();
      long index = in.readLong();
      b.threadNs = in.readLong();
      b.busyNs = in.readLong();
      b.maxLoad = in.readInt();
      int functions = in.readInt();
      for (int f = 0; f < functions; f++) {
        b.functionCpuNs.put(in.readString(), in.readLong());
      }
      t.buckets.put(index, b);
    }
    return t;
  }

  private static void writeArray(Varint.Sink out, long[] a) {
    out.writeInt(a.length);
    out.writeLongs(a, a.length);
  }

  private static long[] readArray(Varint.Source in) throws IOException {
    return in.readLongs(in.readInt());
  }
}
