package dev.loadprof.beam;

import dev.loadprof.model.CpuState;
import dev.loadprof.model.EventBlock;
import dev.loadprof.model.Frame;
import java.io.DataInputStream;
import java.io.DataOutputStream;
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
    DataOutputStream out = new DataOutputStream(outStream);
    Varint.writeInt(out, VERSION);
    out.writeUTF(b.runId);
    Varint.writeInt(out, b.cpu);
    Varint.writeLong(out, b.window);
    Varint.writeLong(out, b.windowStartNs);
    Varint.writeLong(out, b.windowEndNs);
    Varint.writeLong(out, b.runStartNs);
    Varint.writeLong(out, b.runEndNs);
    out.writeBoolean(b.cpuTail);
    Varint.writeLong(out, b.sampleIntervalNs);
    out.writeBoolean(b.periodIsNanoseconds);
    encodeState(b.carryIn, out);

    Varint.writeInt(out, b.sampleCount);
    Varint.writeDeltas(out, b.sampleTime, b.sampleCount, b.windowStartNs);
    Varint.writeInts(out, b.sampleTid, b.sampleCount);
    Varint.writeInts(out, b.samplePid, b.sampleCount);
    Varint.writeLongs(out, b.samplePeriod, b.sampleCount);
    Varint.writeInts(out, b.sampleStack, b.sampleCount);

    Varint.writeInt(out, b.switchCount);
    Varint.writeDeltas(out, b.switchTime, b.switchCount, b.windowStartNs);
    Varint.writeInts(out, b.switchPrevTid, b.switchCount);
    Varint.writeInts(out, b.switchPrevPid, b.switchCount);
    Varint.writeInts(out, b.switchNextTid, b.switchCount);
    Varint.writeInts(out, b.switchNextPid, b.switchCount);

    Varint.writeInt(out, b.wakeupCount);
    Varint.writeDeltas(out, b.wakeupTime, b.wakeupCount, b.windowStartNs);
    Varint.writeInts(out, b.wakeupTid, b.wakeupCount);

    Varint.writeInt(out, b.frames.length);
    for (Frame f : b.frames) {
      writeString(out, f.symbol());
      writeString(out, f.dso());
    }
    Varint.writeInt(out, b.stacks.length);
    for (int[] stack : b.stacks) {
      Varint.writeInt(out, stack.length);
      Varint.writeInts(out, stack, stack.length);
    }

    out.writeBoolean(b.intervals != null);
    if (b.intervals != null) {
      EventBlock.Intervals iv = b.intervals;
      Varint.writeInt(out, iv.count);
      Varint.writeDeltas(out, iv.start, iv.count, b.windowStartNs);
      Varint.writeDeltas(out, iv.end, iv.count, b.windowStartNs);
      Varint.writeInts(out, iv.tid, iv.count);
      Varint.writeInts(out, iv.pid, iv.count);
      out.writeBoolean(b.sampleFlags != null);
      if (b.sampleFlags != null) {
        out.write(b.sampleFlags, 0, b.sampleCount);
      }
    }
    Varint.writeInt(out, b.health.size());
    for (Map.Entry<String, Long> e : b.health.entrySet()) {
      out.writeUTF(e.getKey());
      Varint.writeLong(out, e.getValue());
    }
    out.flush();
  }

  @Override
  public EventBlock decode(InputStream inStream) throws IOException {
    DataInputStream in = new DataInputStream(inStream);
    int version = Varint.readInt(in);
    if (version != VERSION) {
      throw new CoderException("EventBlock encoding version " + version + " is not supported");
    }
    EventBlock b = new EventBlock();
    b.runId = in.readUTF();
    b.cpu = Varint.readInt(in);
    b.window = Varint.readLong(in);
    b.windowStartNs = Varint.readLong(in);
    b.windowEndNs = Varint.readLong(in);
    b.runStartNs = Varint.readLong(in);
    b.runEndNs = Varint.readLong(in);
    b.cpuTail = in.readBoolean();
    b.sampleIntervalNs = Varint.readLong(in);
    b.periodIsNanoseconds = in.readBoolean();
    b.carryIn = decodeState(in);

    b.sampleCount = Varint.readInt(in);
    b.sampleTime = Varint.readDeltas(in, b.sampleCount, b.windowStartNs);
    b.sampleTid = Varint.readInts(in, b.sampleCount);
    b.samplePid = Varint.readInts(in, b.sampleCount);
    b.samplePeriod = Varint.readLongs(in, b.sampleCount);
    b.sampleStack = Varint.readInts(in, b.sampleCount);

    b.switchCount = Varint.readInt(in);
    b.switchTime = Varint.readDeltas(in, b.switchCount, b.windowStartNs);
    b.switchPrevTid = Varint.readInts(in, b.switchCount);
    b.switchPrevPid = Varint.readInts(in, b.switchCount);
    b.switchNextTid = Varint.readInts(in, b.switchCount);
    b.switchNextPid = Varint.readInts(in, b.switchCount);

    b.wakeupCount = Varint.readInt(in);
    b.wakeupTime = Varint.readDeltas(in, b.wakeupCount, b.windowStartNs);
    b.wakeupTid = Varint.readInts(in, b.wakeupCount);

    b.frames = new Frame[Varint.readInt(in)];
    for (int i = 0; i < b.frames.length; i++) {
      b.frames[i] = new Frame(readString(in), readString(in));
    }
    b.stacks = new int[Varint.readInt(in)][];
    for (int i = 0; i < b.stacks.length; i++) {
      b.stacks[i] = Varint.readInts(in, Varint.readInt(in));
    }

    if (in.readBoolean()) {
      EventBlock.Intervals iv = new EventBlock.Intervals();
      iv.count = Varint.readInt(in);
      iv.start = Varint.readDeltas(in, iv.count, b.windowStartNs);
      iv.end = Varint.readDeltas(in, iv.count, b.windowStartNs);
      iv.tid = Varint.readInts(in, iv.count);
      iv.pid = Varint.readInts(in, iv.count);
      b.intervals = iv;
      if (in.readBoolean()) {
        b.sampleFlags = new byte[b.sampleCount];
        in.readFully(b.sampleFlags);
      }
    }
    int healthCount = Varint.readInt(in);
    b.health = new TreeMap<>();
    for (int i = 0; i < healthCount; i++) {
      b.health.put(in.readUTF(), Varint.readLong(in));
    }
    return b;
  }

  private static void encodeState(CpuState s, DataOutputStream out) throws IOException {
    out.writeByte(s.kind.ordinal());
    Varint.writeInt(out, s.tid);
    Varint.writeInt(out, s.pid);
    Varint.writeLong(out, s.sinceNs);
    Varint.writeLong(out, s.lastEvidenceNs);
    Varint.writeInt(out, s.wakeTids.length);
    Varint.writeInts(out, s.wakeTids, s.wakeTids.length);
    Varint.writeLongs(out, s.wakeTimes, s.wakeTimes.length);
  }

  private static CpuState decodeState(DataInputStream in) throws IOException {
    CpuState s = new CpuState();
    s.kind = CpuState.Kind.values()[in.readByte()];
    s.tid = Varint.readInt(in);
    s.pid = Varint.readInt(in);
    s.sinceNs = Varint.readLong(in);
    s.lastEvidenceNs = Varint.readLong(in);
    int n = Varint.readInt(in);
    s.wakeTids = Varint.readInts(in, n);
    s.wakeTimes = Varint.readLongs(in, n);
    return s;
  }

  /** Like writeUTF, but for strings of any length (symbols of templated C++ can be long). */
  static void writeString(DataOutputStream out, String s) throws IOException {
    byte[] bytes = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    Varint.writeInt(out, bytes.length);
    out.write(bytes);
  }

  static String readString(DataInputStream in) throws IOException {
    byte[] bytes = new byte[Varint.readInt(in)];
    in.readFully(bytes);
    return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
  }

  @Override
  public void verifyDeterministic() {}
}
