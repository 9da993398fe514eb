package dev.loadprof.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loadprof.model.Frame;
import dev.loadprof.model.ProcessKey;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.profile.StackWeight;
import dev.loadprof.wall.ThreadStateSummary;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * flame.speedscope.json: flame.folded and offcpu.folded for speedscope, in its own file format
 * (https://www.speedscope.app/file-format-schema.json), which says its unit: a folded file
 * cannot, and speedscope read flame.folded's nanoseconds as plain counts ("3,500,000,000").
 * Per process (the subject first, as everywhere) a sampled profile of its real time on CPU,
 * then, when it has thread states, one of its threads' off-CPU time; stacks and frame names
 * exactly as in the folded files (the comm and run are the profile's name, not a frame).
 */
public final class SpeedscopeReport implements TextReport {
  public static final String FILE_NAME = "flame.speedscope.json";
  static final String SCHEMA = "https://www.speedscope.app/file-format-schema.json";
  private static final ObjectMapper JSON = new ObjectMapper();

  @Override
  public String fileName() {
    return FILE_NAME;
  }

  @Override
  public String render(Analysis a) {
    ObjectNode root = JSON.createObjectNode();
    root.put("$schema", SCHEMA);
    ArrayNode frames = root.putObject("shared").putArray("frames");
    Map<String, Integer> frameIds = new HashMap<>();
    ArrayNode profiles = root.putArray("profiles");
    Map<String, List<StackWeight>> byProcess = new LinkedHashMap<>();
    for (StackWeight s : a.filteredStacks()) {
      byProcess.computeIfAbsent(s.runId() + '\0' + s.pid(), k -> new ArrayList<>()).add(s);
    }
    boolean withRun = a.runs().size() > 1;
    for (ProcessLoad p : a.processes()) {
      String name = Printable.escape(a.comm(p.runId, p.pid)) + " (pid " + ProcessKey.pid(p.pid)
          + (withRun ? ", run " + p.runId : "") + ")";
      List<StackWeight> stacks = byProcess.getOrDefault(p.runId + '\0' + p.pid, List.of());
      if (!stacks.isEmpty()) {
        Profile real = new Profile(profiles, name + ": real time on CPU");
        List<Sample> samples = new ArrayList<>();
        stacks.forEach(s -> samples.add(new Sample(FoldedReport.segments(s.stack()), s.wallNs())));
        real.addAll(samples, frames, frameIds);
      }
      if (p.threadStates != null && !p.threadStates.waits.isEmpty()) {
        Profile off = new Profile(profiles, name + ": off-CPU thread time");
        List<Sample> samples = new ArrayList<>();
        for (Map.Entry<ThreadStateSummary.Wait, Double> e : p.threadStates.waits.entrySet()) {
          Frame[] stack = e.getKey().stack().frames();
          List<String> segments = new ArrayList<>(FoldedReport.segments(stack));
          segments.add(FoldedReport.clean(e.getKey().state().label)); // the state is the leaf
          samples.add(new Sample(segments, Math.round(e.getValue())));
        }
        off.addAll(samples, frames, frameIds);
      }
    }
    ProcessLoad headline = a.headline();
    root.put("name", "loadprof: " + (headline == null ? "no process"
        : Printable.escape(a.comm(headline.runId, headline.pid))));
    root.put("exporter", "loadprof " + SummaryJson.VERSION);
    root.put("activeProfileIndex", 0);
    return root.toString() + "\n";
  }

  /** The frame indices of the segments (root to leaf), each name added to frames once. */
  private static List<Integer> ids(List<String> segments, ArrayNode frames,
      Map<String, Integer> frameIds) {
    List<Integer> out = new ArrayList<>(segments.size());
    for (String s : segments) {
      out.add(frameIds.computeIfAbsent(s, n -> {
        frames.addObject().put("name", n);
        return frames.size() - 1;
      }));
    }
    return out;
  }

  /** A stack (root to leaf) and its weight in ns. */
  private record Sample(List<String> segments, long ns) {
    String folded() {
      return String.join(";", segments);
    }
  }

  /** One sampled profile: its stacks and their weights in ns; endValue their sum. */
  private static final class Profile {
    private final ObjectNode node;
    private final ArrayNode samples;
    private final ArrayNode weights;
    private long total;

    Profile(ArrayNode profiles, String name) {
      node = profiles.addObject();
      node.put("type", "sampled");
      node.put("name", name);
      node.put("unit", "nanoseconds");
      node.put("startValue", 0);
      samples = node.putArray("samples");
      weights = node.putArray("weights");
    }

    /**
     * One sample per folded line (stacks whose names fold alike summed, as in the folded
     * files), in the order of the lines, and the frames numbered in that order: the waits' map
     * keeps the order in which the decoding threads first saw them, which differs from run to
     * run, and the file must be the same bytes for the same trace.
     */
    void addAll(List<Sample> samples, ArrayNode frames, Map<String, Integer> frameIds) {
      java.util.TreeMap<String, Sample> lines = new java.util.TreeMap<>();
      for (Sample s : samples) {
        lines.merge(s.folded(), s, (a, b) -> new Sample(a.segments(), a.ns() + b.ns()));
      }
      for (Sample s : lines.values()) {
        add(ids(s.segments(), frames, frameIds), s.ns());
      }
      end();
    }

    void add(List<Integer> stack, long ns) {
      if (ns > 0) {
        ArrayNode sample = samples.addArray();
        stack.forEach(sample::add);
        weights.add(ns);
        total += ns;
      }
    }

    void end() {
      node.put("endValue", total);
    }
  }
}
