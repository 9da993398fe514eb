package dev.loadprof.pipelines;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * Damaged and hostile variants of a real perf script trace, as an unlucky or malicious user would
 * make them. A trace is cut into records (a header line, its stack lines and the blank
 * line after them); the variants reorder, repeat or rewrite records, or damage the file's bytes.
 */
final class DamagedTraces {
  static final long SECOND = 1_000_000_000L;
  static final long MS = 1_000_000L;

  private static final Pattern HEADER =
      Pattern.compile("^(.*?)\\s+(-?\\d+)/(-?\\d+)\\s+\\[(\\d+)\\]\\s+(\\d+)\\.(\\d{9}):");

  /** One record: its text (ending with a newline), time (ns; 0 for the preamble) and CPU. */
  record Rec(String text, long timeNs, int cpu) {
    boolean isSample() {
      return text.contains(" cpu-clock:");
    }

    Rec withText(String t) {
      return new Rec(t, timeNs, cpu);
    }
  }

  private DamagedTraces() {}

  static String text(Path gz) {
    try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<Rec> records(String text) {
    List<Rec> recs = new ArrayList<>();
    StringBuilder cur = null;
    long time = 0;
    int cpu = 0;
    for (String line : text.split("\n", -1)) {
      boolean continuation = line.startsWith("\t") || line.isBlank();
      if (!continuation || cur == null) {
        if (cur != null) {
          recs.add(new Rec(cur.toString(), time, cpu));
        }
        cur = new StringBuilder();
        Matcher m = HEADER.matcher(line);
        if (m.find()) {
          time = Long.parseLong(m.group(5)) * SECOND + Long.parseLong(m.group(6));
          cpu = Integer.parseInt(m.group(4));
        }
      }
      cur.append(line).append('\n');
    }
    if (cur != null) {
      String last = cur.toString();
      // split() gave a last empty element for the final newline: drop the extra one.
      recs.add(new Rec(last.substring(0, last.length() - 1), time, cpu));
    }
    return recs;
  }

  static String join(List<Rec> recs) {
    StringBuilder b = new StringBuilder();
    recs.forEach(r -> b.append(r.text()));
    return b.toString();
  }

  static byte[] gzip(String text) {
    return gzip(text.getBytes(StandardCharsets.UTF_8));
  }

  static byte[] gzip(byte[] bytes) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  // ---------------------------------------------------------------- time order

  /** Stable sort of the timed records by a key; the time-0 preamble stays in front. */
  private static List<Rec> sortedBy(List<Rec> recs, ToLongFunction<Rec> key) {
    List<Rec> out = new ArrayList<>(recs);
    out.sort(Comparator.comparingLong(r -> r.timeNs() == 0 ? Long.MIN_VALUE : key.applyAsLong(r)));
    return out;
  }

  /** The records of each (aligned) window of windowNs in reverse order. */
  static List<Rec> reversedWithinWindows(List<Rec> recs, long windowNs) {
    List<Rec> out = new ArrayList<>();
    List<Rec> group = new ArrayList<>();
    long groupWindow = Long.MIN_VALUE;
    for (Rec r : recs) {
      long w = r.timeNs() == 0 ? Long.MIN_VALUE : r.timeNs() / windowNs;
      if (w != groupWindow) {
        Collections.reverse(group);
        out.addAll(group);
        group.clear();
        groupWindow = w;
      }
      group.add(r);
    }
    Collections.reverse(group);
    out.addAll(group);
    return out;
  }

  static List<Rec> shuffled(List<Rec> recs, long seed) {
    List<Rec> preamble = recs.stream().filter(r -> r.timeNs() == 0).toList();
    List<Rec> timed = new ArrayList<>(recs.stream().filter(r -> r.timeNs() != 0).toList());
    Collections.shuffle(timed, new Random(seed));
    List<Rec> out = new ArrayList<>(preamble);
    out.addAll(timed);
    return out;
  }

  /** In each chunk of chunkNs, the higher CPU's records come before the lower CPU's. */
  static List<Rec> cpuBlocksSwapped(List<Rec> recs, long chunkNs) {
    return sortedBy(recs, r -> (r.timeNs() / chunkNs) * 1024 + (1023 - r.cpu()));
  }

  /** The records of one CPU appear in the file lateNs later than their time says. */
  static List<Rec> cpuWrittenLate(List<Rec> recs, int cpu, long lateNs) {
    return sortedBy(recs, r -> r.timeNs() + (r.cpu() == cpu ? lateNs : 0));
  }

  // ---------------------------------------------------------------- rewritten records

  /** The middle sample of the trace gets a timestamp offsetSeconds later (up to 10^10 s). */
  static List<Rec> oneSampleShifted(List<Rec> recs, long offsetSeconds) {
    List<Rec> out = new ArrayList<>(recs);
    int i = middleSample(out);
    Rec r = out.get(i);
    String time = String.format("%d.%09d", r.timeNs() / SECOND + offsetSeconds,
        r.timeNs() % SECOND);
    out.set(i, r.withText(replaceTime(r.text(), time)));
    return out;
  }

  static int middleSample(List<Rec> recs) {
    for (int i = recs.size() / 2; i < recs.size(); i++) {
      if (recs.get(i).isSample()) {
        return i;
      }
    }
    throw new IllegalStateException("no sample in the second half");
  }

  static String replaceTime(String text, String time) {
    Matcher m = HEADER.matcher(text);
    if (!m.find()) {
      throw new IllegalArgumentException(text);
    }
    return text.substring(0, m.start(5)) + time + text.substring(m.end(6));
  }

  static List<Rec> everyRecordTwice(List<Rec> recs) {
    List<Rec> out = new ArrayList<>();
    for (Rec r : recs) {
      out.add(r);
      out.add(r);
    }
    return out;
  }

  /** The samples of a thread between from and to get "-1/-1" as pid/tid, every nth one. */
  static List<Rec> unknownThreadSamples(List<Rec> recs, int tid, long fromNs, long toNs, int nth) {
    List<Rec> out = new ArrayList<>();
    int seen = 0;
    String id = "/" + tid + "  ";
    for (Rec r : recs) {
      if (r.isSample() && r.timeNs() >= fromNs && r.timeNs() < toNs && r.text().contains(id)
          && seen++ % nth == 0) {
        String header = r.text().substring(0, r.text().indexOf('\n'));
        Matcher m = HEADER.matcher(header);
        m.find();
        out.add(r.withText(":-1  -1/-1  " + r.text().substring(m.start(4) - 1)));
      } else {
        out.add(r);
      }
    }
    return out;
  }

  /** Sample periods of count samples of a process set to period. */
  static List<Rec> hugePeriods(List<Rec> recs, String comm, int count, long period) {
    List<Rec> out = new ArrayList<>();
    int left = count;
    for (Rec r : recs) {
      if (left > 0 && r.isSample() && r.text().startsWith(comm + " ")
          && r.timeNs() > recs.get(middleSample(recs)).timeNs()) {
        out.add(r.withText(r.text().replaceFirst("  250000  ", "  " + period + "  ")));
        left--;
      } else {
        out.add(r);
      }
    }
    return out;
  }

  /** Every occurrence of a string replaced (comms in headers and task records, symbols). */
  static String replaced(String text, String from, String to) {
    return text.replace(from, to);
  }
}
