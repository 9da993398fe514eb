package dev.loadprof.perfdata.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.model.TraceHealth;
import dev.loadprof.parse.PerfScriptParser;
import dev.loadprof.perfdata.PerfDataHeader;
import dev.loadprof.perfdata.symbols.SymbolSources;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The format, on a small perf.data shipped with the tests (recorded on the project's VM:
 * {@code perf record -k mono -g -e cpu-clock -e sched:sched_switch -e sched:sched_wakeup --
 * mixed 3}, so its events have different sample types: the tracepoints carry the CPU, cpu-clock
 * does not). Its expected events are perf script's, read by the text parser when the file was
 * made ({@link #main} writes them again); frame names are not compared, since they need the
 * recorded binaries.
 */
class ShippedPerfDataTest {
  private static final String DATA = "/perfdata/tiny-mixed.data.gz";
  private static final String EXPECTED = "/perfdata/tiny-mixed.calls.txt";

  @TempDir Path dir;

  private Path shipped() throws IOException {
    return shipped(dir);
  }

  /** The shipped file, unpacked into {@code dir}. */
  static Path shipped(Path dir) throws IOException {
    Path data = dir.resolve("tiny-mixed.data");
    try (InputStream in = new GZIPInputStream(
        ShippedPerfDataTest.class.getResourceAsStream(DATA))) {
      Files.write(data, in.readAllBytes());
    }
    return data;
  }

  private SymbolSources nowhere() throws IOException {
    return nowhere(dir);
  }

  /** Symbols from empty places: every frame is [unknown], and nothing of this machine is read. */
  static SymbolSources nowhere(Path dir) throws IOException {
    Path empty = Files.createDirectories(dir.resolve("empty"));
    return new SymbolSources(empty, empty, empty.resolve("kallsyms"), empty);
  }

  @Test
  void sendsTheEventsPerfScriptPrints() throws Exception {
    SinkLog log = new SinkLog();
    NativePerfDataReader.open(shipped(), nowhere()).read(log);
    String expected;
    try (InputStream in = getClass().getResourceAsStream(EXPECTED)) {
      expected = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertEquals(expected, String.join("\n", log.calls) + "\n");
    assertTrue(log.counts.get("switch") > 10 && log.counts.get("wakeup") > 10, log.counts.toString());
  }

  @Test
  void namesEventsAndReadsTheHeaderFeatures() throws Exception {
    NativePerfDataReader reader = NativePerfDataReader.open(shipped(), nowhere());
    PerfDataHeader header = reader.header();
    assertTrue(header.samplesHaveCpu() && header.hasTracepoints());
    assertEquals(2, header.cpus());
    assertTrue(reader.buildIds().keySet().stream().anyMatch(p -> p.endsWith("/mixed")),
        reader.buildIds().toString());
    dev.loadprof.model.RunInfo run = new dev.loadprof.model.RunInfo();
    reader.describeRun(run);
    assertEquals("vm", run.host);
  }

  @Test
  void aDamagedRecordIsMeasuredAndReadingGoesOnAfterIt() throws Exception {
    Path whole = shipped();
    byte[] bytes = Files.readAllBytes(whole);
    ByteBuffer header = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    long dataOffset = header.getLong(40);
    long dataSize = header.getLong(48);
    // Damage a record's size in the middle of the data: a size below the record header's.
    int middle = (int) findRecordNear(bytes, dataOffset, dataOffset + dataSize / 2);
    int size = Short.toUnsignedInt(header.getShort(middle + 6));
    bytes[middle + 6] = 3;
    bytes[middle + 7] = 0;
    Path damaged = dir.resolve("damaged.data");
    Files.write(damaged, bytes);
    SinkLog log = new SinkLog();
    NativePerfDataReader reader = NativePerfDataReader.open(damaged, nowhere());
    reader.read(log);
    List<String> reports = log.calls.stream().filter(c -> c.startsWith("malformed ")).toList();
    assertEquals(1, reports.size(), reports.toString());
    assertTrue(reports.get(0).contains("record at byte " + middle + ": record of size 3: "
        + size + " bytes up to byte " + (middle + size)) && reports.get(0).contains("damaged"),
        reports.get(0));
    // The records after the damaged one are read: the last event is the file's last.
    SinkLog intact = new SinkLog();
    NativePerfDataReader.open(whole, nowhere()).read(intact);
    assertEquals(intact.calls.get(intact.calls.size() - 1), log.calls.get(log.calls.size() - 1));
    dev.loadprof.model.RunInfo run = new dev.loadprof.model.RunInfo();
    reader.describeRun(run);
    assertEquals(size, run.health.get(TraceHealth.PERF_DATA_UNREAD_BYTES));
    assertEquals(1, run.health.get(TraceHealth.PERF_DATA_UNREAD_RECORDS));
    assertEquals(middle, run.health.get(TraceHealth.PERF_DATA_FIRST_UNREAD_BYTE));
    assertEquals(dataSize, run.health.get(TraceHealth.PERF_DATA_BYTES));
    assertTrue(run.health.get(TraceHealth.PERF_DATA_RECORDS_AFTER_DAMAGE) > 10);
  }

  @Test
  void aSampleWhoseFieldsDoNotFitIsReportedAndSkipped() throws Exception {
    byte[] bytes = Files.readAllBytes(shipped());
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    long dataOffset = b.getLong(40);
    long dataSize = b.getLong(48);
    // The first sample record past the middle keeps its header (type, size) but its body is
    // garbage (its event id, call chain length, ...).
    int at = (int) findRecordNear(bytes, dataOffset, dataOffset + dataSize / 2);
    while (b.getInt(at) != 9) { // PERF_RECORD_SAMPLE
      at += Short.toUnsignedInt(b.getShort(at + 6));
    }
    java.util.Arrays.fill(bytes, at + 8, at + Short.toUnsignedInt(b.getShort(at + 6)),
        (byte) 0x7f);
    Path damaged = dir.resolve("garbled.data");
    Files.write(damaged, bytes);
    SinkLog log = new SinkLog();
    NativePerfDataReader.open(damaged, nowhere()).read(log);
    int damagedAt = at;
    // Reported as a malformed record at its offset (counted), and the reading goes on.
    assertTrue(log.calls.stream().anyMatch(c -> c.startsWith("malformed ")
        && c.contains("record at byte " + damagedAt + ": ")),
        String.join("\n", log.calls));
    assertTrue(log.calls.get(log.calls.size() - 1).startsWith("exit "));
  }

  @Test
  void refusesWhatPerfScriptMustDecode() throws Exception {
    byte[] bytes = Files.readAllBytes(shipped());
    byte[] bigEndian = bytes.clone();
    for (int i = 0; i < 8; i++) {
      bigEndian[i] = bytes[7 - i];
    }
    Path be = dir.resolve("be.data");
    Files.write(be, bigEndian);
    assertEquals("it was recorded big-endian", NativePerfDataReader.unsupportedReason(be));

    byte[] pipe = Arrays.copyOf(bytes, 16);
    ByteBuffer.wrap(pipe).order(ByteOrder.LITTLE_ENDIAN).putLong(8, 16);
    Path piped = dir.resolve("pipe.data");
    Files.write(piped, pipe);
    // pipe mode is read natively; a pipe-mode header with no records after it has no events
    assertTrue(NativePerfDataReader.unsupportedReason(piped).contains("no events"),
        NativePerfDataReader.unsupportedReason(piped));

    Path text = dir.resolve("text.data");
    Files.writeString(text, "not perf data at all, but long enough for a header...".repeat(4));
    assertEquals("it does not start with PERFILE2", NativePerfDataReader.unsupportedReason(text));
    assertThrows(UnsupportedPerfDataException.class,
        () -> NativePerfDataReader.open(text, nowhere()));
  }

  /** The offset of the record that starts at or after {@code near}, walking from the start. */
  private static long findRecordNear(byte[] bytes, long start, long near) {
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    long at = start;
    while (at < near) {
      at += Short.toUnsignedInt(b.getShort((int) at + 6));
    }
    return at;
  }

  /**
   * Writes the expected events (args[1]) from perf script's text of the file (args[0]), made on
   * the machine that recorded it with {@code perf script -i tiny-mixed.data --ns
   * --show-task-events -F sw:comm,pid,tid,time,period,event,ip,sym,dso -F
   * trace:comm,pid,tid,cpu,time,period,event,trace,ip,sym,dso}: per event type, since only the
   * tracepoints have a CPU (the decoder's one -F list makes perf refuse this file).
   */
  public static void main(String[] args) throws Exception {
    SinkLog text = new SinkLog();
    try (InputStream in = Files.newInputStream(Path.of(args[0]))) {
      new PerfScriptParser().read(in, "text", text);
    }
    Files.write(Path.of(args[1]), List.of(String.join("\n", text.calls)));
  }
}
