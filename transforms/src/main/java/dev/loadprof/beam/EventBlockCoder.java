package dev.loadprof.beam;

import dev.loadprof.codec.Varint;
import dev.loadprof.model.CpuState;
import dev.loadprof.model.EventBlock;
import dev.loadprof.model.Intervals;
import dev.loadprof.model.StackTable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.CoderException;

/**
 * Encodes an {@link EventBlock} column by column with delta-coded times and variable-length
 * integers: blocks cross every shuffle, so their size and encoding cost matter. The column
 * groups encode themselves ({@link dev.loadprof.model.ColumnGroup}); this writes the header.
 */
public final class EventBlockCoder extends AtomicCoder<EventBlock> {
  private static final EventBlockCoder INSTANCE = new EventBlockCoder();
  private static final int VERSION = 2;

  public static EventBlockCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(EventBlock b, OutputStream outStream) throws IOException {
    Varint.Sink out = new Varint.Sink(64 + 24 * b.samples.count + 24 * b.switches.count);
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
    out.writeBoolean(b.threadLane);
    encodeState(b.carryIn, out);

    b.samples.write(out, b.windowStartNs);
    b.switches.write(out, b.windowStartNs);
    b.wakeups.write(out, b.windowStartNs);
    b.stackTable.write(out);
    out.writeBoolean(b.intervals != null);
    if (b.intervals != null) {
      b.intervals.write(out, b.windowStartNs);
      out.writeBoolean(b.sampleFlags != null);
      if (b.sampleFlags != null) {
        out.writeBytes(b.sampleFlags, b.samples.count);
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
    b.threadLane = in.readBoolean();
    b.carryIn = decodeState(in);

    b.samples.read(in, b.windowStartNs);
    b.switches.read(in, b.windowStartNs);
    b.wakeups.read(in, b.windowStartNs);
    b.stackTable = StackTable.read(in);
    if (in.readBoolean()) {
      b.intervals = new Intervals().read(in, b.windowStartNs);
      if (in.readBoolean()) {
        b.sampleFlags = in.readBytes(b.samples.count);
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
    out.writeLong(s.lastTickNs);
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
    s.lastTickNs = in.readLong();
    int n = in.readInt();
    s.wakeTids = in.readInts(n);
    s.wakeTimes = in.readLongs(n);
    return s;
  }

  @Override
  public void verifyDeterministic() {}
}
