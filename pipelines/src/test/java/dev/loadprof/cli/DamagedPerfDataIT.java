package dev.loadprof.cli;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loadprof.testtools.RequiredTools;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged perf.data through the real CLI (transforms' DamagedPerfDataFuzzTest has 1,200 cases
 * at the parse step): the exit code and the one line the user sees. A bit flipped in a record's
 * size is exit 2 naming the record's offset (it was exit 0 with a normal report from part of the
 * file); attr_size 0 is exit 2 naming byte 16, natively and after perf script's fallback; a
 * damaged last record (under 0.1 % of the data) is exit 0 with a warning; a host name of length
 * -1 that perf script reads is exit 0.
 */
class DamagedPerfDataIT {
  private static final Path FIXTURE = Paths.get("..", "transforms", "src", "test", "resources",
      "perfdata", "small-system-wide.data.gz");

  @TempDir Path tmp;

  private record Result(int exit, String err) {}

  @Test
  void damageEndsAsTheRuleSays() throws Exception {
    byte[] original = original();
    ByteBuffer h = ByteBuffer.wrap(original).order(ByteOrder.LITTLE_ENDIAN);
    long dataOffset = h.getLong(40);
    long dataSize = h.getLong(48);
    long middle = dataOffset;
    long last = dataOffset;
    for (long at = dataOffset; at < dataOffset + dataSize; ) {
      int size = Short.toUnsignedInt(h.getShort((int) at + 6));
      if (at < dataOffset + dataSize / 2) {
        middle = at + size;
      }
      last = at;
      at += size;
    }
    assertEquals(ExitCode.OK, analyze("intact", original, b -> { }).exit());

    long flipped = middle;
    Result flip = analyze("flip", original, b -> b[(int) flipped + 7] ^= 0x40);
    assertEquals(ExitCode.BAD_INPUT, flip.exit(), flip.err());
    assertThat(flip.err(), containsString("flip.data: the perf.data file is damaged at byte "
        + flipped + ": "));

    Result attr0 = analyze("attr0", original, b -> le(b).putLong(16, 0),
        "--perf-data-reader", "native");
    assertEquals(ExitCode.BAD_INPUT, attr0.exit(), attr0.err());
    assertThat(attr0.err(), containsString("attr0.data: the perf.data file is damaged: its"
        + " header is damaged at byte 16: attr_size 0"));

    long lastRecord = last;
    Result tail = analyze("tail", original, b -> le(b).putShort((int) lastRecord + 6, (short) 3));
    assertEquals(ExitCode.OK, tail.exit(), tail.err());
    assertThat(tail.err(), containsString("tail.data: the last "));
    assertThat(tail.err(), containsString("could not be read (a damaged or cut record)"));

    RequiredTools.require(RequiredTools.Tool.PERF); // the fallback
    Result attr0Auto = analyze("attr0auto", original, b -> le(b).putLong(16, 0));
    assertEquals(ExitCode.BAD_INPUT, attr0Auto.exit(), attr0Auto.err());
    assertThat(attr0Auto.err(), containsString("attr0auto.data: the perf.data file is damaged"));
  }

  private Result analyze(String name, byte[] original, Consumer<byte[]> damage, String... options)
      throws IOException {
    byte[] bytes = original.clone();
    damage.accept(bytes);
    Path file = tmp.resolve(name + ".data");
    Files.write(file, bytes);
    String[] args = new String[options.length + 4];
    args[0] = "analyze";
    args[1] = "-o";
    args[2] = tmp.resolve(name + "-out").toString();
    System.arraycopy(options, 0, args, 3, options.length);
    args[args.length - 1] = file.toString();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit = LoadprofCli.run(args, new PrintStream(new ByteArrayOutputStream()),
        new PrintStream(err, true));
    return new Result(exit, err.toString(StandardCharsets.UTF_8));
  }

  private static ByteBuffer le(byte[] b) {
    return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
  }

  private static byte[] original() throws IOException {
    try (InputStream in = new GZIPInputStream(Files.newInputStream(FIXTURE))) {
      return in.readAllBytes();
    }
  }
}
