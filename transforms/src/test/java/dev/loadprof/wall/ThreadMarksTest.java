package dev.loadprof.wall;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loadprof.codec.Varint;
import dev.loadprof.model.CallStack;
import dev.loadprof.model.Frame;
import dev.loadprof.model.ThreadState;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The marks' encoding leaves out what a kind does not use, and gives every column back. */
class ThreadMarksTest {

  @Test
  void everyKindRoundTrips() throws IOException {
    ThreadMarks m = new ThreadMarks();
    CallStack doze = new CallStack(new Frame[] {new Frame("schedule", "[kernel]"),
        new Frame("doze", "/bin/stalls")});
    m.addRun(11, 5_000_000_000L, 5_000_300_000L, 3, 4_999_000_000L, 700, 300, 42);
    m.addOut(11, 5_000_300_000L, ThreadState.SLEEPING.code(), doze);
    m.addWake(11, 5_000_900_000L, 17, 170);
    m.addSample(11, 5_000_100_000L, doze);
    m.addSample(12, 5_000_050_000L, new CallStack(new Frame[] {
        new Frame("work", "/bin/stalls")}));
    m.addOut(12, 4_000_000_000L, ThreadState.RUNNABLE.code(), null);
    m.addTail(12, 4_000_000_000L, 6_000_000_000L, 1, 5, 9, -1);
    m.addRun(12, 5_000_000_000L, 5_000_100_000L, 2, 5_000_000_000L, 0, 0, -1);
    m.attachOut(m.count - 1, ThreadState.RUNNABLE.code(), null);
    m.addRun(11, 5_001_000_000L, 5_001_100_000L, 3, 5_000_900_000L, 0, 100_000, -1);
    m.attachOut(m.count - 1, ThreadState.SLEEPING.code(), doze);
    m.addOut(12, 5_000_400_000L, ThreadState.DISK.code(), doze);
    m.noteEnd(6_000_000_000L);
    m.sawStates = true;
    m.sawStacks = true;

    Varint.Sink out = new Varint.Sink(16);
    m.write(out);
    ByteBuffer bytes = out.toByteBuffer();
    byte[] b = new byte[bytes.remaining()];
    bytes.get(b);
    ThreadMarks back = ThreadMarks.read(new Varint.Source(b));

    assertEquals(m.count, back.count);
    int n = m.count;
    assertArrayEquals(Arrays.copyOf(m.tid, n), Arrays.copyOf(back.tid, n));
    assertArrayEquals(Arrays.copyOf(m.kind, n), Arrays.copyOf(back.kind, n));
    assertArrayEquals(Arrays.copyOf(m.time, n), Arrays.copyOf(back.time, n));
    assertArrayEquals(Arrays.copyOf(m.end, n), Arrays.copyOf(back.end, n));
    assertArrayEquals(Arrays.copyOf(m.code, n), Arrays.copyOf(back.code, n));
    assertArrayEquals(Arrays.copyOf(m.stack, n), Arrays.copyOf(back.stack, n));
    assertArrayEquals(Arrays.copyOf(m.out, n), Arrays.copyOf(back.out, n));
    assertArrayEquals(Arrays.copyOf(m.occupiedFrom, n), Arrays.copyOf(back.occupiedFrom, n));
    assertArrayEquals(Arrays.copyOf(m.ownNs, n), Arrays.copyOf(back.ownNs, n));
    assertArrayEquals(Arrays.copyOf(m.otherNs, n), Arrays.copyOf(back.otherNs, n));
    assertArrayEquals(Arrays.copyOf(m.otherPid, n), Arrays.copyOf(back.otherPid, n));
    assertEquals(m.stacks, back.stacks);
    assertEquals(m.sampleCount, back.sampleCount);
    assertArrayEquals(Arrays.copyOf(m.sampleTime, 2), Arrays.copyOf(back.sampleTime, 2));
    assertArrayEquals(Arrays.copyOf(m.sampleTid, 2), Arrays.copyOf(back.sampleTid, 2));
    assertArrayEquals(Arrays.copyOf(m.sampleStack, 2), Arrays.copyOf(back.sampleStack, 2));
    assertEquals(m.traceEndNs, back.traceEndNs);
    assertEquals(true, back.sawStates && back.sawStacks);
  }

  /** Windows merged one by one keep the samples in arrays about as long as they are. */
  @Test
  void mergedSamplesGrowLinearly() {
    ThreadMarks all = new ThreadMarks();
    CallStack work = new CallStack(new Frame[] {new Frame("work", "/bin/x")});
    for (int w = 0; w < 200; w++) {
      ThreadMarks window = new ThreadMarks();
      window.addSample(1, w * 1_000_000L, work);
      all.mergeFrom(window);
    }
    assertEquals(200, all.sampleCount);
    assertEquals(true, all.sampleTime.length <= 400, "capacity " + all.sampleTime.length);
    assertEquals(1, all.stacks.size());
  }
}
