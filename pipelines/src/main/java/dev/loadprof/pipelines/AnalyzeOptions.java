package dev.loadprof.pipelines;

import java.util.List;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * Options of the analyze and archive pipelines. The CLI (dev.loadprof.cli) sets them from its
 * own options, e.g. {@code -p/--pid} and {@code --window}.
 */
public interface AnalyzeOptions extends PipelineOptions {
  @Description("Trace files to analyze: perf script text, plain or gzip; one file is one run."
      + " Comma-separated; globs are allowed. The CLI takes them as positional arguments.")
  String getTraces();

  void setTraces(String value);

  @Description("Directory for the outputs (profile.pb.gz, histogram.txt, functions.txt,"
      + " flame.folded, summary.json, summary.txt, report.html).")
  @Default.String("loadprof-out")
  String getOut();

  void setOut(String value);

  @Description("Length of the time windows that the trace is cut into, in milliseconds. Memory"
      + " per worker is bounded by one window of events.")
  @Default.Long(1000)
  long getWindowMs();

  void setWindowMs(long value);

  @Description("Keep only the processes with these pids (none: all).")
  List<Integer> getPid();

  void setPid(List<Integer> value);

  @Description("Keep only processes whose name (comm) matches this regular expression.")
  String getComm();

  void setComm(String value);

  @Description("Keep only samples whose load is in [A, B] in profile.pb.gz, functions.txt and"
      + " flame.folded (histograms stay whole). Forms: A:B, A, A: (A or more), :B.")
  String getLoad();

  void setLoad(String value);

  @Description("Keep only the samples of these threads in profile.pb.gz, functions.txt and"
      + " flame.folded (loads still count every thread).")
  List<Integer> getTid();

  void setTid(List<Integer> value);

  @Description("Keep only the samples taken on these CPUs (perf's -C list, e.g. 0,2-3) in"
      + " profile.pb.gz, functions.txt and flame.folded (loads still count every CPU).")
  String getCpu();

  void setCpu(String value);

  @Description("Keep only the samples in this time (perf's --time: START,END seconds, open"
      + " ends, or percentages such as 10%/2 and 0%-10%) in profile.pb.gz, functions.txt and"
      + " flame.folded (loads still count all the time).")
  String getTime();

  void setTime(String value);

  @Description("Sampling event to profile (e.g. cpu-clock, cycles). Default: the first sampling"
      + " event in each trace.")
  String getEvent();

  void setEvent(String value);

  @Description("Group the many-runs reports (groups.txt, summary.json groups) by host, comm,"
      + " run, or run:REGEX (the first capture group of REGEX in the run id); none gives one"
      + " group per process name across runs.")
  @Default.String("none")
  String getGroupBy();

  void setGroupBy(String value);

  // Archive partitions and debris (stores)
  @Description("archive: the night (UTC date YYYY-MM-DD) the traces belong to, their partition"
      + " in the archive. Default: the UTC date each trace file was last modified.")
  String getNight();

  void setNight(String value);

  @Description("Read only the archived runs of these nights: dates YYYY-MM-DD or ranges"
      + " FROM..TO, comma-separated. Lists only those nights' part of the archive.")
  String getNights();

  void setNights(String value);

  @Description("Read only the archived runs of these hosts (as the traces' headers name them;"
      + " _ for runs without a host), comma-separated.")
  String getHosts();

  void setHosts(String value);

  @Description("archive: files that failed or killed archive jobs left for a run are deleted"
      + " by the next job that commits the run, once they are this many minutes old (younger"
      + " ones may belong to a job still running).")
  @Default.Long(60)
  long getArchiveDebrisGraceMinutes();

  void setArchiveDebrisGraceMinutes(long value);
  @Description("perf.data inputs are decoded by this many perf script processes in parallel"
      + " (pipeline splits); 0 means one per available processor.")
  @Default.Integer(0)
  int getDecodePieces();

  void setDecodePieces(int value);

  @Description("The text of each trace is parsed on this many threads (its parts in parallel,"
      + " their events in order); 0 means one per available processor.")
  @Default.Integer(0)
  int getParseThreads();

  void setParseThreads(int value);

  @Description("How perf.data is cut for parallel decoding: time (time slices, --time) or cpu"
      + " (one piece per CPU, -C; system-wide recordings only).")
  @Default.String("time")
  String getDecodeSplit();

  void setDecodeSplit(String value);
}
