package dev.loadprof.perfdata.symbols;

import dev.loadprof.model.Frame;
import dev.loadprof.testtools.RequiredTools;
import dev.loadprof.testtools.RequiredTools.Tool;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The truth perf gives on this machine: programs built with gcc, recorded with perf record -g,
 * and {@code perf script -D -F pid,ip,sym,dso}, which prints each record raw (MMAP, FORK, COMM
 * exec, and every sample's raw callchain) followed by the frames perf made of it. Replaying the
 * records through a {@link Symbolizer} and zipping its frames with perf's compares the two frame
 * by frame.
 */
public final class PerfTruth {
  private static final Pattern MMAP = Pattern.compile("PERF_RECORD_MMAP2? (-?\\d+)/-?\\d+: "
      + "\\[0x([0-9a-f]+)\\(0x([0-9a-f]+)\\) @ (?:0x)?([0-9a-f]+)[^\\]]*\\]: \\S+ (.*)$");
  private static final Pattern FORK =
      Pattern.compile("PERF_RECORD_FORK\\((-?\\d+):-?\\d+\\):\\((-?\\d+):-?\\d+\\)");
  private static final Pattern EXEC = Pattern.compile("PERF_RECORD_COMM exec: .*:(-?\\d+)/-?\\d+");
  private static final Pattern SAMPLE = Pattern.compile("PERF_RECORD_SAMPLE\\([^)]*\\): (-?\\d+)/");
  private static final Pattern CHAIN_ENTRY =
      Pattern.compile("^\\.\\.\\.\\.\\.\\s+\\d+: ([0-9a-f]+)$");
  private static final Pattern FRAME =
      Pattern.compile("^\\s+([0-9a-f]+) (.*?) \\(((?:/|\\[).*)\\)$");
  private static final long CONTEXT_KERNEL = -128;
  private static final long CONTEXT_MAX = -4095;

  /** One callchain entry: perf's frame and ours. */
  public record Pair(Frame perf, Frame ours) {}

  /** What a replay gave: the pairs, and samples whose chain and frames could not be zipped. */
  record Replay(List<Pair> pairs, int unzippedSamples) {
    List<Pair> differences() {
      return pairs.stream().filter(p -> !p.perf().equals(p.ours())).toList();
    }
  }

  private PerfTruth() {}

  /** Skips the test unless perf, gcc and root are here (fails then, when tools are required). */
  static void assumeToolsAndRoot() {
    RequiredTools.require(Tool.PERF, Tool.GCC);
    RequiredTools.requireRoot("perf record -g of kernel frames needs it");
  }

  /** Runs a command in {@code dir}, failing the test with its output when it fails. */
  public static String run(Path dir, List<String> command)
      throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).directory(dir.toFile())
        .redirectErrorStream(false).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    byte[] out = process.getInputStream().readAllBytes();
    if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IOException(String.join(" ", command) + " failed: exit "
          + (process.isAlive() ? "timeout" : process.exitValue()));
    }
    return new String(out, StandardCharsets.UTF_8);
  }

  /** perf record -g of {@code command} into dir/name.data. */
  public static Path record(Path dir, String name, List<String> command)
      throws IOException, InterruptedException {
    Path data = dir.resolve(name + ".data");
    List<String> full = new ArrayList<>(List.of("perf", "record", "-q", "-g", "-e", "cpu-clock",
        "-o", data.toString(), "--"));
    full.addAll(command);
    run(dir, full);
    return data;
  }

  /** Object path to build id, from perf buildid-list (the reader gets them from the header). */
  static Map<String, byte[]> buildIds(Path data, List<String> perfPrefix)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(perfPrefix);
    command.addAll(List.of("buildid-list", "-i", data.toString()));
    Map<String, byte[]> ids = new HashMap<>();
    for (String line : run(data.getParent(), command).split("\n")) {
      String[] parts = line.strip().split("\\s+", 2);
      if (parts.length == 2 && parts[0].matches("[0-9a-f]{16,}")) {
        ids.put(parts[1], HexFormat.of().parseHex(parts[0]));
      }
    }
    return ids;
  }

  /** One record of perf's dump, in file order: what the reader would hand the symbolizer. */
  public sealed interface Event permits Mmap, Fork, Exec, Sample {}

  public record Mmap(int pid, long start, long length, long pgoff, String file, byte[] buildId)
      implements Event {}

  public record Fork(int parentPid, int childPid) implements Event {}

  public record Exec(int pid) implements Event {}

  /** A sample's raw callchain (context markers removed) and the frames perf printed for it. */
  public record Sample(int pid, long[] ips, boolean[] kernel, List<Frame> perfFrames)
      implements Event {}

  /**
   * The records of {@code data} as {@code perf script -D -F pid,ip,sym,dso} prints them, with
   * build ids from perf buildid-list; {@code perfPrefix} is "perf" and its global options.
   */
  public static List<Event> events(Path data, List<String> perfPrefix, List<String> scriptOptions)
      throws IOException, InterruptedException {
    Map<String, byte[]> ids = buildIds(data, perfPrefix);
    List<String> command = new ArrayList<>(perfPrefix);
    command.addAll(List.of("script", "-D", "-F", "pid,ip,sym,dso", "-i", data.toString()));
    command.addAll(scriptOptions);
    String[] lines = run(data.getParent(), command).split("\n");
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      Matcher m;
      if ((m = MMAP.matcher(line)).find()) {
        String file = m.group(5).strip();
        String idKey = file.startsWith(Symbolizer.KERNEL_DSO) ? Symbolizer.KERNEL_DSO : file;
        events.add(new Mmap(Integer.parseInt(m.group(1)), Long.parseUnsignedLong(m.group(2), 16),
            Long.parseUnsignedLong(m.group(3), 16), Long.parseUnsignedLong(m.group(4), 16), file,
            ids.get(idKey)));
      } else if ((m = FORK.matcher(line)).find()) {
        events.add(new Fork(Integer.parseInt(m.group(2)), Integer.parseInt(m.group(1))));
      } else if ((m = EXEC.matcher(line)).find()) {
        events.add(new Exec(Integer.parseInt(m.group(1))));
      } else if ((m = SAMPLE.matcher(line)).find()) {
        List<Long> ips = new ArrayList<>();
        List<Boolean> kernel = new ArrayList<>();
        boolean inKernel = false;
        int j = i + 1;
        for (; j < lines.length && !lines[j].startsWith(" ... thread"); j++) {
          Matcher entry = CHAIN_ENTRY.matcher(lines[j]);
          if (entry.matches()) {
            long ip = Long.parseUnsignedLong(entry.group(1), 16);
            if (Long.compareUnsigned(ip, CONTEXT_MAX) >= 0) {
              inKernel = ip == CONTEXT_KERNEL;
            } else {
              ips.add(ip);
              kernel.add(inKernel);
            }
          }
        }
        List<Frame> perfs = new ArrayList<>();
        for (; j < lines.length && !lines[j].isEmpty(); j++) {
          Matcher frame = FRAME.matcher(lines[j]);
          if (frame.matches()) {
            perfs.add(new Frame(frame.group(2), frame.group(3),
                Long.parseUnsignedLong(frame.group(1), 16)));
          }
        }
        long[] ipArray = ips.stream().mapToLong(Long::longValue).toArray();
        boolean[] kernelArray = new boolean[kernel.size()];
        for (int k = 0; k < kernelArray.length; k++) {
          kernelArray[k] = kernel.get(k);
        }
        events.add(new Sample(Integer.parseInt(m.group(1)), ipArray, kernelArray, perfs));
        i = j;
      }
    }
    return events;
  }

  /** Feeds {@code events} to {@code symbolizer} in order; how many frames it made. */
  public static long feed(List<Event> events, Symbolizer symbolizer, List<Pair> pairs) {
    long frames = 0;
    for (Event event : events) {
      if (event instanceof Mmap m) {
        symbolizer.mmap(m.pid(), m.start(), m.length(), m.pgoff(), m.file(), m.buildId());
      } else if (event instanceof Fork f) {
        symbolizer.fork(f.parentPid(), f.childPid());
      } else if (event instanceof Exec e) {
        symbolizer.exec(e.pid());
      } else if (event instanceof Sample s) {
        Frame[] ours = new Frame[s.ips().length];
        for (int k = 0; k < ours.length; k++) {
          ours[k] = symbolizer.frame(s.pid(), s.ips()[k], s.kernel()[k]);
        }
        frames += ours.length;
        if (pairs != null && ours.length == s.perfFrames().size()) {
          for (int k = 0; k < ours.length; k++) {
            pairs.add(new Pair(s.perfFrames().get(k), ours[k]));
          }
        }
      }
    }
    return frames;
  }

  /** Replays {@code data} through {@code symbolizer}, pairing each frame with perf's. */
  static Replay replay(Path data, List<String> perfPrefix, List<String> scriptOptions,
      Symbolizer symbolizer) throws IOException, InterruptedException {
    List<Event> events = events(data, perfPrefix, scriptOptions);
    List<Pair> pairs = new ArrayList<>();
    feed(events, symbolizer, pairs);
    long unzipped = events.stream().filter(e -> e instanceof Sample s
        && s.ips().length != s.perfFrames().size()).count();
    return new Replay(pairs, (int) unzipped);
  }

  /** gcc or g++ {@code source} (text) into dir/name with the given flags. */
  static Path compile(Path dir, String name, String compiler, String source, List<String> flags)
      throws IOException, InterruptedException {
    String suffix = compiler.equals("g++") ? ".cpp" : ".c";
    Path file = dir.resolve(name + suffix);
    Files.writeString(file, source);
    List<String> command = new ArrayList<>(List.of(compiler, "-O1", "-fno-omit-frame-pointer",
        "-o", dir.resolve(name).toString(), file.toString()));
    command.addAll(flags);
    run(dir, command);
    return dir.resolve(name);
  }
}
