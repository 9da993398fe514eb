package dev.loadprof.profile;

import dev.loadprof.model.CallStack;
import dev.loadprof.model.Frame;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Sums weighted stacks over the threads of each process and over the instruction addresses of
 * each frame: the (run, process, load, symbol stack) view that the text reports print. Counts and
 * CPU ns are integer sums, so wall ns (rounded once per merged weight) are exactly what they were
 * before the profile kept threads and addresses apart.
 */
public final class ProcessStacks {
  private ProcessStacks() {}

  /** hashCode and equals written out: a record's are method-handle chains C1 does not inline. */
  private record Key(String runId, int pid, int load, CallStack stack) {
    @Override
    public int hashCode() {
      return ((runId.hashCode() * 31 + pid) * 31 + load) * 31 + stack.hashCode();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && pid == k.pid && load == k.load && runId.equals(k.runId)
          && stack.equals(k.stack);
    }
  }

  public static List<StackWeight> merge(List<StackWeight> stacks) {
    Map<Frame, Frame> symbolic = new HashMap<>();
    // Each frame object's symbolic frame, found by identity: stacks share their frame objects.
    Map<Frame, Frame> symbolicOf = new IdentityHashMap<>();
    Map<Key, long[]> sums = new LinkedHashMap<>();
    for (StackWeight s : stacks) {
      Frame[] frames = new Frame[s.stack().length];
      for (int i = 0; i < frames.length; i++) {
        Frame f = s.stack()[i];
        Frame known = symbolicOf.get(f);
        if (known == null) {
          known = symbolic.computeIfAbsent(withoutAddress(f), k -> k);
          symbolicOf.put(f, known);
        }
        frames[i] = known;
      }
      Key key = new Key(s.runId(), s.pid(), s.load(), new CallStack(frames));
      long[] sum = sums.computeIfAbsent(key, k -> new long[2]);
      sum[0] += s.count();
      sum[1] += s.cpuNs();
    }
    List<StackWeight> out = new ArrayList<>(sums.size());
    for (Map.Entry<Key, long[]> e : sums.entrySet()) {
      Key k = e.getKey();
      out.add(new StackWeight(k.runId(), k.pid(), StackWeight.ALL_THREADS, k.load(),
          k.stack(), e.getValue()[0], e.getValue()[1]));
    }
    return out;
  }

  private static Frame withoutAddress(Frame f) {
    return new Frame(f.symbol(), f.dso());
  }
}
