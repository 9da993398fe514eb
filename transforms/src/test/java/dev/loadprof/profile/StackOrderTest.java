package dev.loadprof.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loadprof.model.Frame;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * StackOrder.STACKS, written out, orders as the chain of comparators it replaced; TwoCoreSort
 * sorts as List.sort does.
 */
class StackOrderTest {
  private static final Comparator<StackWeight> CHAIN =
      Comparator.comparing(StackWeight::runId)
          .thenComparingInt(StackWeight::pid)
          .thenComparingInt(StackWeight::tid)
          .thenComparingInt(StackWeight::load)
          .thenComparing(StackWeight::stack, StackOrder::compareStacks)
          .thenComparingLong(StackWeight::count)
          .thenComparingLong(StackWeight::cpuNs);

  private static List<StackWeight> weights(Random rnd, int n) {
    String[] runs = {"a", "b", new String("a")};
    Frame[] frames = {new Frame("f", "x", 1), new Frame("f", "x", -1), new Frame("g", "x", 1),
        new Frame("f", "y", 1), new Frame(new String("f"), "x", 1)};
    List<StackWeight> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Frame[] stack = new Frame[rnd.nextInt(4)];
      for (int k = 0; k < stack.length; k++) {
        stack[k] = frames[rnd.nextInt(frames.length)];
      }
      out.add(new StackWeight(runs[rnd.nextInt(3)], rnd.nextInt(3) - 1, rnd.nextInt(3) - 1,
          rnd.nextInt(3), stack, rnd.nextInt(2), rnd.nextInt(2) - 1));
    }
    return out;
  }

  @Test
  void ordersAsTheChainOfComparators() {
    List<StackWeight> w = weights(new Random(3), 400);
    for (StackWeight x : w) {
      for (StackWeight y : w) {
        assertEquals(Integer.signum(CHAIN.compare(x, y)),
            Integer.signum(StackOrder.STACKS.compare(x, y)), x + " vs " + y);
      }
    }
  }

  @Test
  void twoCoreSortSortsAsListSort() {
    for (int n : new int[] {0, 5, TwoCoreSort.MIN_PARALLEL, TwoCoreSort.MIN_PARALLEL * 3 + 1}) {
      List<StackWeight> w = weights(new Random(n), n);
      List<StackWeight> expected = new ArrayList<>(w);
      expected.sort(StackOrder.STACKS);
      TwoCoreSort.sort(w, StackOrder.STACKS);
      for (int i = 0; i < n; i++) {
        assertEquals(System.identityHashCode(expected.get(i)), System.identityHashCode(w.get(i)),
            "element " + i + " of " + n); // the same objects: stable, as List.sort
      }
    }
  }
}
