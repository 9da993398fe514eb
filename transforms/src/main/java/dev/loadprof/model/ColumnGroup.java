package dev.loadprof.model;

import dev.loadprof.codec.Varint;
import java.io.IOException;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.apache.avro.generic.GenericRecord;

/**
 * Parallel columns with one row count, such as a block's samples: rows are appended while a
 * block is built, and the group is then trimmed to its count. The group owns everything done to
 * all of its columns at once (growing, trimming, equality, the Beam coder encoding and the Avro
 * archive conversion) so that a new column is one entry in {@link #columns()} and one field in
 * the schema, not an edit in every encoder.
 *
 * <p>Times are encoded relative to a base (the window start) that the block passes in.
 */
public abstract class ColumnGroup<G extends ColumnGroup<G>> implements Serializable {
  /** Rows in use; the arrays may be longer while the group is being filled. */
  public int count;
  private int capacity;

  /**
   * What a kind of group is made of: the archive field holding its count, how to make an empty
   * one, and its columns in encoding order (the order of the archive schema's fields).
   */
  record Layout<G>(String countField, Supplier<G> empty, List<Column<G>> columns) {}

  abstract Layout<G> layout();

  private List<Column<G>> columns() {
    return layout().columns();
  }

  @SuppressWarnings("unchecked")
  private G self() {
    return (G) this;
  }

  /** Makes room for one more row at index {@link #count}. */
  final void ensureRoom() {
    if (count == capacity) {
      capacity = Math.max(8, count * 2);
      for (Column<G> c : columns()) {
        c.resize(self(), capacity, self());
      }
    }
  }

  /** A copy whose arrays hold exactly {@link #count} rows. */
  public final G trimmed() {
    G t = layout().empty().get();
    ColumnGroup<G> copy = t;
    copy.count = count;
    copy.capacity = count;
    for (Column<G> c : columns()) {
      c.resize(self(), count, t);
    }
    return t;
  }

  /**
   * A trimmed copy with the rows in time order (a stable sort, so rows at equal times keep their
   * order) and without rows equal in every column to the row before: one CPU never records two
   * identical events, so such a row is a duplicate. {@code times} is this group's time column.
   */
  public final G inTimeOrderWithoutRepeats(long[] times) {
    boolean sorted = true;
    for (int i = 1; i < count && sorted; i++) {
      sorted = times[i - 1] <= times[i];
    }
    Integer[] byTime = null;
    if (!sorted) {
      byTime = new Integer[count];
      for (int i = 0; i < count; i++) {
        byTime[i] = i;
      }
      Arrays.sort(byTime, (a, b) -> Long.compare(times[a], times[b]));
    }
    int[] order = new int[count];
    int kept = 0;
    for (int i = 0; i < count; i++) {
      int row = byTime == null ? i : byTime[i];
      if (kept == 0 || !rowsEqual(order[kept - 1], row)) {
        order[kept++] = row;
      }
    }
    if (sorted && kept == count) {
      return trimmed();
    }
    G t = layout().empty().get();
    ColumnGroup<G> copy = t;
    copy.count = kept;
    copy.capacity = kept;
    int[] keptRows = Arrays.copyOf(order, kept);
    for (Column<G> c : columns()) {
      c.permute(self(), keptRows, t);
    }
    return t;
  }

  private boolean rowsEqual(int i, int j) {
    for (Column<G> c : columns()) {
      if (!c.rowsEqual(self(), i, j)) {
        return false;
      }
    }
    return true;
  }

  /** Writes the count, then each column (Beam coder encoding). */
  public final void write(Varint.Sink out, long base) {
    out.writeInt(count);
    for (Column<G> c : columns()) {
      c.write(self(), count, base, out);
    }
  }

  /** Reads what {@link #write} wrote into this (empty) group. */
  public final G read(Varint.Source in, long base) throws IOException {
    count = in.readInt();
    capacity = count;
    for (Column<G> c : columns()) {
      c.read(self(), count, base, in);
    }
    return self();
  }

  /** Puts the count and each column into the archive record's fields of the same names. */
  public final void toRecord(GenericRecord record, long base) {
    record.put(layout().countField(), count);
    for (Column<G> c : columns()) {
      record.put(c.name, c.toBytes(self(), count, base));
    }
  }

  /**
   * Reads the count and columns from an archive record into this (empty) group.
   *
   * @throws IllegalArgumentException naming the column when a column does not hold count values
   */
  public final G fromRecord(GenericRecord record, long base) {
    count = (Integer) record.get(layout().countField());
    capacity = count;
    for (Column<G> c : columns()) {
      c.fromBytes(self(), (ByteBuffer) record.get(c.name), count, base);
    }
    return self();
  }

  @Override
  public final boolean equals(Object o) {
    if (o == null || o.getClass() != getClass()) {
      return false;
    }
    @SuppressWarnings("unchecked")
    G other = (G) o;
    if (count != other.count) {
      return false;
    }
    for (Column<G> c : columns()) {
      if (!c.equal(self(), other, count)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public final int hashCode() {
    return getClass().hashCode() * 31 + count;
  }
}
