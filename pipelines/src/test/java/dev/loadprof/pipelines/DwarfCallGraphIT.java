package dev.loadprof.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.pipelines.E2e.FunctionRow;
import dev.loadprof.testtools.RequiredTools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Call graphs the native reader does not unwind itself, recorded here (per process, a fraction of
 * a second of ../shared/workloads/mixed): a --call-graph dwarf recording goes to perf script by
 * default, said once, with the same functions as --perf-data-reader perf-script gives (the
 * native reader used to give a profile without a single frame, and exit 0); forcing the native
 * reader on it is exit 2. Without -g or without user callchains, each sample's own function is
 * its one frame.
 */
class DwarfCallGraphIT {
  private static final String HANDED_OFF = "decoded with perf script, because the native reader"
      + " cannot read it: its call graphs were recorded with --call-graph dwarf";

  @TempDir static Path dir;
  static Path dwarf;
  static Path withoutCallChains;
  static Path kernelCallChains;

  @BeforeAll
  static void record() throws Exception {
    RequiredTools.requireRoot("perf record of the workload with its call graphs needs it here");
    String mixed = BuiltWorkloads.in(dir).resolve("mixed").toString();
    dwarf = record("dwarf.data", mixed, "--call-graph", "dwarf");
    withoutCallChains = record("nog.data", mixed);
    kernelCallChains = record("kernel.data", mixed, "-g", "--kernel-callchains");
  }

  private static Path record(String name, String mixed, String... callGraph) throws Exception {
    Path data = dir.resolve(name);
    List<String> cmd = new ArrayList<>(List.of("perf", "record", "-q", "-k", "mono",
        "--switch-events", "-e", "cpu-clock", "-o", data.toString()));
    cmd.addAll(List.of(callGraph));
    cmd.addAll(List.of("--", mixed, "40", "2"));
    assertEquals(0, BuiltWorkloads.run(cmd), String.join(" ", cmd));
    return data;
  }

  /** analyze in a JVM of its own: its console (the log's lines too) as a user sees it. */
  private static CliProcess.Result analyze(Path data, String outName, String... options)
      throws Exception {
    List<String> args = new ArrayList<>(List.of("analyze", "--out",
        dir.resolve(outName).toString()));
    args.addAll(List.of(options));
    args.add(data.toString());
    return CliProcess.run(Map.of(), dir.resolve(outName + ".log"), args.toArray(new String[0]));
  }

  /** The recorded program's functions.txt rows (the process named mixed), flat real % by name. */
  private static Map<String, Double> mixedFunctions(String outName) throws Exception {
    String text = Files.readString(dir.resolve(outName).resolve("functions.txt"));
    Map<String, Double> flat = new HashMap<>();
    for (String header : text.split("\n")) {
      if (header.startsWith("run ") && header.contains(" (mixed):")) {
        String[] words = header.split(" ");
        for (FunctionRow row : E2e.functionsTxt(text).get(words[1] + "/" + words[3])) {
          flat.merge(row.name(), row.flatPct(), Double::sum);
        }
      }
    }
    assertFalse(flat.isEmpty(), "no process mixed in functions.txt:\n" + text);
    return flat;
  }

  @Test
  void aDwarfRecordingHasThePerfScriptReadersFunctions() throws Exception {
    CliProcess.Result byDefault = analyze(dwarf, "dwarf-auto");
    assertEquals(0, byDefault.code(), byDefault.output());
    assertEquals(1, E2e.occurrences(byDefault.output(), HANDED_OFF), byDefault.output());
    assertThat(byDefault.output(), not(containsString("perf record without -g")));
    CliProcess.Result perfScript = analyze(dwarf, "dwarf-ps", "--perf-data-reader",
        "perf-script");
    assertEquals(0, perfScript.code(), perfScript.output());

    Map<String, Double> auto = mixedFunctions("dwarf-auto");
    Map<String, Double> reference = mixedFunctions("dwarf-ps");
    double same = 0;
    for (Map.Entry<String, Double> f : reference.entrySet()) {
      same += Math.min(f.getValue(), auto.getOrDefault(f.getKey(), 0.0));
    }
    assertThat("real time on the same names, % (auto " + auto + ", perf-script " + reference
        + ")", same, greaterThan(99.5 - 0.005 * reference.size())); // rows are rounded
    // The workload's own functions, which the empty profile had none of.
    assertThat(auto.toString(), auto.getOrDefault("parallel_section", 0.0), greaterThan(30.0));
    assertThat(auto.toString(), auto.getOrDefault("serial_section", 0.0), greaterThan(5.0));
  }

  @Test
  void theNativeReaderForcedOnADwarfRecordingIsBadUsage() throws Exception {
    CliProcess.Result forced = analyze(dwarf, "dwarf-native", "--perf-data-reader", "native");
    assertEquals(2, forced.code(), forced.output());
    assertThat(forced.output(), containsString("loadprof: " + dwarf + ": the native perf.data"
        + " reader cannot read it: its call graphs were recorded with --call-graph dwarf"));
    assertThat(forced.output(), containsString("Use --perf-data-reader perf-script"));
    assertFalse(Files.exists(dir.resolve("dwarf-native").resolve("functions.txt")));
  }

  /**
   * Without -g, and with -g --kernel-callchains (user-mode samples then have an empty
   * callchain), each sample still counts for the function it was taken in.
   */
  @ParameterizedTest
  @ValueSource(strings = {"nog", "kernel"})
  void eachSampleHasItsOwnFunction(String recording) throws Exception {
    Path data = recording.equals("nog") ? withoutCallChains : kernelCallChains;
    CliProcess.Result result = analyze(data, recording);
    assertEquals(0, result.code(), result.output());
    assertThat(result.output(), not(containsString("decoded with perf script")));
    Map<String, Double> functions = mixedFunctions(recording);
    assertThat(functions.toString(), functions.getOrDefault("parallel_section", 0.0),
        greaterThan(30.0));
    assertThat(functions.toString(), functions.getOrDefault("serial_section", 0.0),
        greaterThan(5.0));
  }
}
