package dev.loadprof.beam;

import dev.loadprof.codec.Varint;
import dev.loadprof.model.CpuState;
import dev.loadprof.model.EventBlock;
import dev.loadprof.model.Frame;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.CoderException;

/**
 * Encodes an {@link EventBlock} column by column with delta-coded times and variable-length
 * integers: blocks cross every shuffle, so their size and encoding cost matter.
 */
public final class EventBlockCoder extends AtomicCoder<EventBlock> {
  private static final EventBlockCoder INSTANCE = new EventBlockCoder();
  private static final int VERSION = 1;

  public static EventBlockCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(EventBlock b, OutputStream outStream) throws IOException {
    Varint.Sink out = new Varint.Sink(64 + 24 * b.sampleCount + 24 * b.switchCount);
    out.writeInt(VERSION);
    out.writeString(b.runId);
    out.writeInt(b.cpu);
    out.writeLong(b.window);
    out.writeLong(b.windowStartNs);
    out.writeLong(b.windowEndNs);
    out.writeLong(b.runStartNs);
    out.writeLong(b.runEndNs);
    out.writeBoolean(b.cpuTail);
    out.writeLong(b.sampleIntervalNs);
    out.writeBoolean(b.periodIsNanoseconds);
    encodeState(b.carryIn, out);

    out.writeInt(b.sampleCount);
    out.writeDeltas(b.sampleTime, b.sampleCount, b.windowStartNs);
    out.writeInts(b.sampleTid, b.sampleCount);
    out.writeInts(b.samplePid, b.sampleCount);
    out.writeLongs(b.samplePeriod, b.sampleCount);
    out.writeInts(b.sampleStack, b.sampleCount);

    out.writeInt(b.switchCount);
    out.writeDeltas(b.switchTime, b.switchCount, b.windowStartNs);
    out.writeInts(b.switchPrevTid, b.switchCount);
    out.writeInts(b.switchPrevPid, b.switchCount);
    out.writeInts(b.switchNextTid, b.switchCount);
    out.writeInts(b.switchNextPid, b.switchCount);

    out.writeInt(b.wakeupCount);
    out.writeDeltas(b.wakeupTime, b.wakeupCount, b.windowStartNs);
    out.writeInts(b.wakeupTid, b.wakeupCount);

    out.writeInt(b.frames.length);
    for (Frame f : b.frames) {
      out.writeString(f.symbol());
      out.writeString(f.dso());
      out.writeLong(f.address());
    }
    out.writeInt(b.stacks.length);
    for (int[] stack : b.stacks) {
      out.writeInt(stack.length);
      out.writeInts(stack, stack.length);
    }

    out.writeBoolean(b.intervals != null);
    if (b.intervals != null) {
      EventBlock.Intervals iv = b.intervals;
      out.writeInt(iv.count);
      out.writeDeltas(iv.start, iv.count, b.windowStartNs);
      out.writeDeltas(iv.end, iv.count, b.windowStartNs);
      out.writeInts(iv.tid, iv.count);
      out.writeInts(iv.pid, iv.count);
      out.writeBoolean(b.sampleFlags != null);
      if (b.sampleFlags != null) {
        out.writeBytes(b.sampleFlags, b.sampleCount);
      }
    }
    out.writeInt(b.health.size());
    for (Map.Entry<String, Long> e : b.health.entrySet()) {
      out.writeString(e.getKey());
      out.writeLong(e.getValue());
    }
    out.writeDelimitedTo(outStream);
  }

  @Override
  public EventBlock decode(InputStream inStream) throws IOException {
    Varint.Source in = Varint.Source.readDelimitedFrom(inStream);
    int version = in.readInt();
    if (version != VERSION) {
      throw new CoderException("EventBlock encoding version " + version + " is not supported");
    }
    EventBlock b = new EventBlock();
    b.runId = in.readString();
    b.cpu = in.readInt();
    b.window = in.readLong();
    b.windowStartNs = in.readLong();
    b.windowEndNs = in.readLong();
    b.runStartNs = in.readLong();
    b.runEndNs = in.readLong();
    b.cpuTail = in.readBoolean();
    b.sampleIntervalNs = in.readLong();
    b.periodIsNanoseconds = in.readBoolean();
    b.carryIn = decodeState(in);

    b.sampleCount = in.readInt();
    b.sampleTime = in.readDeltas(b.sampleCount, b.windowStartNs);
    b.sampleTid = in.readInts(b.sampleCount);
    b.samplePid = in.readInts(b.sampleCount);
    b.samplePeriod = in.readLongs(b.sampleCount);
    b.sampleStack = in.readInts(b.sampleCount);

    b.switchCount = in.readInt();
    b.switchTime = in.readDeltas(b.switchCount, b.windowStartNs);
    b.switchPrevTid = in.readInts(b.switchCount);
    b.switchPrevPid = in.readInts(b.switchCount);
    b.switchNextTid = in.readInts(b.switchCount);
    b.switchNextPid = in.readInts(b.switchCount);

    b.wakeupCount = in.readInt();
    b.wakeupTime = in.readDeltas(b.wakeupCount, b.windowStartNs);
    b.wakeupTid = in.readInts(b.wakeupCount);

    b.frames = new Frame[in.readInt()];
    for (int i = 0; i < b.frames.length; i++) {
      b.frames[i] = new Frame(in.readString(), in.readString(), in.readLong());
    }
    b.stacks = new int[in.readInt()][];
    for (int i = 0; i < b.stacks.length; i++) {
      b.stacks[i] = in.readInts(in.readInt());
    }

    if (in.readBoolean()) {
      EventBlock.Intervals iv = new EventBlock.Intervals();
      iv.count = in.readInt();
      iv.start = in.readDeltas(iv.count, b.windowStartNs);
      iv.end = in.readDeltas(iv.count, b.windowStartNs);
      iv.tid = in.readInts(iv.count);
      iv.pid = in.readInts(iv.count);
      b.intervals = iv;
      if (in.readBoolean()) {
        b.sampleFlags = in.readBytes(b.sampleCount);
      }
    }
    int healthCount = in.readInt();
    b.health = new TreeMap<>();
    for (int i = 0; i < healthCount; i++) {
      b.health.put(in.readString(), in.readLong());
    }
    return b;
  }

  private static void encodeState(CpuState s, Varint.Sink out) {
    out.writeInt(s.kind.ordinal());
    out.writeInt(s.tid);
    out.writeInt(s.pid);
    out.writeLong(s.sinceNs);
    out.writeLong(s.lastEvidenceNs);
    out.writeInt(s.wakeTids.length);
    out.writeInts(s.wakeTids, s.wakeTids.length);
    out.writeLongs(s.wakeTimes, s.wakeTimes.length);
  }

  private static CpuState decodeState(Varint.Source in) throws IOException {
    CpuState s = new CpuState();
    s.kind = CpuState.Kind.values()[in.readInt()];
    s.tid = in.readInt();
    s.pid = in.readInt();
    s.sinceNs = in.readLong();
    s.lastEvidenceNs = in.readLong();
    int n = in.readInt();
    s.wakeTids = in.readInts(n);
    s.wakeTimes = in.readLongs(n);
    return s;
  }

  @Override
  public void verifyDeterministic() {}
}
