package dev.loadprof.beam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.loadprof.block.BlockBuilder;
import dev.loadprof.load.CpuTimeline;
import dev.loadprof.load.LoadJoiner;
import dev.loadprof.load.ProcessAccumulator;
import dev.loadprof.model.EventBlock;
import dev.loadprof.parse.PerfScriptParser;
import dev.loadprof.parse.TraceFiles;
import dev.loadprof.parse.TraceFixtures;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.util.CoderUtils;
import org.junit.jupiter.api.Test;

/** The coders round-trip real blocks and accumulators exactly, in nested and outer contexts. */
class CodersTest {

  private static List<EventBlock> blocksOfTheExample() throws IOException {
    List<EventBlock> blocks = new ArrayList<>();
    BlockBuilder builder = new BlockBuilder("phases", "phases", 250_000_000L, null, blocks::add);
    try (InputStream in = TraceFiles.open(TraceFixtures.path("phases"))) {
      new PerfScriptParser().read(in, "phases", builder);
    }
    builder.finish();
    return blocks;
  }

  @Test
  void eventBlocksRoundTripBeforeAndAfterIntervalBuilding() throws IOException {
    List<EventBlock> blocks = blocksOfTheExample();
    // Block equality compares frames with their addresses, so the round trip covers them.
    assertEquals(true, blocks.stream().flatMap(b -> Arrays.stream(b.stackTable.frames))
        .anyMatch(f -> f.address() != 0), "perf printed instruction addresses");
    for (EventBlock b : blocks) {
      assertRoundTrip(EventBlockCoder.of(), b);
      CpuTimeline.replay(b, true);
      assertRoundTrip(EventBlockCoder.of(), b);
    }
    assertEquals(true, blocks.size() > 20, "the example cuts into many blocks");
  }

  @Test
  void accumulatorsRoundTrip() throws IOException {
    List<EventBlock> blocks = blocksOfTheExample();
    blocks.forEach(b -> CpuTimeline.replay(b, true));
    for (ProcessAccumulator acc : LoadJoiner.join(blocks.subList(0, 8)).values()) {
      ProcessAccumulator back = CoderUtils.clone(ProcessAccumulatorCoder.of(), acc);
      assertEquals(acc.toProcessLoad("x").toString(), back.toProcessLoad("x").toString());
      assertEquals(new java.util.HashSet<>(acc.toStackWeights()),
          new java.util.HashSet<>(back.toStackWeights()));
    }
  }

  @Test
  void truncatedEncodingsFailInsteadOfReadingGarbage() throws IOException {
    EventBlock b = blocksOfTheExample().get(3);
    byte[] bytes = CoderUtils.encodeToByteArray(EventBlockCoder.of(), b, Coder.Context.NESTED);
    byte[] cut = Arrays.copyOf(bytes, bytes.length / 2);
    assertThrows(IOException.class,
        () -> EventBlockCoder.of().decode(new ByteArrayInputStream(cut)));
  }

  private static <T> void assertRoundTrip(Coder<T> coder, T value) throws CoderException {
    for (Coder.Context context : new Coder.Context[] {Coder.Context.NESTED, Coder.Context.OUTER}) {
      byte[] bytes = CoderUtils.encodeToByteArray(coder, value, context);
      T back = CoderUtils.decodeFromByteArray(coder, bytes, context);
      assertEquals(value, back);
      assertEquals(Arrays.toString(bytes),
          Arrays.toString(CoderUtils.encodeToByteArray(coder, back, context)),
          "re-encoding gives the same bytes");
    }
  }
}
