package dev.loadprof.perfdata;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * One piece of a perf.data file that one {@code perf script} process decodes: the records of one
 * CPU ({@code -C}), or of one time slice ({@code --time}). The pieces of a recording, decoded
 * separately and put back together in index order, give the text that one {@code perf script}
 * would have printed: time slices are concatenated, CPU pieces are merged by time.
 *
 * @param kind {@link Kind#WHOLE} for a text trace or a perf.data decoded in one piece
 * @param fromNs first ns of a time slice (inclusive); Long.MIN_VALUE for the first slice
 * @param toNs last ns of a time slice (inclusive); Long.MAX_VALUE for the last slice
 */
public record DecodePiece(Kind kind, int index, int count, int cpu, long fromNs, long toNs)
    implements Serializable {

  /** How a recording is cut into pieces; NATIVE: read whole by the native reader, not perf. */
  public enum Kind { WHOLE, CPU, TIME, NATIVE }

  public static DecodePiece whole() {
    return new DecodePiece(Kind.WHOLE, 0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE);
  }

  /** The whole recording, for the native reader. */
  public static DecodePiece nativeRead() {
    return new DecodePiece(Kind.NATIVE, 0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE);
  }

  /**
   * The pieces of a recording: up to {@code wanted} of the given kind. CPU pieces need samples
   * with a CPU (a system-wide recording); a per-process recording falls back to time slices.
   */
  public static List<DecodePiece> plan(PerfDataHeader header, Kind kind, int wanted) {
    List<DecodePiece> pieces = new ArrayList<>();
    if (wanted <= 1 || kind == Kind.WHOLE) {
      pieces.add(whole());
      return pieces;
    }
    if (kind == Kind.CPU && header.samplesHaveCpu() && header.cpus() > 1) {
      for (int c = 0; c < header.cpus(); c++) {
        pieces.add(new DecodePiece(Kind.CPU, c, header.cpus(), c, Long.MIN_VALUE,
            Long.MAX_VALUE));
      }
      return pieces;
    }
    long first = header.firstSampleNs();
    long span = header.lastSampleNs() - first;
    if (span <= 0) {
      pieces.add(whole());
      return pieces;
    }
    for (int i = 0; i < wanted; i++) {
      long from = i == 0 ? Long.MIN_VALUE : first + span * i / wanted;
      long to = i == wanted - 1 ? Long.MAX_VALUE : first + span * (i + 1) / wanted - 1;
      pieces.add(new DecodePiece(Kind.TIME, i, wanted, -1, from, to));
    }
    return pieces;
  }

  /** perf script's arguments that select this piece. */
  List<String> perfArgs() {
    return switch (kind) {
      case WHOLE, NATIVE -> List.of();
      case CPU -> List.of("-C", Integer.toString(cpu));
      case TIME -> List.of("--time", seconds(Math.max(0, fromNs)) + ","
          + (toNs == Long.MAX_VALUE ? "" : seconds(toNs)));
    };
  }

  /** True when a side-band record (PERF_RECORD_*) at timeNs belongs to this piece. */
  boolean owns(long timeNs) {
    return kind != Kind.TIME || (timeNs >= fromNs && timeNs <= toNs);
  }

  private static String seconds(long ns) {
    return String.format("%d.%09d", ns / 1_000_000_000L, ns % 1_000_000_000L);
  }
}
