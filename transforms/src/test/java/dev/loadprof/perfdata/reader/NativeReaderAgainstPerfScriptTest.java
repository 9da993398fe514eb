package dev.loadprof.perfdata.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.parse.PerfScriptParser;
import dev.loadprof.perfdata.DecodePiece;
import dev.loadprof.block.BlockBuilder;
import dev.loadprof.model.RunInfo;
import dev.loadprof.model.TraceHealth;
import dev.loadprof.perfdata.PerfDataHeader;
import dev.loadprof.perfdata.PerfScriptDecoder;
import dev.loadprof.perfdata.symbols.SymbolSources;
import dev.loadprof.testtools.RequiredTools.Tool;
import dev.loadprof.testtools.RequiredTools;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recordings made here, read by the native reader and by perf script + the text parser: the two
 * must send the same events in the same order (times, cpus, pids, comms, periods, switch states,
 * stack depths and addresses); frame names are compared apart, as a share. Needs root, perf and
 * the workloads of ../shared/workloads (skipped otherwise).
 */
class NativeReaderAgainstPerfScriptTest {
  @TempDir static Path dir;
  static Path workloads;

  @BeforeAll
  static void buildWorkloads() throws Exception {
    RequiredTools.require(Tool.PERF, Tool.MAKE, Tool.GCC);
    RequiredTools.requireRoot("perf record -a with sched tracepoints needs it");
    Path sources = RequiredTools.workloads();
    workloads = dir.resolve("wl");
    assertEquals(0, run(List.of("cp", "-r", sources.toString(), workloads.toString())));
    assertEquals(0, run(List.of("make", "-s", "-C", workloads.toString())));
  }

  @Test
  void systemWideSwitchesAndWakeupsMatchPerfScript() throws Exception {
    Path data = record("mixed.data", List.of("-a", "-g", "-e", "cpu-clock", "-e",
        "sched:sched_switch", "-e", "sched:sched_wakeup"), workloads.resolve("mixed") + " 40");
    compare(data);
  }

  /**
   * A ring buffer of one page loses records: the reader dates each PERF_RECORD_LOST (its
   * sample_id_all) within the recording, where compare's loss rule places it against the
   * compared processes' span; perf record's undated LOST_SAMPLES totals at the end count the
   * same drops again, and the run's lost_events counts each drop once. (Not against perf
   * script's calls: it prints no LOST_SAMPLES record.)
   */
  @Test
  void lostRecordsKeepTheirInstantsAndCountOnce() throws Exception {
    Path data = record("lossy.data", List.of("-m", "1", "-a", "-g", "-e", "cpu-clock", "-e",
        "sched:sched_switch", "-e", "sched:sched_wakeup"), workloads.resolve("mixed") + " 100 4");
    SinkLog log = new SinkLog();
    NativePerfDataReader.open(data, SymbolSources.live()).read(log);
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    for (String call : log.calls) {
      if (call.startsWith("sample ")) {
        long t = Long.parseLong(call.split(" ")[1]);
        first = Math.min(first, t);
        last = Math.max(last, t);
      }
    }
    long dated = 0;
    long undated = 0;
    for (String call : log.calls) {
      if (call.startsWith("lost ")) {
        long t = Long.parseLong(call.split(" ")[1]);
        long n = Long.parseLong(call.split(" ")[2]);
        if (t <= 0) {
          undated += n;
          continue;
        }
        dated += n;
        assertTrue(t >= first - 1_000_000_000L && t <= last + 1_000_000_000L,
            call + " outside the samples' " + first + ".." + last);
      }
    }
    assertTrue(dated > 0, "no dated loss with a one-page buffer: " + log.counts);
    BlockBuilder blocks = new BlockBuilder("lossy", data.toString(), 1_000_000_000L, null,
        b -> { });
    NativePerfDataReader.open(data, SymbolSources.live()).read(blocks);
    RunInfo run = blocks.finish();
    assertEquals(dated + Math.max(0, undated - dated), run.health.get(TraceHealth.LOST_EVENTS),
        "dated " + dated + ", undated " + undated);
    assertEquals(dated, run.losses.lostWithin(first - 1_000_000_000L, last + 1_000_000_000L));
  }

  @Test
  void perProcessContextSwitchesMatchPerfScript() throws Exception {
    Path data = record("per-process.data", List.of("-g", "--switch-events", "-e", "cpu-clock"),
        workloads.resolve("mixed") + " 20");
    compare(data);
  }

  /**
   * perf record -o - saved to a file: the header comes as records in the stream (attrs, tracing
   * data, features), read natively as perf script reads it.
   */
  @Test
  void pipeModeRecordingMatchesPerfScript() throws Exception {
    Path data = recordToStdout("pipe.data", List.of("-a", "-g", "-e", "cpu-clock", "-e",
        "sched:sched_switch"), workloads.resolve("mixed") + " 40");
    assertTrue(NativePerfDataReader.isPipeMode(data));
    compare(data);
  }

