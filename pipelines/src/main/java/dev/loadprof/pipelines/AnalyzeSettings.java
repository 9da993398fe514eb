package dev.loadprof.pipelines;

import dev.loadprof.critical.WhatIfRequest;
import dev.loadprof.perfdata.DecodePiece;
import dev.loadprof.perfdata.reader.PerfDataReading;
import java.util.List;
import java.util.Set;

/**
 * What an analysis job reads and writes, and how: the settings of analyze, and of the analyses
 * that archive, compare and nightly run. The CLI builds it from its picocli options, which hold
 * each option's one default and one description; Beam's PipelineOptions carry only the runner's
 * flags. Immutable.
 *
 * @param out the output directory
 * @param windowMs length of the time windows the traces are cut into
 * @param event the sampling event to profile, or null for each trace's first
 * @param decodePieces perf script processes per perf.data input; 0: one per processor
 * @param parseThreads threads that parse one trace's text; 0: one per processor
 * @param decodeSplit how perf.data is cut for parallel decoding
 * @param pids only these processes, or null for all
 * @param comm only processes whose name matches this regular expression, or null
 * @param load only samples with their load in this range (A:B) in the profile, or null
 * @param tids only these threads' samples in the profile, or null
 * @param cpus only the samples taken on these CPUs (perf's -C list) in the profile, or null
 * @param time only the samples in this time (perf's --time) in the profile, or null
 * @param groupBy how many-runs reports are grouped: none, host, comm, run, run:REGEX
 * @param nights only the archived runs of these nights, or null
 * @param hosts only the archived runs of these hosts, or null
 * @param perfDataReading how perf.data is decoded: native reader, perf script, or auto
 * @param whatIfs the --what-if speed-ups predicted on the critical path (analyze's)
 */
public record AnalyzeSettings(String out, long windowMs, String event, int decodePieces,
    int parseThreads, DecodePiece.Kind decodeSplit, Set<Integer> pids, String comm, String load,
    Set<Integer> tids, String cpus, String time, String groupBy, String nights, String hosts,
    PerfDataReading perfDataReading, List<WhatIfRequest> whatIfs) {

  public AnalyzeSettings {
    pids = pids == null ? null : Set.copyOf(pids);
    tids = tids == null ? null : Set.copyOf(tids);
    whatIfs = whatIfs == null ? List.of() : List.copyOf(whatIfs);
  }

  /** The same job, predicting these what-ifs on the critical path. */
  public AnalyzeSettings withWhatIfs(List<WhatIfRequest> requests) {
    return new AnalyzeSettings(out, windowMs, event, decodePieces, parseThreads, decodeSplit,
        pids, comm, load, tids, cpus, time, groupBy, nights, hosts, perfDataReading, requests);
  }

  /** The same job writing into {@code dir}: the CLI's private staging directory of --out. */
  public AnalyzeSettings writingTo(String dir) {
    return new AnalyzeSettings(dir, windowMs, event, decodePieces, parseThreads, decodeSplit,
        pids, comm, load, tids, cpus, time, groupBy, nights, hosts, perfDataReading, whatIfs);
  }

  /** A builder for the job that writes to {@code out}; each group of options fills its part. */
  public static Builder builder(String out) {
    return new Builder(out);
  }

  /** Filled by the CLI's option groups, then {@link #build built} once. */
  public static final class Builder {
    private final String out;
    private long windowMs;
    private String event;
    private int decodePieces;
    private int parseThreads;
    private DecodePiece.Kind decodeSplit = DecodePiece.Kind.TIME;
    private Set<Integer> pids;
    private String comm;
    private String load;
    private Set<Integer> tids;
    private String cpus;
    private String time;
    private String groupBy = "none";
    private String nights;
    private String hosts;
    private PerfDataReading perfDataReading = PerfDataReading.AUTO;

    private Builder(String out) {
      this.out = out;
    }

    /** How traces are parsed and perf.data decoded. */
    public Builder parsing(long windowMs, String event, int decodePieces, int parseThreads,
        DecodePiece.Kind decodeSplit) {
      this.windowMs = windowMs;
      this.event = event;
      this.decodePieces = decodePieces;
      this.parseThreads = parseThreads;
      this.decodeSplit = decodeSplit;
      return this;
    }

    /** Which processes are analyzed, which samples the profile keeps, and the grouping. */
    public Builder filters(Set<Integer> pids, String comm, String load, Set<Integer> tids,
        String cpus, String time, String groupBy) {
      this.pids = pids;
      this.comm = comm;
      this.load = load;
      this.tids = tids;
      this.cpus = cpus;
      this.time = time;
      this.groupBy = groupBy;
      return this;
    }

    /** How perf.data inputs are decoded. */
    public Builder perfDataReading(PerfDataReading reading) {
      this.perfDataReading = reading;
      return this;
    }

    /** Which archived runs are read. */
    public Builder runs(String nights, String hosts) {
      this.nights = nights;
      this.hosts = hosts;
      return this;
    }

    public AnalyzeSettings build() {
      if (windowMs <= 0) {
        throw new IllegalStateException("the parsing settings were not given");
      }
      return new AnalyzeSettings(out, windowMs, event, decodePieces, parseThreads, decodeSplit,
          pids, comm, load, tids, cpus, time, groupBy, nights, hosts, perfDataReading, null);
    }
  }
}
