package dev.loadprof.model;

import dev.loadprof.codec.ColumnBytes;
import dev.loadprof.codec.Varint;
import dev.loadprof.schemas.EventBlockRecord;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A block's stack table: the distinct frames of its samples, and each distinct stack as frame
 * indices, leaf first. Samples refer to stacks by index, so a stack seen many times is stored
 * once per block.
 */
public final class StackTable implements Serializable {
  public Frame[] frames = new Frame[0];
  public int[][] stacks = new int[0][];
  /**
   * The stacks as the builder interned them (their hashes computed once), by id, or null: a table
   * read from a coder or an archive has none, and a table whose arrays are replaced drops them.
   */
  private transient CallStack[] callStacks;
  /** The arrays the interned stacks were made for: they hold only while these stay. */
  private transient Frame[] callStacksFrames;
  private transient int[][] callStacksOf;

  /**
   * Stack {@code id} as a value, leaf first: the one the builder interned while the block was
   * filled, or else a new one of {@link #framesOf}. Equal either way.
   */
  public CallStack callStack(int id) {
    if (callStacks != null && callStacksOf == stacks && callStacksFrames == frames) {
      return callStacks[id];
    }
    return new CallStack(framesOf(id));
  }

  /** The frames of stack {@code id}, leaf first. */
  public Frame[] framesOf(int id) {
    int[] ids = stacks[id];
    Frame[] out = new Frame[ids.length];
    for (int f = 0; f < ids.length; f++) {
      out[f] = frames[ids[f]];
    }
    return out;
  }

  /** The frames, then each stack's length and frame indices (Beam coder encoding). */
  public void write(Varint.Sink out) {
    FrameCodec.writeTable(Arrays.asList(frames), out);
    out.writeInt(stacks.length);
    for (int[] stack : stacks) {
      out.writeInt(stack.length);
      out.writeInts(stack, stack.length);
    }
  }

  public static StackTable read(Varint.Source in) throws IOException {
    StackTable t = new StackTable();
    t.frames = FrameCodec.readTable(in);
    t.stacks = new int[in.readInt()][];
    for (int i = 0; i < t.stacks.length; i++) {
      t.stacks[i] = in.readInts(in.readInt());
    }
    return t;
  }

  /** The table as archive fields: the frames, and the stacks as two flat columns. */
  public void toRecord(EventBlockRecord r) {
    // Each stack's length, then all frame ids in a row.
    int[] lengths = new int[stacks.length];
    int total = 0;
    for (int i = 0; i < stacks.length; i++) {
      lengths[i] = stacks[i].length;
      total += lengths[i];
    }
    int[] frameIds = new int[total];
    int at = 0;
    for (int[] stack : stacks) {
      System.arraycopy(stack, 0, frameIds, at, stack.length);
      at += stack.length;
    }
    FrameCodec.toRecord(frames, r);
    r.setStackCount(stacks.length);
    r.setStackLengths(ColumnBytes.ints(lengths, lengths.length));
    r.setStackFrames(ColumnBytes.ints(frameIds, total));
  }

  /**
   * The table of an archive record.
   *
   * @throws IllegalArgumentException when a stack refers to a frame the table does not have
   */
  public static StackTable fromRecord(EventBlockRecord r) {
    StackTable t = new StackTable();
    t.frames = FrameCodec.fromRecord(r);
    int[] lengths = ColumnBytes.readInts(r.getStackLengths(), r.getStackCount(), "stack_lengths");
    long total = 0;
    for (int length : lengths) {
      if (length < 0) {
        throw new IllegalArgumentException("column stack_lengths holds " + length);
      }
      total += length;
    }
    int[] frameIds = ColumnBytes.readInts(r.getStackFrames(), (int) Math.min(total,
        Integer.MAX_VALUE), "stack_frames");
    int at = 0;
    t.stacks = new int[lengths.length][];
    for (int i = 0; i < lengths.length; i++) {
      int[] stack = new int[lengths[i]];
      for (int k = 0; k < stack.length; k++) {
        stack[k] = frameIds[at++];
        if (stack[k] < 0 || stack[k] >= t.frames.length) {
          throw new IllegalArgumentException("stack frame index " + stack[k] + " is outside the "
              + t.frames.length + " frames of the block");
        }
      }
      t.stacks[i] = stack;
    }
    return t;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StackTable t && Arrays.equals(frames, t.frames)
        && Arrays.deepEquals(stacks, t.stacks);
  }

  @Override
  public int hashCode() {
    return frames.length * 31 + stacks.length;
  }

  /** Interns frames and stacks while a block is filled. */
  public static final class Builder {
    private final Map<Frame, Integer> frameIds = new HashMap<>();
    private final List<Frame> frames = new ArrayList<>();
    private final Map<CallStack, Integer> stackIds = new HashMap<>();
    private final List<int[]> stacks = new ArrayList<>();
    private final List<CallStack> callStacks = new ArrayList<>();

    /** The id of this stack in the table, adding it (and its new frames) when it is new. */
    public int idOf(Frame[] stack) {
      CallStack key = new CallStack(stack);
      Integer id = stackIds.get(key);
      if (id != null) {
        return id;
      }
      int[] ids = new int[stack.length];
      for (int i = 0; i < stack.length; i++) {
        Integer f = frameIds.get(stack[i]);
        if (f == null) {
          f = frames.size();
          frames.add(stack[i]);
          frameIds.put(stack[i], f);
        }
        ids[i] = f;
      }
      stacks.add(ids);
      callStacks.add(key);
      stackIds.put(key, stacks.size() - 1);
      return stacks.size() - 1;
    }

    public StackTable build() {
      StackTable t = new StackTable();
      t.frames = frames.toArray(new Frame[0]);
      t.stacks = stacks.toArray(new int[0][]);
      t.callStacks = callStacks.toArray(new CallStack[0]);
      t.callStacksOf = t.stacks;
      t.callStacksFrames = t.frames;
      return t;
    }
  }
}
