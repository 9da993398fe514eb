package dev.loadprof.model;

import dev.loadprof.codec.ColumnBytes;
import dev.loadprof.codec.Varint;
import dev.loadprof.schemas.EventBlockRecord;
import dev.loadprof.schemas.FrameRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The one place a {@link Frame}'s fields are written and read: in the Beam coders (block stack
 * tables and process accumulators) and in the archive (FrameRecord and the frame_addresses
 * column). A new frame field is added here and in the schema.
 */
public final class FrameCodec {
  private FrameCodec() {}

  /** The number of frames, then each frame. */
  public static void writeTable(Collection<Frame> frames, Varint.Sink out) {
    out.writeInt(frames.size());
    for (Frame f : frames) {
      out.writeString(f.symbol());
      out.writeString(f.dso());
      out.writeLong(f.address());
    }
  }

  public static Frame[] readTable(Varint.Source in) throws IOException {
    Frame[] frames = new Frame[in.readInt()];
    for (int i = 0; i < frames.length; i++) {
      frames[i] = new Frame(in.readString(), in.readString(), in.readLong());
    }
    return frames;
  }

  /** Sets the record's frames and frame_addresses. */
  public static void toRecord(Frame[] frames, EventBlockRecord r) {
    List<FrameRecord> records = new ArrayList<>(frames.length);
    long[] addresses = new long[frames.length];
    for (int i = 0; i < frames.length; i++) {
      records.add(new FrameRecord(frames[i].symbol(), frames[i].dso()));
      addresses[i] = frames[i].address();
    }
    r.setFrames(records);
    r.setFrameAddresses(ColumnBytes.longs(addresses, addresses.length));
  }

  /** The record's frames with their addresses. */
  public static Frame[] fromRecord(EventBlockRecord r) {
    List<FrameRecord> records = r.getFrames();
    // Archives written before frames had addresses hold an empty column: every address is 0.
    long[] addresses = r.getFrameAddresses().hasRemaining()
        ? ColumnBytes.readLongs(r.getFrameAddresses(), records.size(), "frame_addresses")
        : new long[records.size()];
    Frame[] frames = new Frame[records.size()];
    for (int i = 0; i < frames.length; i++) {
      frames[i] = new Frame(records.get(i).getSymbol(), records.get(i).getDso(), addresses[i]);
    }
    return frames;
  }
}
