package dev.loadprof.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.loadprof.codec.Varint;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A table's stacks as values: the builder's, or made again from the ids, always equal. */
class StackTableTest {
  private static final Frame[] FRAMES = {
      new Frame("main", "app", 1), new Frame("run", "app", 2), new Frame("read", "libc", 3),
      new Frame("[unknown]", "", 4), new Frame("x", "[kernel.kallsyms]", 5)};

  @Test
  void theBuildersStacksEqualThoseMadeFromTheIds() throws Exception {
    Random r = new Random(3);
    StackTable.Builder b = new StackTable.Builder();
    Frame[][] added = new Frame[300][];
    int[] ids = new int[added.length];
    for (int i = 0; i < added.length; i++) {
      Frame[] s = new Frame[1 + r.nextInt(4)];
      for (int k = 0; k < s.length; k++) {
        Frame f = FRAMES[r.nextInt(FRAMES.length)];
        s[k] = r.nextBoolean() ? f : new Frame(f.symbol(), f.dso(), f.address()); // equal copy
      }
      added[i] = s;
      ids[i] = b.idOf(s.clone());
    }
    StackTable t = b.build();
    StackTable copy = StackTable.read(roundTrip(t)); // as from a coder: no interned stacks
    for (int i = 0; i < added.length; i++) {
      CallStack expected = new CallStack(added[i]);
      assertEquals(expected, t.callStack(ids[i]));
      assertEquals(expected.hashCode(), t.callStack(ids[i]).hashCode());
      assertArrayEquals(t.framesOf(ids[i]), t.callStack(ids[i]).frames());
      assertSame(t.callStack(ids[i]), t.callStack(ids[i]), "the builder's, hashed once");
      assertEquals(expected, copy.callStack(ids[i]));
    }
    // Arrays replaced after the build: the stacks are made from the new ones.
    t.frames = t.frames.clone();
    t.frames[0] = new Frame("other", "elsewhere", 9);
    for (int i = 0; i < added.length; i++) {
      assertArrayEquals(t.framesOf(ids[i]), t.callStack(ids[i]).frames());
    }
  }

  private static Varint.Source roundTrip(StackTable t) {
    Varint.Sink out = new Varint.Sink(64);
    t.write(out);
    java.nio.ByteBuffer b = out.toByteBuffer();
    byte[] bytes = new byte[b.remaining()];
    b.get(bytes);
    return new Varint.Source(bytes);
  }
}
