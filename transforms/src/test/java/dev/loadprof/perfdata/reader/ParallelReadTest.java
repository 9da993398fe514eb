package dev.loadprof.perfdata.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.perfdata.symbols.SymbolSources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A read with its samples decoded on several threads sends the sink exactly what a read on one
 * thread sends: the same events in the same order, each frame resolved in the maps its process
 * had at the sample's place (printed addresses and objects come from the maps, even without
 * symbols). Small batches so that the shipped file makes many of them.
 */
class ParallelReadTest {
  @TempDir Path dir;

  private Path shipped() throws IOException {
    return ShippedPerfDataTest.shipped(dir);
  }

  private SymbolSources nowhere() throws IOException {
    return ShippedPerfDataTest.nowhere(dir);
  }

  @Test
  void manyThreadsSendWhatOneSends() throws Exception {
    Path data = shipped();
    SinkLog one = new SinkLog();
    NativePerfDataReader.open(data, nowhere()).read(one, 1);
    assertTrue(one.calls.size() > 100, "events: " + one.calls.size());
    for (int batch : new int[] {1, 3, 17, 2048}) {
      SinkLog many = new SinkLog();
      NativePerfDataReader.open(data, nowhere()).read(many, 3, batch);
      assertEquals(String.join("\n", one.calls), String.join("\n", many.calls),
          "batches of " + batch);
      assertEquals(String.join("\n", one.symbols), String.join("\n", many.symbols),
          "batches of " + batch);
    }
  }

  @Test
  void aDamagedFileEndsTheSameOnManyThreads() throws Exception {
    byte[] bytes = Files.readAllBytes(shipped());
    java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    long at = b.getLong(40);
    long middle = at + b.getLong(48) / 2;
    while (at < middle) {
      at += Short.toUnsignedInt(b.getShort((int) at + 6));
    }
    bytes[(int) at + 6] = 3; // a record size below the header's: the data is damaged here
    bytes[(int) at + 7] = 0;
    Path damaged = dir.resolve("damaged.data");
    Files.write(damaged, bytes);
    SinkLog one = new SinkLog();
    NativePerfDataReader.open(damaged, nowhere()).read(one, 1);
    SinkLog many = new SinkLog();
    NativePerfDataReader.open(damaged, nowhere()).read(many, 2, 5);
    assertEquals(String.join("\n", one.calls), String.join("\n", many.calls));
    assertTrue(many.calls.stream().anyMatch(c -> c.startsWith("malformed ")
        && c.contains("damaged")));
  }

  @Test
  void aSinkThatFailsStopsTheRead() throws Exception {
    SinkLog failing = new SinkLog() {
      @Override
      public void exit(long timeNs, int pid, int tid) {
        throw new IllegalStateException("sink failed");
      }
    };
    IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(
        IllegalStateException.class,
        () -> NativePerfDataReader.open(shipped(), nowhere()).read(failing, 2, 4));
    assertEquals("sink failed", e.getMessage());
  }

