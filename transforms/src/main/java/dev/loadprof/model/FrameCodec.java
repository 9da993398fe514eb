package dev.loadprof.model;

import dev.loadprof.codec.Varint;
import dev.loadprof.schemas.FrameRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The one place a {@link Frame}'s fields are written and read: in the Beam coders (block stack
 * tables and process accumulators) and in the archive's FrameRecord. A new frame field is added
 * here and in the schema.
 */
public final class FrameCodec {
  private FrameCodec() {}

  /** The number of frames, then each frame. */
  public static void writeTable(Collection<Frame> frames, Varint.Sink out) {
    out.writeInt(frames.size());
    for (Frame f : frames) {
      out.writeString(f.symbol());
      out.writeString(f.dso());
    }
  }

  public static Frame[] readTable(Varint.Source in) throws IOException {
    Frame[] frames = new Frame[in.readInt()];
    for (int i = 0; i < frames.length; i++) {
      frames[i] = new Frame(in.readString(), in.readString());
    }
    return frames;
  }

  public static List<FrameRecord> toRecords(Frame[] frames) {
    List<FrameRecord> records = new ArrayList<>(frames.length);
    for (Frame f : frames) {
      records.add(new FrameRecord(f.symbol(), f.dso()));
    }
    return records;
  }

  public static Frame[] fromRecords(List<FrameRecord> records) {
    Frame[] frames = new Frame[records.size()];
    for (int i = 0; i < frames.length; i++) {
      frames[i] = new Frame(records.get(i).getSymbol(), records.get(i).getDso());
    }
    return frames;
  }
}
