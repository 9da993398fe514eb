package dev.loadprof.report.html;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loadprof.model.Frame;
import dev.loadprof.model.ThreadState;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.wall.StateTimeline;
import dev.loadprof.wall.ThreadStateSummary;
import java.util.Map;

/**
 * The whole-wall part of a process in report.html's data: the wall line, the thread-state lanes
 * ({@link StateTimeline}, each lane's buckets as runs: {@link #runLengths}) and the off-CPU
 * flame graph, made from the same waits as
 * offcpu.folded (the state as the leaf frame), so both are narrowed as the profile is.
 */
public final class WallHtml {
  /** The leaf frame's object in the off-CPU flame graph: a state, not a function. */
  static final String STATE_DSO = "[state]";

  private WallHtml() {}

  /**
   * Puts "wall": null when the process has no thread states, else their view; laneNames: each
   * lane's name by tid (its thread and top function).
   */
  public static void writeTo(ObjectNode process, ProcessLoad p, String wallLine,
      Map<Integer, String> laneNames, StringTable strings) {
    ThreadStateSummary s = p.threadStates;
    if (s == null) {
      process.putNull("wall");
      return;
    }
    ObjectNode o = process.putObject("wall");
    o.put("line", wallLine);
    o.put("has_states", s.hasStates);
    o.put("has_stacks", s.hasStacks);
    ArrayNode names = o.putArray("state_names");
    for (ThreadState st : ThreadState.values()) {
      names.add(st.label);
    }
    ArrayNode byState = o.putArray("by_state_ns");
    for (double ns : s.byStateNs) {
      byState.add(Math.round(ns));
    }
    lanes(o, p.stateTimeline, laneNames);
    FlameTree flame = offCpuFlame(s);
    if (flame.nodeCount() > 1) {
      flame.writeTo(o.putArray("offcpu_flame"), strings);
    } else {
      o.putNull("offcpu_flame");
    }
  }

  private static void lanes(ObjectNode o, StateTimeline t, Map<Integer, String> names) {
    if (t == null) {
      o.putNull("lanes");
      return;
    }
    ObjectNode l = o.putObject("lanes");
    l.put("start_ns", t.startNs);
    l.put("bucket_ns", t.bucketNs);
    l.put("buckets", t.buckets);
    l.put("threads", t.threads);
    ArrayNode list = l.putArray("lanes");
    for (StateTimeline.Lane lane : t.lanes) {
      ObjectNode one = list.addObject();
      one.put("tid", lane.tid());
      one.put("name", names.getOrDefault(lane.tid(), "tid " + lane.tid()));
      one.put("states", runLengths(lane.states()));
      ArrayNode ns = one.putArray("by_state_ns");
      for (double v : lane.byStateNs()) {
        ns.add(Math.round(v));
      }
    }
  }

  /**
   * A lane's buckets as runs: per run a letter, 'a' + the state's ordinal or '.' for no kept
   * time, then its length in buckets when over 1 ("c120a3.b" = 120 sleeping, 3 running, 1 none,
   * 1 runnable): long waits and runs cost a few characters, not one per bucket.
   */
  static String runLengths(byte[] states) {
    StringBuilder sb = new StringBuilder();
    for (int k = 0; k < states.length;) {
      int e = k + 1;
      while (e < states.length && states[e] == states[k]) {
        e++;
      }
      sb.append(states[k] == StateTimeline.NONE ? '.' : (char) ('a' + states[k]));
      if (e - k > 1) {
        sb.append(e - k);
      }
      k = e;
    }
    return sb.toString();
  }

  /**
   * Off-CPU thread ns per (state, switch-out stack), over the process's threads: real-time
   * column the off-CPU ns, CPU column 0. Small frames merged as in every flame graph.
   */
  static FlameTree offCpuFlame(ThreadStateSummary s) {
    FlameTree tree = FlameTree.empty("all", 1);
    for (Map.Entry<ThreadStateSummary.Wait, Double> e : s.waits.entrySet()) {
      long ns = Math.round(e.getValue());
      if (ns <= 0) {
        continue;
      }
      Frame[] stack = e.getKey().stack().frames();
      Frame[] withState = new Frame[stack.length + 1];
      withState[0] = new Frame(e.getKey().state().label, STATE_DSO);
      System.arraycopy(stack, 0, withState, 1, stack.length);
      tree.add(0, null, withState, ns, 0);
    }
    tree.mergeSmall();
    return tree;
  }
}