  /** The same stream read as it comes (stdin) sends exactly what the saved file sends. */
  @Test
  void pipeModeStreamSendsWhatItsSavedFileSends() throws Exception {
    Path data = recordToStdout("stream.data", List.of("-a", "-g", "-e", "cpu-clock", "-e",
        "sched:sched_switch"), workloads.resolve("mixed") + " 20");
    SinkLog fromFile = new SinkLog();
    NativePerfDataReader.open(data, SymbolSources.live()).read(fromFile);
    SinkLog fromStream = new SinkLog();
    try (java.io.InputStream in = Files.newInputStream(data)) {
      NativePerfDataReader.open(in, "-", SymbolSources.live()).read(fromStream);
    }
    assertTrue(fromFile.counts.getOrDefault("sample", 0) > 100, fromFile.counts.toString());
    assertEquals(fromFile.calls, fromStream.calls);
    assertEquals(fromFile.symbols, fromStream.symbols);
  }

  /** perf record -z: records inside zstd-compressed ones, as perf script decompresses them. */
  @Test
  void compressedRecordingMatchesPerfScript() throws Exception {
    compare(record("z.data", List.of("-z", "-a", "-g", "-e", "cpu-clock", "-e",
        "sched:sched_switch"), workloads.resolve("mixed") + " 40"));
  }

  @Test
  void compressedPipeModeRecordingMatchesPerfScript() throws Exception {
    compare(recordToStdout("zpipe.data", List.of("-z", "-a", "-g", "-e", "cpu-clock", "-e",
        "sched:sched_switch"), workloads.resolve("mixed") + " 40"));
  }

  private static void compare(Path data) throws Exception {
    SinkLog text = new SinkLog();
    // perf script --header-only prints nothing of a pipe-mode file (the pipeline does the same)
    PerfDataHeader header = NativePerfDataReader.isPipeMode(data)
        ? NativePerfDataReader.open(data, SymbolSources.live()).header()
        : PerfDataHeader.read(data);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PerfScriptDecoder.decode(data, header, DecodePiece.whole(), out);
    new PerfScriptParser().read(new ByteArrayInputStream(out.toByteArray()), "text", text);

    SinkLog nativeLog = new SinkLog();
    NativePerfDataReader.open(data, SymbolSources.live()).read(nativeLog);
    // perf script prints no LOST_SAMPLES record (perf record's undated totals, written at the
    // end when the machine was too busy to keep up): only the dated drops can match. The
    // pipeline adds the undated ones on the perf script path (UndatedLosses); LostEventsIT
    // checks both readers' totals against perf report --stats.
    nativeLog.dropUndatedLosses();

    assertTrue(text.counts.getOrDefault("sample", 0) > 100, text.counts.toString());
    assertEquals(text.counts, nativeLog.counts);
    List<String> differences = new ArrayList<>();
    for (int i = 0; i < text.calls.size() && differences.size() < 3; i++) {
      if (!text.calls.get(i).equals(nativeLog.calls.get(i))) {
        differences.add("#" + i + "\n  perf script: " + text.calls.get(i) + "\n  native:      "
            + nativeLog.calls.get(i));
      }
    }
    assertEquals(List.of(), differences);
    int sameNames = 0;
    for (int i = 0; i < text.symbols.size(); i++) {
      sameNames += text.symbols.get(i).equals(nativeLog.symbols.get(i)) ? 1 : 0;
    }
    System.out.printf("%s: %d calls equal; stacks with the same names: %d of %d%n",
        data.getFileName(), text.calls.size(), sameNames, text.symbols.size());
  }

  private static Path record(String name, List<String> options, String workload)
      throws Exception {
    Path data = dir.resolve(name);
    List<String> cmd = new ArrayList<>(List.of("perf", "record", "-k", "mono", "-o",
        data.toString()));
    cmd.addAll(options);
    cmd.addAll(List.of("--", "sh", "-c", workload));
    assertEquals(0, run(cmd), String.join(" ", cmd));
    return data;
  }

  /** perf record -o - with its stdout in a file: a pipe-mode recording saved. */
  private static Path recordToStdout(String name, List<String> options, String workload)
      throws Exception {
    Path data = dir.resolve(name);
    List<String> cmd = new ArrayList<>(List.of("perf", "record", "-k", "mono", "-o", "-"));
    cmd.addAll(options);
    cmd.addAll(List.of("--", "sh", "-c", workload + " >&2"));
    Process p = new ProcessBuilder(cmd).redirectOutput(data.toFile())
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "timed out: " + cmd);
    assertEquals(0, p.exitValue(), String.join(" ", cmd));
    return data;
  }

  private static int run(List<String> command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "timed out: " + command);
    return p.exitValue();
  }
}
