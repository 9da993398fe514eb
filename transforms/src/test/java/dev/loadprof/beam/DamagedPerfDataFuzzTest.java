package dev.loadprof.beam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.loadprof.model.BadInput;
import dev.loadprof.model.EventBlock;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceHealth;
import dev.loadprof.perfdata.DecodePiece;
import dev.loadprof.perfdata.PieceTask;
import dev.loadprof.perfdata.symbols.SymbolSources;
import dev.loadprof.perfdata.reader.PerfDataReading;
import dev.loadprof.testtools.RequiredTools;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.zip.CRC32;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A seeded mutator (no fuzzing library is in the project's offline Maven repository) makes 1,000
 * damaged copies of a small system-wide perf.data shipped with the tests: header fields (attr_size, the
 * sections' offsets and sizes, the header size, the feature bits and index, string lengths and
 * counts in the feature sections, event ids) set to values that break them (0, 8, -1, near
 * 2 GiB, 3-5 GiB, past the file), and data records damaged (bit flips in sizes, types and
 * bodies, sizes rewritten, bytes zeroed, the file cut). Each is read the way the CLI reads an
 * input (planned by {@link DecodePerfData#plan}, read by the parse step's read; a few of them by
 * {@link ParseTraces#readLocally} itself, with this machine's symbols), and must end as the CLI may end: the original's
 * figures (exit 0), a damage warning (exit 0), an unusable run or a {@link BadInput} (exit 2).
 * Never another exception (exit 1), and never changed figures without a word, except where the
 * damage is a value that perf script would print changed too (a flipped bit inside a record's
 * body: an address, a time, a pid).
 */
class DamagedPerfDataFuzzTest {
  /**
   * perf record -k mono -a -g -e cpu-clock -e sched:sched_switch -- mixed 5 2 1, on the project's
   * 2-CPU VM (perf 6.1): 197 KB, 405 cpu-clock samples, 128 switches, usable as it is.
   */
  private static final String DATA = "/perfdata/small-system-wide.data.gz";
  /** Cases also read exactly as the CLI's local path reads (this machine's symbols). */
  private static final int CLI_PATH_CASES = 30;
  private static final long SEED = 32;
  private static final int CASES = 1000;
  private static final long WINDOW_NS = 100_000_000L;

  @TempDir Path dir;

  /** How one case ended, as the CLI would end. */
  enum Outcome { SAME, WARNED, UNUSABLE, BAD_INPUT, CHANGED_SILENTLY }

  /** The figures of a run: its blocks (every event as the analysis gets it) and counters. */
  record Figures(long blocksCrc, Map<String, Long> counters, long startNs, long endNs) {}

  @Test
  void noDamageEndsInAnExit1OrSilentlyChangedFigures() throws Exception {
    byte[] original = shipped();
    Path file = dir.resolve("case.data");
    Files.write(file, original);
    RunInfo[] run = new RunInfo[1];
    Figures expected = figures(file, run, symbols());
    assertTrue(!run[0].isUnusable() && expected.counters().get("sample_records") > 400,
        run[0].unusableReason + " " + expected);
    List<String> baseWarnings = run[0].warnings;
    Figures expectedLive = figures(file, run, PerfDataReading.NATIVE);
    Mutator mutator = new Mutator(original, new Random(SEED));
    TreeMap<String, Integer> tally = new TreeMap<>();
    List<String> failures = new ArrayList<>();
    long startNs = System.nanoTime();
    for (int i = 0; i < CASES; i++) {
      Mutator.Case c = mutator.next();
      Files.write(file, c.bytes());
      Outcome outcome;
      try {
        boolean cliPath = i % (CASES / CLI_PATH_CASES) == 0;
        Figures got = cliPath ? figures(file, run, PerfDataReading.NATIVE)
            : figures(file, run, symbols());
        outcome = judge(cliPath ? expectedLive : expected, baseWarnings, got, run[0]);
      } catch (Throwable t) {
        if (!(findBadInput(t) instanceof BadInput)) {
          failures.add("case " + i + " (" + c.what() + "): exit 1: " + t);
          continue;
        }
        outcome = Outcome.BAD_INPUT;
      }
      tally.merge(c.kind() + " " + outcome, 1, Integer::sum);
      if (outcome == Outcome.CHANGED_SILENTLY && !c.valueOnly()) {
        failures.add("case " + i + " (" + c.what() + "): figures changed without a warning");
      }
    }
    long seconds = (System.nanoTime() - startNs) / 1_000_000_000L;
    System.out.println("perf.data fuzz: " + CASES + " cases in " + seconds + " s: " + tally);
    assertTrue(failures.isEmpty(), failures.size() + " of " + CASES + " cases:\n"
        + String.join("\n", failures.subList(0, Math.min(30, failures.size()))));
    assertTrue(tally.keySet().stream().anyMatch(k -> k.endsWith("BAD_INPUT"))
        && tally.keySet().stream().anyMatch(k -> k.endsWith("UNUSABLE")), tally.toString());
  }

  /**
   * A few damaged files read as the default does (auto: perf script when the native reader
   * refuses): where perf script itself fails, never exit 0 with changed figures.
   */
  @Test
  void theFallbackToPerfScriptEndsAsClearly() throws Exception {
    RequiredTools.require(RequiredTools.Tool.PERF);
    byte[] original = shipped();
    Path file = dir.resolve("case.data");
    Files.write(file, original);
    RunInfo[] run = new RunInfo[1];
    Figures expected = figures(file, run, PerfDataReading.AUTO);
    List<String> baseWarnings = run[0].warnings;
    Mutator mutator = new Mutator(original, new Random(SEED + 1));
    int headerCases = 0;
    for (int i = 0; headerCases < 24 && i < 400; i++) {
      Mutator.Case c = mutator.next();
      if (!c.kind().startsWith("header")) {
        continue;
      }
      headerCases++;
      Files.write(file, c.bytes());
      Figures got;
      try {
        got = figures(file, run, PerfDataReading.AUTO);
      } catch (Throwable t) {
        if (!(findBadInput(t) instanceof BadInput)) {
          fail(c.what() + ": exit 1: " + t, t);
        }
        continue;
      }
      // perf script's text and the native reader differ in frame details (the blocks), never
      // in the counts and the span
      Figures counted = new Figures(0, got.counters(), got.startNs(), got.endNs());
      Outcome outcome = judge(new Figures(0, expected.counters(), expected.startNs(),
          expected.endNs()), baseWarnings, counted, run[0]);
      assertTrue(outcome != Outcome.CHANGED_SILENTLY, c.what() + ": " + got + " not " + expected);
    }
    assertEquals(24, headerCases);
  }

  private static Outcome judge(Figures expected, List<String> baseWarnings, Figures got,
      RunInfo info) {
    if (info.isUnusable()) {
      return Outcome.UNUSABLE;
    }
    if (got.equals(expected)) {
      return Outcome.SAME;
    }
    boolean warned = info.warnings.size() > baseWarnings.size()
        || info.health.get(TraceHealth.MALFORMED_LINES) > 0;
    return warned ? Outcome.WARNED : Outcome.CHANGED_SILENTLY;
  }

  /** No symbols (no file of this machine is read): the frames are addresses. */
  private SymbolSources symbols() throws IOException {
    Path empty = Files.createDirectories(dir.resolve("empty"));
    return new SymbolSources(empty, empty, empty.resolve("kallsyms"), empty);
  }

  /**
   * Reads {@code file} as the CLI does (planned natively, then the parse step's read), with
   * {@code symbols}; its run goes to {@code run[0]}.
   */
  private static Figures figures(Path file, RunInfo[] run, SymbolSources symbols)
      throws IOException {
    CRC32 crc = new CRC32();
    String path = file.toString();
    List<PieceTask> pieces = DecodePerfData.plan(path, 1, DecodePiece.Kind.TIME,
        PerfDataReading.NATIVE);
    RunInfo info = ParseTraces.ParseFn.read(path, "case", pieces, WINDOW_NS, null, 1, false,
        block -> crc.update(bytes(block)), null, symbols);
    return figuresOf(info, crc, run);
  }

  /** Reads {@code file} as the CLI's local path does; its run goes to {@code run[0]}. */
  private static Figures figures(Path file, RunInfo[] run, PerfDataReading reading)
      throws IOException {
    CRC32 crc = new CRC32();
    ParseTraces parse = new ParseTraces(WINDOW_NS, null, 1, DecodePiece.Kind.TIME, 1, reading);
    RunInfo info = parse.readLocally(file.toString(), block -> crc.update(bytes(block)), null);
    return figuresOf(info, crc, run);
  }

  private static Figures figuresOf(RunInfo info, CRC32 crc, RunInfo[] run) {
    run[0] = info;
    TreeMap<String, Long> counters = new TreeMap<>(info.health.counters());
    // what the input was made of (text lines), and what could not be read, are no figures
    counters.keySet().removeIf(k -> k.startsWith("perf_data_") || k.equals("malformed_lines")
        || k.equals("lines"));
    return new Figures(crc.getValue(), counters, info.startNs, info.endNs);
  }

  private static byte[] bytes(EventBlock block) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (ObjectOutputStream o = new ObjectOutputStream(out)) {
      o.writeObject(block);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private static Object findBadInput(Throwable t) {
    for (int depth = 0; t != null && depth < 20; depth++, t = t.getCause()) {
      if (t instanceof BadInput) {
        return t;
      }
    }
    return null;
  }

  private static byte[] shipped() throws IOException {
    try (InputStream in = new GZIPInputStream(
        DamagedPerfDataFuzzTest.class.getResourceAsStream(DATA))) {
      return in.readAllBytes();
    }
  }

  /** Makes damaged copies of one perf.data file, each from the original, from a seed. */
  static final class Mutator {
    /** One damaged copy; {@code valueOnly}: only a value inside a record's body changed. */
    record Case(String kind, String what, byte[] bytes, boolean valueOnly) {}

    private static final long[] BAD_SIZES = {0, 1, 8, 16, 79, -1, Integer.MAX_VALUE,
        (1L << 31) - 16, 1L << 31, 3L << 30, 1L << 32, 5L << 30, Long.MAX_VALUE, Long.MIN_VALUE};
    private static final long[] BAD_U32 = {0, 1, 7, 0xffffffffL, 0x7fffffffL, 0x80000000L,
        0xfffffff0L, 1000, 65536};

    private final byte[] original;
    private final ByteBuffer b;
    private final Random random;
    private final long dataOffset;
    private final long dataSize;
    private final long attrsOffset;
    private final long attrsSize;
    private final long attrSize;
    private final List<long[]> records = new ArrayList<>();
    /** File offset of each feature section's {offset, size} in the index, and the sections. */
    private final List<long[]> features = new ArrayList<>();

    Mutator(byte[] original, Random random) {
      this.original = original;
      this.b = ByteBuffer.wrap(original).order(ByteOrder.LITTLE_ENDIAN);
      this.random = random;
      attrSize = b.getLong(16);
      attrsOffset = b.getLong(24);
      attrsSize = b.getLong(32);
      dataOffset = b.getLong(40);
      dataSize = b.getLong(48);
      for (long at = dataOffset; at < dataOffset + dataSize; ) {
        int size = Short.toUnsignedInt(b.getShort((int) at + 6));
        records.add(new long[] {at, size});
        at += size;
      }
      long index = dataOffset + dataSize;
      for (int bit = 0; bit < 256; bit++) {
        if ((b.getLong(72 + bit / 64 * 8) >>> (bit % 64) & 1) != 0) {
          features.add(new long[] {bit, index, b.getLong((int) index), b.getLong((int) index + 8)});
          index += 16;
        }
      }
    }

    Case next() {
      byte[] c = original.clone();
      ByteBuffer m = ByteBuffer.wrap(c).order(ByteOrder.LITTLE_ENDIAN);
      int choice = random.nextInt(12);
      switch (choice) {
        case 0 -> {
          long v = pick(BAD_SIZES);
          m.putLong(16, v);
          return new Case("header attr_size", "attr_size " + v, c, false);
        }
        case 1 -> {
          int field = 8 * (1 + random.nextInt(6)); // header size, attr_size, attrs, data
          long v = random.nextBoolean() ? pick(BAD_SIZES) : c.length - random.nextInt(64);
          m.putLong(field, v);
          return new Case("header section", "header field at byte " + field + " = " + v, c,
              false);
        }
        case 2 -> {
          long[] f = features.get(random.nextInt(features.size()));
          int field = (int) f[1] + (random.nextBoolean() ? 0 : 8);
          long v = random.nextBoolean() ? pick(BAD_SIZES) : c.length - random.nextInt(4096);
          m.putLong(field, v);
          return new Case("header feature index", "feature " + f[0] + " index field at byte "
              + field + " = " + v, c, false);
        }
        case 3 -> {
          int bit = random.nextInt(256);
          m.putLong(72 + bit / 64 * 8, m.getLong(72 + bit / 64 * 8) ^ (1L << (bit % 64)));
          return new Case("header feature bits", "feature bit " + bit + " flipped", c, false);
        }
        case 4 -> {
          // A u32 (string length, count, attr size) inside a feature section.
          long[] f = features.get(random.nextInt(features.size()));
          if (f[3] < 4) {
            return next();
          }
          int at = (int) f[2] + 4 * random.nextInt((int) Math.min(f[3] / 4, 64));
          long v = pick(BAD_U32);
          m.putInt(at, (int) v);
          return new Case("header feature u32", "feature " + f[0] + " u32 at byte " + at
              + " = " + v, c, false);
        }
        case 5 -> {
          // An event's attr or its ids.
          int at = (int) attrsOffset + 8 * random.nextInt((int) (attrsSize / 8));
          m.putLong(at, random.nextBoolean() ? pick(BAD_SIZES) : random.nextLong());
          return new Case("header attrs", "attrs section long at byte " + at, c, false);
        }
        case 6 -> {
          long[] r = pickRecord();
          int bit = random.nextInt(16);
          int at = (int) r[0] + 6 + bit / 8;
          c[at] ^= (byte) (1 << (bit % 8));
          return new Case("data size bit", "size bit " + bit + " of the record at " + r[0], c,
              false);
        }
        case 7 -> {
          long[] r = pickRecord();
          int bit = random.nextInt(32);
          c[(int) r[0] + bit / 8] ^= (byte) (1 << (bit % 8));
          return new Case("data type bit", "type bit " + bit + " of the record at " + r[0], c,
              false);
        }
        case 8 -> {
          long[] r = pickRecord();
          m.putShort((int) r[0] + 6, (short) random.nextInt(65536));
          return new Case("data size", "size of the record at " + r[0] + " rewritten", c, false);
        }
        case 9 -> {
          long[] r = pickRecord();
          if (r[1] <= 8) {
            return next();
          }
          int at = (int) (r[0] + 8 + random.nextInt((int) r[1] - 8));
          c[at] ^= (byte) (1 << random.nextInt(8));
          return new Case("data body bit", "bit in the body of the record at " + r[0]
              + " (byte " + at + ")", c, true);
        }
        case 10 -> {
          long[] r = pickRecord();
          int from = (int) r[0] + random.nextInt((int) r[1]);
          int length = Math.min(1 + random.nextInt(128), c.length - from);
          java.util.Arrays.fill(c, from, from + length, (byte) 0);
          boolean body = from >= r[0] + 8 && from + length <= r[0] + r[1];
          return new Case("data zeroed", length + " bytes zeroed at " + from, c, body);
        }
        default -> {
          int cut = (int) (dataOffset + random.nextInt((int) (c.length - dataOffset)));
          return new Case("file cut", "cut at byte " + cut, java.util.Arrays.copyOf(c, cut),
              false);
        }
      }
    }

    private long[] pickRecord() {
      return records.get(random.nextInt(records.size()));
    }

    private long pick(long[] values) {
      return values[random.nextInt(values.length)];
    }
  }
}