  /**
   * The shipped file with its records replaced: one process's code at the same address mapped
   * from "/a", then "/b", then "/a" again, ..., a sample in it after each map. Every sample must
   * be resolved in the map made just before it, however far ahead the records were read.
   */
  @Test
  void eachSampleIsResolvedInTheMapsOfItsPlace() throws Exception {
    Path data = shipped();
    PerfDataFile file = PerfDataFile.open(data);
    byte[] bytes = Files.readAllBytes(data);
    RecordFields fields = new RecordFields(file.attrs, file.attrById);
    byte[] mmap = null;
    byte[] sample = null;
    int pid = 0;
    for (long at = file.dataOffset; at < file.dataOffset + file.dataSize; ) {
      int size = Short.toUnsignedInt(java.nio.ByteBuffer.wrap(bytes, (int) at + 6, 2)
          .order(java.nio.ByteOrder.LITTLE_ENDIAN).getShort());
      byte[] record = java.util.Arrays.copyOfRange(bytes, (int) at, (int) at + size);
      java.nio.ByteBuffer b = le(record);
      if (b.getInt(0) == RecordDispatcher.MMAP2 && mmap == null && size >= 96) {
        mmap = record;
      } else if (b.getInt(0) == RecordFields.SAMPLE && sample == null && fields.sample(b)
          && !fields.attr.isTracepoint() && fields.callchainLength >= 2 && fields.pid > 0) {
        sample = record;
        pid = fields.pid;
      }
      at += size;
    }
    assertTrue(mmap != null && sample != null);
    long address = 0x5000_0000L;
    java.io.ByteArrayOutputStream records = new java.io.ByteArrayOutputStream();
    long time = fields.orderTime(le(sample)) + 1000;
    int rounds = 40;
    for (int i = 0; i < rounds; i++) {
      // the MMAP2 of "/a" or "/b" as the kernel writes it: its name padded to 8 bytes
      fields.trailer(le(mmap));
      int trailer = fields.attr.idTrailerBytes();
      byte[] m = new byte[72 + 8 + trailer];
      System.arraycopy(mmap, 0, m, 0, 72);
      System.arraycopy(mmap, mmap.length - trailer, m, 80, trailer);
      java.nio.ByteBuffer mb = le(m);
      mb.putShort(6, (short) m.length);
      mb.putInt(8, pid).putInt(12, pid).putLong(16, address).putLong(24, 0x1000)
          .putLong(32, 0);
      m[72] = '/';
      m[73] = (byte) (i % 2 == 0 ? 'a' : 'b');
      retime(m, fields, time++);
      records.write(m);
      byte[] s = sample.clone();
      fields.sample(le(s));
      java.nio.ByteBuffer sb = le(s);
      sb.putLong(fields.callchainAt, -512L); // PERF_CONTEXT_USER
      for (int k = 1; k < fields.callchainLength; k++) {
        sb.putLong(fields.callchainAt + k * 8, address + 0x10 + k);
      }
      retime(s, fields, time++);
      records.write(s);
    }
    byte[] made = records.toByteArray();
    int left = (int) file.dataSize - made.length;
    assertTrue(left >= 0 && left % 8 == 0, "room left " + left);
    System.arraycopy(made, 0, bytes, (int) file.dataOffset, made.length);
    for (int at = (int) file.dataOffset + made.length; at < file.dataOffset + file.dataSize;
        at += 8) {
      le(bytes).putInt(at, 68).putShort(at + 4, (short) 0).putShort(at + 6, (short) 8);
    }
    Path remapped = dir.resolve("remapped.data");
    Files.write(remapped, bytes);

    SinkLog one = new SinkLog();
    NativePerfDataReader.open(remapped, nowhere()).read(one, 1);
    assertEquals(rounds, one.symbols.size(), String.join("\n", one.calls));
    for (int i = 0; i < rounds; i++) {
      String dso = i % 2 == 0 ? "(/a)" : "(/b)";
      assertTrue(one.symbols.get(i).startsWith("[unknown] " + dso), one.symbols.get(i));
    }
    for (int batch : new int[] {1, 2, 5}) {
      SinkLog many = new SinkLog();
      NativePerfDataReader.open(remapped, nowhere()).read(many, 3, batch);
      assertEquals(one.calls, many.calls);
      assertEquals(one.symbols, many.symbols);
    }
  }

  private static java.nio.ByteBuffer le(byte[] bytes) {
    return java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN);
  }

  /** Sets the time perf orders {@code record} by (found where its fields say it is). */
  private static void retime(byte[] record, RecordFields fields, long time) {
    long old = fields.orderTime(le(record));
    int at = -1;
    for (int p = 8; p + 8 <= record.length; p += 8) {
      if (le(record).getLong(p) == old) {
        at = p; // the last match: a trailer's time is near the end
      }
    }
    assertTrue(at > 0, "time not found");
    le(record).putLong(at, time);
    assertEquals(time, fields.orderTime(le(record)));
  }
}
