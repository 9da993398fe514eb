package dev.loadprof.model;

import dev.loadprof.codec.ColumnBytes;
import dev.loadprof.codec.Varint;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * One column of a {@link ColumnGroup}: its field name in the archive schema, how its values are
 * encoded, and which array of the group holds them. Every encoding (Beam coder, Avro archive)
 * goes through here, so the two can never list the columns differently.
 */
abstract class Column<G> {
  final String name;

  private Column(String name) {
    this.name = name;
  }

  static <G> Column<G> ints(String name, Function<G, int[]> get, BiConsumer<G, int[]> set) {
    return new IntColumn<>(name, get, set);
  }

  /**
   * An int column added after archives were first written: an older archive's empty field reads
   * as UNKNOWN_ID for every row.
   */
  static <G> Column<G> intsOrUnknown(String name, Function<G, int[]> get,
      BiConsumer<G, int[]> set) {
    return new IntColumn<>(name, get, set) {
      @Override
      void fromBytes(G group, ByteBuffer bytes, int count, long base) {
        if (count > 0 && !bytes.hasRemaining()) {
          int[] unknown = new int[count];
          Arrays.fill(unknown, TraceEventSink.UNKNOWN_ID);
          set.accept(group, unknown);
          return;
        }
        super.fromBytes(group, bytes, count, base);
      }
    };
  }

  static <G> Column<G> longs(String name, Function<G, long[]> get, BiConsumer<G, long[]> set) {
    return new LongColumn<>(name, false, get, set);
  }

  /** Sorted times: stored as deltas, the first from the window start, so each takes 1-3 bytes. */
  static <G> Column<G> times(String name, Function<G, long[]> get, BiConsumer<G, long[]> set) {
    return new LongColumn<>(name, true, get, set);
  }

  /** Gives the column an array of {@code length}, keeping the first {@code count} values. */
  abstract void resize(G group, int length, G into);

  abstract boolean equal(G a, G b, int count);

  /** Sets into's column to group's rows in the given order. */
  abstract void permute(G group, int[] order, G into);

  abstract boolean rowsEqual(G group, int i, int j);

  abstract void write(G group, int count, long base, Varint.Sink out);

  abstract void read(G group, int count, long base, Varint.Source in) throws IOException;

  abstract ByteBuffer toBytes(G group, int count, long base);

  /** @throws IllegalArgumentException naming the column when the bytes do not hold count values */
  abstract void fromBytes(G group, ByteBuffer bytes, int count, long base);

  /** A column held in a primitive array of type A (int[] or long[]). */
  private abstract static class ArrayColumn<G, A> extends Column<G> {
    final Function<G, A> get;
    final BiConsumer<G, A> set;

    ArrayColumn(String name, Function<G, A> get, BiConsumer<G, A> set) {
      super(name);
      this.get = get;
      this.set = set;
    }

    abstract A copyOf(A values, int length);

    abstract boolean equalPrefix(A a, A b, int count);

    @Override
    final void resize(G group, int length, G into) {
      set.accept(into, copyOf(get.apply(group), length));
    }

    @Override
    final boolean equal(G a, G b, int count) {
      return equalPrefix(get.apply(a), get.apply(b), count);
    }
  }

  private static class IntColumn<G> extends ArrayColumn<G, int[]> {
    IntColumn(String name, Function<G, int[]> get, BiConsumer<G, int[]> set) {
      super(name, get, set);
    }

    @Override
    int[] copyOf(int[] values, int length) {
      return Arrays.copyOf(values, length);
    }

    @Override
    boolean equalPrefix(int[] a, int[] b, int count) {
      return Arrays.equals(a, 0, count, b, 0, count);
    }

    @Override
    void permute(G group, int[] order, G into) {
      int[] from = get.apply(group);
      int[] to = new int[order.length];
      for (int i = 0; i < order.length; i++) {
        to[i] = from[order[i]];
      }
      set.accept(into, to);
    }

    @Override
    boolean rowsEqual(G group, int i, int j) {
      int[] values = get.apply(group);
      return values[i] == values[j];
    }

    @Override
    void write(G group, int count, long base, Varint.Sink out) {
      out.writeInts(get.apply(group), count);
    }

    @Override
    void read(G group, int count, long base, Varint.Source in) throws IOException {
      set.accept(group, in.readInts(count));
    }

    @Override
    ByteBuffer toBytes(G group, int count, long base) {
      return ColumnBytes.ints(get.apply(group), count);
    }

    @Override
    void fromBytes(G group, ByteBuffer bytes, int count, long base) {
      set.accept(group, ColumnBytes.readInts(bytes, count, name));
    }
  }

  private static final class LongColumn<G> extends ArrayColumn<G, long[]> {
    private final boolean deltas;

    LongColumn(String name, boolean deltas, Function<G, long[]> get, BiConsumer<G, long[]> set) {
      super(name, get, set);
      this.deltas = deltas;
    }

    @Override
    long[] copyOf(long[] values, int length) {
      return Arrays.copyOf(values, length);
    }

    @Override
    boolean equalPrefix(long[] a, long[] b, int count) {
      return Arrays.equals(a, 0, count, b, 0, count);
    }

    @Override
    void permute(G group, int[] order, G into) {
      long[] from = get.apply(group);
      long[] to = new long[order.length];
      for (int i = 0; i < order.length; i++) {
        to[i] = from[order[i]];
      }
      set.accept(into, to);
    }

    @Override
    boolean rowsEqual(G group, int i, int j) {
      long[] values = get.apply(group);
      return values[i] == values[j];
    }

    @Override
    void write(G group, int count, long base, Varint.Sink out) {
      if (deltas) {
        out.writeDeltas(get.apply(group), count, base);
      } else {
        out.writeLongs(get.apply(group), count);
      }
    }

    @Override
    void read(G group, int count, long base, Varint.Source in) throws IOException {
      set.accept(group, deltas ? in.readDeltas(count, base) : in.readLongs(count));
    }

    @Override
    ByteBuffer toBytes(G group, int count, long base) {
      long[] values = get.apply(group);
      return deltas ? ColumnBytes.deltas(values, count, base) : ColumnBytes.longs(values, count);
    }

    @Override
    void fromBytes(G group, ByteBuffer bytes, int count, long base) {
      set.accept(group, deltas ? ColumnBytes.readDeltas(bytes, count, base, name)
          : ColumnBytes.readLongs(bytes, count, name));
    }
  }
}
