package dev.loadprof.perfdata.symbols;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.loadprof.model.Frame;
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
final class PerfTruth {
  private static final Pattern MMAP = Pattern.compile("PERF_RECORD_MMAP2? (-?\\d+)/-?\\d+: "
      + "\\[0x([0-9a-f]+)\\(0x([0-9a-f]+)\\) @ (?:0x)?([0-9a-f]+)[^\\]]*\\]: \\S+ (.*)$");
  private static final Pattern FORK =
      Pattern.compile("PERF_RECORD_FORK\\((-?\\d+):-?\\d+\\):\\((-?\\d+):-?\\d+\\)");
  private static final Pattern EXEC = Pattern.compile("PERF_RECORD_COMM exec: .*:(-?\\d+)/-?\\d+");
  private static final Pattern SAMPLE = Pattern.compile("PERF_RECORD_SAMPLE\\([^)]*\\): (-?\\d+)/");
  private static final Pattern CHAIN_ENTRY = Pattern.compile("^\\.\\.\\.\\.\\.\\s+\\d+: ([0-9a-f]+)$");
  private static final Pattern FRAME =
      Pattern.compile("^\\s+([0-9a-f]+) (.*?) \\(((?:/|\\[).*)\\)$");
  private static final long CONTEXT_KERNEL = -128;
  private static final long CONTEXT_MAX = -4095;

  /** One callchain entry: perf's frame and ours. */
  record Pair(Frame perf, Frame ours) {}

  /** What a replay gave: the pairs, and samples whose chain and frames could not be zipped. */
  record Replay(List<Pair> pairs, int unzippedSamples) {
    List<Pair> differences() {
      return pairs.stream().filter(p -> !p.perf().equals(p.ours())).toList();
    }
  }

  private PerfTruth() {}

  /** Skips the test unless perf, gcc and root are here. */
  static void assumeToolsAndRoot() {
    assumeTrue(onPath("perf") && onPath("gcc"), "SKIPPED: needs perf and gcc on the PATH");
    assumeTrue("root".equals(System.getProperty("user.name")), "SKIPPED: perf record -g needs root");
  }

  private static boolean onPath(String tool) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (Files.isExecutable(Path.of(dir, tool))) {
        return true;
      }
    }
    return false;
  }

  /** Runs a command in {@code dir}, failing the test with its output when it fails. */
  static String run(Path dir, List<String> command) throws IOException, InterruptedException {
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
  static Path record(Path dir, String name, List<String> command)
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

  /**
   * Replays {@code data} through {@code symbolizer}: perf's dump drives mmap/fork/exec, and each
   * sample's raw callchain is symbolized and paired with the frame perf printed.
   */
  static Replay replay(Path data, List<String> perfPrefix, List<String> scriptOptions,
      Symbolizer symbolizer) throws IOException, InterruptedException {
    Map<String, byte[]> ids = buildIds(data, perfPrefix);
    List<String> command = new ArrayList<>(perfPrefix);
    command.addAll(List.of("script", "-D", "-F", "pid,ip,sym,dso", "-i", data.toString()));
    command.addAll(scriptOptions);
    String[] lines = run(data.getParent(), command).split("\n");
    List<Pair> pairs = new ArrayList<>();
    int unzipped = 0;
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      Matcher m;
      if ((m = MMAP.matcher(line)).find()) {
        String file = m.group(5).strip();
        String idKey = file.startsWith(Symbolizer.KERNEL_DSO) ? Symbolizer.KERNEL_DSO : file;
        symbolizer.mmap(Integer.parseInt(m.group(1)), Long.parseUnsignedLong(m.group(2), 16),
            Long.parseUnsignedLong(m.group(3), 16), Long.parseUnsignedLong(m.group(4), 16), file,
            ids.get(idKey));
      } else if ((m = FORK.matcher(line)).find()) {
        symbolizer.fork(Integer.parseInt(m.group(2)), Integer.parseInt(m.group(1)));
      } else if ((m = EXEC.matcher(line)).find()) {
        symbolizer.exec(Integer.parseInt(m.group(1)));
      } else if ((m = SAMPLE.matcher(line)).find()) {
        int pid = Integer.parseInt(m.group(1));
        List<Frame> ours = new ArrayList<>();
        boolean kernel = false;
        int j = i + 1;
        for (; j < lines.length && !lines[j].startsWith(" ... thread"); j++) {
          Matcher entry = CHAIN_ENTRY.matcher(lines[j]);
          if (entry.matches()) {
            long ip = Long.parseUnsignedLong(entry.group(1), 16);
            if (Long.compareUnsigned(ip, CONTEXT_MAX) >= 0) {
              kernel = ip == CONTEXT_KERNEL;
            } else {
              ours.add(symbolizer.frame(pid, ip, kernel));
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
        if (perfs.size() != ours.size()) {
          unzipped++;
        } else {
          for (int k = 0; k < perfs.size(); k++) {
            pairs.add(new Pair(perfs.get(k), ours.get(k)));
          }
        }
        i = j;
      }
    }
    return new Replay(pairs, unzipped);
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
