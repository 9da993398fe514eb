package dev.loadprof.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.loadprof.codec.Varint;
import dev.loadprof.schemas.EventBlockRecord;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** A column group grows, trims, compares and encodes all of its columns together. */
class ColumnGroupTest {
  private static Switches switches(int n) {
    Switches s = new Switches();
    for (int i = 0; i < n; i++) {
      s.add(1_000 + 10L * i, i, 100 + i, i + 1, 200 + i);
    }
    return s;
  }

  @Test
  void growsPastItsCapacityAndTrimsToItsCount() {
    Switches s = switches(37);
    Switches t = s.trimmed();
    assertEquals(37, t.count);
    assertEquals(37, t.nextPid.length);
    assertEquals(s, t, "equality looks at the rows in use only");
    assertArrayEquals(new int[] {136, 236}, new int[] {t.prevPid[36], t.nextPid[36]});
    t.add(5_000, 1, 2, 3, 4);
    assertEquals(38, t.count, "a trimmed group can still grow");
    assertNotEquals(s, t);
  }

  @Test
  void coderAndArchiveEncodingsRoundTripEveryColumn() throws IOException {
    Switches s = switches(20);
    Varint.Sink out = new Varint.Sink(16);
    s.write(out, 900);
    Switches back = new Switches().read(new Varint.Source(toBytes(out)), 900);
    assertEquals(s, back);

    EventBlockRecord r = new EventBlockRecord();
    s.toRecord(r, 900);
    assertEquals(20, r.getSwitchCount());
    assertEquals(s, new Switches().fromRecord(r, 900));
  }

  @Test
  void anArchiveWrittenBeforeSampleCpusWereKeptReadsThemAsUnknown() {
    Samples s = new Samples();
    s.add(1_000, 7, 7, 250_000, 0, 1);
    s.add(2_000, 8, 7, 250_000, 0, 0);
    EventBlockRecord r = new EventBlockRecord();
    s.toRecord(r, 900);
    assertEquals(s, new Samples().fromRecord(r, 900));
    r.put("sample_cpu", java.nio.ByteBuffer.allocate(0)); // the schema's default
    assertArrayEquals(new int[] {TraceEventSink.UNKNOWN_ID, TraceEventSink.UNKNOWN_ID},
        new Samples().fromRecord(r, 900).cpu);
  }

  private static byte[] toBytes(Varint.Sink out) {
    java.nio.ByteBuffer b = out.toByteBuffer();
    byte[] bytes = new byte[b.remaining()];
    b.get(bytes);
    return bytes;
  }
}
