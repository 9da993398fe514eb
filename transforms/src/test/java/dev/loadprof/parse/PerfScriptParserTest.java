package dev.loadprof.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.loadprof.model.Frame;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Table-driven tests of {@link PerfScriptParser} over small snippets of perf script text. */
class PerfScriptParserTest {

  // Lines as the recommended -F layout prints them (taken from the fixtures).
  static final String SAMPLE_HEADER =
      "phases  1599/1599  [000]    47.948620415:     250000          cpu-clock: ";
  static final String FRAME_SERIAL = "\t            12f0 serial_phase (/tmp/rec/workloads/phases)";
  static final String FRAME_MAIN = "\t            1559 main (/tmp/rec/workloads/phases)";
  static final String SAMPLE_EVENT = "sample 47948620415 cpu=0 1599/1599 'phases' cpu-clock 250000"
      + " [serial_phase (/tmp/rec/workloads/phases) | main (/tmp/rec/workloads/phases)]";
  static final String SWITCH =
      "perf  1598/1598  [000]    47.942788675:          1 sched:sched_switch: prev_comm=perf"
          + " prev_pid=1598 prev_prio=120 prev_state=D ==> next_comm=migration/0 next_pid=18"
          + " next_prio=0";
  static final String SWITCH_EVENT =
      "switch 47942788675 cpu=0 period=1 1598/1598 'perf' D ==> 18 'migration/0'";
  static final String KERNEL_FRAME = "\tffffffff821facd8 __schedule ([kernel.kallsyms])";
  /** SWITCH followed by KERNEL_FRAME: the switched-out thread's stack. */
  static final String SWITCH_EVENT_IN_SCHEDULE = SWITCH_EVENT + " [__schedule ([kernel.kallsyms])]";

  static String text(String... lines) {
    return String.join("\n", lines) + "\n";
  }

  static List<String> events(String... events) {
    return List.of(events);
  }

  static RecordingSink parse(String text) {
    return parse(new PerfScriptParser(), text);
  }

  static RecordingSink parse(PerfScriptParser parser, String text) {
    RecordingSink sink = new RecordingSink();
    try {
      parser.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "test", sink);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return sink;
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("sample with stack", text(SAMPLE_HEADER, FRAME_SERIAL, FRAME_MAIN, ""),
            events(SAMPLE_EVENT)),
        Arguments.of("sample without stack, then a header at once",
            text(SAMPLE_HEADER, SWITCH, KERNEL_FRAME, ""),
            events("sample 47948620415 cpu=0 1599/1599 'phases' cpu-clock 250000 []",
                SWITCH_EVENT_IN_SCHEDULE)),
        Arguments.of("sched_switch with stack", text(SWITCH, KERNEL_FRAME,
            "\t           ee137 sched_setaffinity@@GLIBC_2.3.4"
                + " (/usr/lib/x86_64-linux-gnu/libc.so.6)",
            ""), events(SWITCH_EVENT + " [__schedule ([kernel.kallsyms])"
                + " | sched_setaffinity@@GLIBC_2.3.4 (/usr/lib/x86_64-linux-gnu/libc.so.6)]")),
        Arguments.of("exited thread, header :-1 pid/-1",
            text(":-1  1599/-1    [001]    49.948904093:          1 sched:sched_switch:"
                + " prev_comm=phases prev_pid=1602 prev_prio=120 prev_state=X ==>"
                + " next_comm=swapper/1 next_pid=0 next_prio=120", KERNEL_FRAME, ""),
            events("switch 49948904093 cpu=1 period=1 1599/1602 'phases' X ==> 0 'swapper/1'"
                + " [__schedule ([kernel.kallsyms])]")),
        Arguments.of("exited thread, header -1/-1",
            text(":-1    -1/-1    [001]    49.948904093:          1 sched:sched_switch:"
                + " prev_comm=phases prev_pid=1602 prev_prio=120 prev_state=X ==>"
                + " next_comm=swapper/1 next_pid=0 next_prio=120", ""),
            events("switch 49948904093 cpu=1 period=1 ?/1602 'phases' X ==> 0 'swapper/1'")),
        Arguments.of("frequency-sampled switch keeps its period",
            text("phases  1691/1693  [001]    68.700000001:          5 sched:sched_switch:"
                + " prev_comm=phases prev_pid=1693 prev_prio=120 prev_state=R+ ==>"
                + " next_comm=perf next_pid=1690 next_prio=120", KERNEL_FRAME, ""),
            events("switch 68700000001 cpu=1 period=5 1691/1693 'phases' R+ ==> 1690 'perf'"
                + " [__schedule ([kernel.kallsyms])]")),
        Arguments.of("comms with spaces in header, prev_comm and next_comm",
            text("Web Content  2001/2005  [001]    10.000000001:     250000          cpu-clock: ",
                "\t    7f00 js::RunScript(JSContext*, js::RunState&) (/usr/lib/firefox/libxul.so)",
                "",
                "Web Content  2001/2005  [001]    10.000000002:          1 sched:sched_switch:"
                    + " prev_comm=Web Content prev_pid=2005 prev_prio=120 prev_state=S ==>"
                    + " next_comm=kworker/u8:0-wr next_pid=12 next_prio=120",
                "kworker/u8:0-wr    12/12    [001]    10.000000003:          1"
                    + " sched:sched_switch: prev_comm=kworker/u8:0-wr prev_pid=12 prev_prio=120"
                    + " prev_state=I ==> next_comm=Isolated Web Co next_pid=3001 next_prio=120"),
            events("sample 10000000001 cpu=1 2001/2005 'Web Content' cpu-clock 250000"
                    + " [js::RunScript(JSContext*, js::RunState&) (/usr/lib/firefox/libxul.so)]",
                "switch 10000000002 cpu=1 period=1 2001/2005 'Web Content' S ==> 12"
                    + " 'kworker/u8:0-wr'",
                "switch 10000000003 cpu=1 period=1 12/12 'kworker/u8:0-wr' I ==> 3001"
                    + " 'Isolated Web Co'")),
        Arguments.of("comm that looks like a cpu field",
            text("odd [7] name  5/6  [002]     1.5:     250000          cpu-clock: ", FRAME_MAIN),
            events("sample 1500000000 cpu=2 5/6 'odd [7] name' cpu-clock 250000"
                + " [main (/tmp/rec/workloads/phases)]")),
        Arguments.of("sched_wakeup, sched_wakeup_new and success=1",
            text("perf  1690/1690  [000]    66.709191576:          1 sched:sched_wakeup:"
                    + " comm=migration/0 pid=18 prio=0 target_cpu=000",
                KERNEL_FRAME,
                "",
                "bash  100/100  [001]    66.709191577:          1 sched:sched_wakeup_new:"
                    + " comm=my worker pid=1691 prio=120 success=1 target_cpu=001"),
            events("wakeup 66709191576 cpu=0 18 'migration/0' target=0 by 1690/1690",
                "wakeup 66709191577 cpu=1 1691 'my worker' target=1 by 100/100")),
        Arguments.of("sched_waking: a wake-up in its waker's context",
            text("mixed  17316/17320  [001]    66.709191576:          1 sched:sched_waking:"
                + " comm=mixed pid=17316 prio=120 target_cpu=000"),
            events("wakeup 66709191576 cpu=1 17316 'mixed' target=0 by 17316/17320")),
        Arguments.of("task events",
            text("swapper     0/0     [000]     0.000000000: PERF_RECORD_FORK(1:1):(0:0)",
                "process_api     0/0     [000]     0.000000000: PERF_RECORD_COMM:"
                    + " process_api:1/1",
                "phases  1599/1599  [000]    47.947190638: PERF_RECORD_COMM exec:"
                    + " phases:1599/1599",
                "Web Content  5/5  [000]    47.947190639: PERF_RECORD_COMM: Web: Content:5/7",
                "phases  1599/1602  [001]    49.948870724: PERF_RECORD_EXIT(1599:1602):(1598:1598)",
                "perf  0/0  [001]    49.948870725: PERF_RECORD_LOST lost 123",
                "perf  0/0  [001]    49.948870726: PERF_RECORD_MMAP2 1599/1599: [0x1000(0x2000)"
                    + " @ 0 00:00 0 0]: r-xp /tmp/x"),
            events("fork 0 1/1 parent=0/0", "comm 0 1/1 'process_api'",
                "comm 47947190638 1599/1599 'phases' exec", "comm 47947190639 5/7 'Web: Content'",
                "exit 49948870724 1599/1602", "lost 49948870725 123",
                "ignored PERF_RECORD_MMAP2")),
        Arguments.of("plain perf script layout",
            text("perf  1598 [000]    47.942788: sched:sched_switch: prev_comm=perf prev_pid=1598"
                    + " prev_prio=120 prev_state=D ==> next_comm=migration/0 next_pid=18"
                    + " next_prio=0",
                "\tffffffff821facd8 __schedule+0x618 ([kernel.kallsyms])",
                "",
                "migration/0    18 [000]    47.944552:     250000          cpu-clock: ",
                "\tffffffff813a4413 finish_task_switch.isra.0+0x93 ([kernel.kallsyms])",
                "\t           ee137 sched_setaffinity@@GLIBC_2.3.4+0x7"
                    + " (/usr/lib/x86_64-linux-gnu/libc.so.6)",
                "\t          146f7c [unknown] (/usr/bin/perf)",
                "",
                ":-1    -1 [001]    49.948904: sched:sched_switch: prev_comm=phases prev_pid=1602"
                    + " prev_prio=120 prev_state=X ==> next_comm=swapper/1 next_pid=0"
                    + " next_prio=120"),
            events("switch 47942788000 cpu=0 period=1 ?/1598 'perf' D ==> 18 'migration/0'"
                    + " [__schedule ([kernel.kallsyms])]",
                "sample 47944552000 cpu=0 ?/18 'migration/0' cpu-clock 250000"
                    + " [finish_task_switch.isra.0 ([kernel.kallsyms])"
                    + " | sched_setaffinity@@GLIBC_2.3.4 (/usr/lib/x86_64-linux-gnu/libc.so.6)"
                    + " | [unknown] (/usr/bin/perf)]",
                "switch 49948904000 cpu=1 period=1 ?/1602 'phases' X ==> 0 'swapper/1'")),
        Arguments.of("other sampling events",
            text("app  10/11  [003]     2.000000001:     100003          cycles:u: ",
                "app  10/11  [003]     2.000000002:       2000 cpu/event=0x3c,umask=0x0/: ",
                "app  10/11  [003]     2.000000003:      50000 instructions: "),
            events("sample 2000000001 cpu=3 10/11 'app' cycles:u 100003 []",
                "sample 2000000002 cpu=3 10/11 'app' cpu/event=0x3c,umask=0x0/ 2000 []",
                "sample 2000000003 cpu=3 10/11 'app' instructions 50000 []")),
        Arguments.of("recorded without -g: the one frame is on the header line",
            text("app  10/11  [003]     2.000000001:     250000          cpu-clock: "
                    + "     55d0c1a012f0 serial_phase (/opt/app)",
                "app  10/11  [003]     2.000000002:     250000          cpu-clock: "
                    + " ffffffff813a4413 finish_task_switch.isra.0 ([kernel.kallsyms])"),
            events("sample 2000000001 cpu=3 10/11 'app' cpu-clock 250000 [serial_phase (/opt/app)]",
                "sample 2000000002 cpu=3 10/11 'app' cpu-clock 250000"
                    + " [finish_task_switch.isra.0 ([kernel.kallsyms])]")),
        Arguments.of("unknown tracepoint is ignored with its stack",
            text("perf  1598/1598  [000]    47.942788675:          1 sched:sched_migrate_task:"
                    + " comm=perf pid=1598 prio=120 orig_cpu=0 dest_cpu=1",
                KERNEL_FRAME, KERNEL_FRAME, "", SAMPLE_HEADER, FRAME_SERIAL, FRAME_MAIN),
            events("ignored sched:sched_migrate_task", SAMPLE_EVENT)),
        Arguments.of("frame forms",
            text("app  10/11  [003]     2.000000001:     250000          cpu-clock: ",
                "\t    1000 foo(int, char const*) (/usr/lib/libx.so)",
                "\t    1001 std::function<void ()>::operator()() const (/usr/lib/libx.so)",
                "\t    1002 bar",
                "\t    1003 baz(int)",
                "\t    1004 [unknown] (/memfd:sealed-91173221a7ea (deleted))",
                "\t    1005 [unknown] ([unknown])",
                "\t    1006",
                "\t    1007 operator new(unsigned long)+0x1c (/usr/lib/libstdc++.so.6)"),
            events("sample 2000000001 cpu=3 10/11 'app' cpu-clock 250000"
                + " [foo(int, char const*) (/usr/lib/libx.so)"
                + " | std::function<void ()>::operator()() const (/usr/lib/libx.so)"
                + " | bar | baz(int) | [unknown] (/memfd:sealed-91173221a7ea (deleted))"
                + " | [unknown] ([unknown]) | [unknown]"
                + " | operator new(unsigned long) (/usr/lib/libstdc++.so.6)]")),
        Arguments.of("perf script --header lines are skipped",
            text("# ========", "# captured on    : Thu Jan  1 00:00:00 2025",
                "# hostname : loadvm-1", "# ========", "#", SWITCH),
            events(SWITCH_EVENT)),
        Arguments.of("CRLF line ends",
            String.join("\r\n", SAMPLE_HEADER, FRAME_SERIAL, FRAME_MAIN, "", SWITCH, KERNEL_FRAME,
                "") + "\r\n",
            events(SAMPLE_EVENT, SWITCH_EVENT_IN_SCHEDULE)),
        Arguments.of("no blank line after the last record",
            SAMPLE_HEADER + "\n" + FRAME_SERIAL + "\n" + FRAME_MAIN + "\n",
            events(SAMPLE_EVENT)),
        Arguments.of("blank lines in odd places",
            text("", "", "   ", SWITCH, "", "", "\t", SAMPLE_HEADER, FRAME_SERIAL, FRAME_MAIN, "",
                "", ""),
            events(SWITCH_EVENT, SAMPLE_EVENT)),
        // --- malformed input: exact line numbers
        Arguments.of("garbage line",
            text(SWITCH, "hello world", SAMPLE_HEADER, FRAME_SERIAL, FRAME_MAIN),
            events(SWITCH_EVENT, "malformed 2: not a perf script record", SAMPLE_EVENT)),
        Arguments.of("bad timestamp",
            text(SWITCH, "", "phases  1599/1599  [000]    47.94x620415:     250000  cpu-clock: ",
                FRAME_SERIAL, FRAME_MAIN, "", SWITCH),
            events(SWITCH_EVENT, "malformed 3: bad timestamp", SWITCH_EVENT)),
        Arguments.of("timestamp with too many digits",
            text("phases  1599/1599  [000]    47.9486204150:     250000          cpu-clock: "),
            events("malformed 1: bad timestamp")),
        Arguments.of("bad pid/tid",
            text("phases  1599/x  [000]    47.948620415:     250000          cpu-clock: "),
            events("malformed 1: bad pid/tid")),
        Arguments.of("truncated sched_switch: stack of the bad record is not reported again",
            text(SAMPLE_HEADER, FRAME_SERIAL, "",
                "perf  1598/1598  [000]    47.942788675:          1 sched:sched_switch:"
                    + " prev_comm=perf prev_pid=1598 prev_prio=120 prev_state=D ==> next_comm=mig",
                KERNEL_FRAME, KERNEL_FRAME, "", SWITCH),
            events("sample 47948620415 cpu=0 1599/1599 'phases' cpu-clock 250000"
                    + " [serial_phase (/tmp/rec/workloads/phases)]",
                "malformed 4: sched_switch without next_pid", SWITCH_EVENT)),
        Arguments.of("sched_switch without prev_pid",
            text("perf  1598/1598  [000]    47.942788675:          1 sched:sched_switch:"
                + " prev_comm=perf"),
            events("malformed 1: sched_switch without prev_pid")),
        Arguments.of("sched_wakeup without target_cpu",
            text("perf  1690/1690  [000]    66.709191576:          1 sched:sched_wakeup:"
                + " comm=migration/0 pid=18 prio=0"),
            events("malformed 1: sched_wakeup without target_cpu")),
        Arguments.of("stack lines with no record are reported once per run",
            text(SWITCH, KERNEL_FRAME, "", KERNEL_FRAME, KERNEL_FRAME, "", SAMPLE_HEADER,
                FRAME_SERIAL, FRAME_MAIN),
            events(SWITCH_EVENT_IN_SCHEDULE, "malformed 4: stack line outside a record", SAMPLE_EVENT)),
        Arguments.of("stack line at the start of the input",
            text(FRAME_MAIN, SWITCH),
            events("malformed 1: stack line outside a record", SWITCH_EVENT)),
        Arguments.of("stack line after a task line",
            text("swapper     0/0     [000]     0.000000000: PERF_RECORD_FORK(1:1):(0:0)",
                KERNEL_FRAME),
            events("fork 0 1/1 parent=0/0", "malformed 2: stack line outside a record")),
        Arguments.of("bad stack line drops its sample",
            text(SAMPLE_HEADER, FRAME_SERIAL, "\tnot-an-address foo (bar)", FRAME_MAIN, "",
                SWITCH),
            events("malformed 3: bad stack line", SWITCH_EVENT)),
        Arguments.of("truncated last header line",
            SWITCH + "\n\n" + SAMPLE_HEADER + "\n" + FRAME_SERIAL + "\n\nphases  1599/1599  [0",
            events(SWITCH_EVENT, "sample 47948620415 cpu=0 1599/1599 'phases' cpu-clock 250000"
                    + " [serial_phase (/tmp/rec/workloads/phases)]",
                "malformed 6: truncated last line")),
        Arguments.of("truncated last stack line drops its sample",
            SWITCH + "\n\n" + SAMPLE_HEADER + "\n" + FRAME_SERIAL + "\n\t     1559 mai",
            events(SWITCH_EVENT, "malformed 5: truncated last line")),
        Arguments.of("truncated switch header is not sent",
            SAMPLE_HEADER + "\n" + FRAME_SERIAL + "\n" + SWITCH.substring(0, SWITCH.length() - 3),
            events("sample 47948620415 cpu=0 1599/1599 'phases' cpu-clock 250000"
                    + " [serial_phase (/tmp/rec/workloads/phases)]",
                "malformed 3: truncated last line")),
        Arguments.of("period without event name",
            text("phases  1599/1599  [000]    47.948620415:     250000"),
            events("malformed 1: missing event name")),
        Arguments.of("bad period",
            text("phases  1599/1599  [000]    47.948620415:     25x000    cpu-clock: "),
            events("malformed 1: bad period")),
        Arguments.of("empty input", "", events()),
        Arguments.of("only a header comment without newline", "# hostname : x",
            events("malformed 1: truncated last line")),
        // A per-process recording (perf record --switch-events, no -a): no [cpu] column.
        Arguments.of("sample without a cpu column",
            text("phases  4730/4730   1290.021786585:     250000 cpu-clock:u: ",
                "\t            12dc serial_phase (/tmp/wl/phases)", ""),
            events("sample 1290021786585 cpu=" + Integer.MIN_VALUE + " 4730/4730 'phases'"
                + " cpu-clock:u 250000 [serial_phase (/tmp/wl/phases)]")),
        Arguments.of("per-thread switch records without a cpu column",
            text("phases  4730/4730   1290.045465332: PERF_RECORD_SWITCH OUT preempt",
                "phases  4730/4752   1290.045511471: PERF_RECORD_SWITCH IN         ",
                "phases  4730/4730   1290.047080602: PERF_RECORD_SWITCH OUT"),
            events("cswitch 1290045465332 cpu=? 4730/4730 'phases' OUT preempt",
                "cswitch 1290045511471 cpu=? 4730/4752 'phases' IN",
                "cswitch 1290047080602 cpu=? 4730/4730 'phases' OUT")),
        Arguments.of("cpu-wide switch records",
            text("            perf 10754/10754 [000]  1490.711067788: PERF_RECORD_SWITCH_CPU_WIDE"
                    + " OUT preempt  next pid/tid:    15/15   ",
                "     rcu_preempt    15/15    [000]  1490.711069971: PERF_RECORD_SWITCH_CPU_WIDE"
                    + " IN           prev pid/tid: 10754/10754"),
            events("cswitch 1490711067788 cpu=0 10754/10754 'perf' OUT preempt",
                "cswitch 1490711069971 cpu=0 15/15 'rcu_preempt' IN")),
        Arguments.of("task line without a cpu column",
            text("perf-exec     0/0         0.000000000: PERF_RECORD_COMM: perf-exec:4730/4730"),
            events("comm 0 4730/4730 'perf-exec'")),
        Arguments.of("switch record that is neither IN nor OUT",
            text("phases  4730/4730   1290.045465332: PERF_RECORD_SWITCH SIDEWAYS"),
            events("malformed 1: bad PERF_RECORD_SWITCH (neither IN nor OUT)")),
        Arguments.of("sched_switch without a cpu column cannot be placed",
            text("perf  1598/1598    47.942788675:          1 sched:sched_switch: prev_comm=perf"
                + " prev_pid=1598 prev_prio=120 prev_state=D ==> next_comm=migration/0"
                + " next_pid=18 next_prio=0"),
            events("malformed 1: sched_switch without a [cpu] column (add cpu to perf script"
                + " -F)")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void parsesSnippet(String name, String input, List<String> expected) {
    assertEquals(expected, parse(input).events);
  }

  @Test
  void malformedReportCarriesTheLineText() {
    RecordingSink sink = parse(text(SWITCH, "hello world", "x  1/1  [000]  1.0: ", "\tq"));
    assertEquals(List.of(SWITCH_EVENT, "malformed 2: not a perf script record",
        "malformed 3: missing event name"), sink.events);
    assertEquals(List.of("hello world", "x  1/1  [000]  1.0: "), sink.malformedLines);
  }

  @Test
  void identicalFramesShareOneInstance() {
    // The plain layout adds "+0x.." to the symbol, but the address is the same: the same frame.
    RecordingSink sink = parse(text(SAMPLE_HEADER, FRAME_SERIAL, FRAME_MAIN, "", SAMPLE_HEADER,
        FRAME_SERIAL, "\t     1559 main+0x10 (/tmp/rec/workloads/phases)", "", SAMPLE_HEADER,
        FRAME_MAIN, "", SAMPLE_HEADER, "\t     1560 main+0x11 (/tmp/rec/workloads/phases)"));
    List<Frame[]> stacks = sink.stacks;
    assertEquals(4, stacks.size());
    assertSame(stacks.get(0)[0], stacks.get(1)[0]);
    assertSame(stacks.get(0)[1], stacks.get(1)[1]);
    assertSame(stacks.get(0)[1], stacks.get(2)[0]);
    assertEquals(new Frame("main", "/tmp/rec/workloads/phases", 0x1559), stacks.get(2)[0]);
    // Another instruction of the same function is another frame: its address differs.
    assertEquals(new Frame("main", "/tmp/rec/workloads/phases", 0x1560), stacks.get(3)[0]);
    assertNotSame(stacks.get(0), stacks.get(1), "each sample gets its own array");
    assertEquals(2, stacks.get(0).length, "the array is sized to the stack");
  }

  @Test
  void kernelAddressesAreReadAsUnsigned64Bit() {
    RecordingSink sink = parse(text(SAMPLE_HEADER,
        "\tffffffff821facd8 __schedule+0x618 ([kernel.kallsyms])", FRAME_MAIN));
    assertEquals(new Frame("__schedule", "[kernel.kallsyms]", 0xffffffff821facd8L),
        sink.stacks.get(0)[0]);
  }

  @Test
  void boundedFrameCacheStillGivesRightFrames() {
    PerfScriptParser parser = new PerfScriptParser(2, PerfScriptParser.DEFAULT_MAX_LINE_CHARS);
    StringBuilder in = new StringBuilder();
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      in.append(SAMPLE_HEADER).append('\n');
      in.append("\t  ").append(Integer.toHexString(i)).append(" f").append(i % 7)
          .append(" (/lib").append(i % 3).append(")\n\n");
      expected.add("sample 47948620415 cpu=0 1599/1599 'phases' cpu-clock 250000 [f" + (i % 7)
          + " (/lib" + (i % 3) + ")]");
    }
    assertEquals(expected, parse(parser, in.toString()).events);
  }

  @Test
  void gettersDescribeTheLastRead() {
    PerfScriptParser parser = new PerfScriptParser();
    parse(parser, text("# ========", "# hostname : loadvm-1", "#", SWITCH));
    assertEquals("loadvm-1", parser.hostName());
    assertEquals(PerfScriptParser.LAYOUT_FIELDS, parser.layout());
    assertEquals(4, parser.lineCount());
    parse(parser, text("perf  1598 [000]    47.942788:     250000          cpu-clock: "));
    assertEquals("", parser.hostName(), "reset between reads");
    assertEquals(PerfScriptParser.LAYOUT_PLAIN, parser.layout());
  }

  @Test
  void veryLongLinesAndTinyReads() throws IOException {
    // A 300k-char symbol spans many read chunks and forces the line buffer to grow; the reader
    // hands out 7 chars at a time to exercise every split of a line across reads.
    String longSymbol = "s".repeat(300_000);
    StringBuilder in = new StringBuilder();
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      in.append(SAMPLE_HEADER).append('\n').append("\t  1 ").append(longSymbol).append(i)
          .append(" (/x)\r\n").append(FRAME_MAIN).append("\n\n").append(SWITCH).append('\n');
      expected.add("sample 47948620415 cpu=0 1599/1599 'phases' cpu-clock 250000 [" + longSymbol
          + i + " (/x) | main (/tmp/rec/workloads/phases)]");
      expected.add(SWITCH_EVENT);
    }
    String all = in.toString();
    RecordingSink sink = new RecordingSink();
    new PerfScriptParser().read(new ChunkedReader(all, 7), sink);
    assertEquals(expected, sink.events);
    sink = new RecordingSink();
    new PerfScriptParser().read(new StringReader(all), sink);
    assertEquals(expected, sink.events);
  }

  @Test
  void overlongLinesAreReportedAndSkipped() throws IOException {
    String huge = "\t  1 " + "x".repeat(5000) + " (/x)";
    String in = text(SWITCH, "", SAMPLE_HEADER, FRAME_SERIAL, huge, FRAME_MAIN, "",
        "y".repeat(3000), KERNEL_FRAME, "", SWITCH);
    List<String> expected = List.of(SWITCH_EVENT, "malformed 5: line too long",
        "malformed 8: line too long", SWITCH_EVENT);
    for (int chunk : new int[] {7, 1000, 1 << 20}) {
      RecordingSink sink = new RecordingSink();
      new PerfScriptParser(100, 1000).read(new ChunkedReader(in, chunk), sink);
      assertEquals(expected, sink.events, "chunk " + chunk);
      assertEquals(huge.substring(0, 200), sink.malformedLines.get(0), "the start is kept");
    }
  }

  @Test
  void lostWithoutCountMeansAtLeastOne() {
    assertEquals(List.of("lost 5000000000 1", "lost 5000000001 7"), parse(text(
        "perf  0/0  [001]     5.000000000: PERF_RECORD_LOST",
        "perf  0/0  [001]     5.000000001: PERF_RECORD_LOST_SAMPLES lost 7")).events);
  }

  @Test
  void invalidUtf8DoesNotThrow() throws IOException {
    byte[] head = (SAMPLE_HEADER + "\n\t  1 caf").getBytes(StandardCharsets.UTF_8);
    byte[] tail = " (/x)\n".getBytes(StandardCharsets.UTF_8);
    byte[] in = new byte[head.length + 1 + tail.length];
    System.arraycopy(head, 0, in, 0, head.length);
    in[head.length] = (byte) 0xC3; // a lone lead byte
    System.arraycopy(tail, 0, in, head.length + 1, tail.length);
    RecordingSink sink = new RecordingSink();
    new PerfScriptParser().read(new ByteArrayInputStream(in), "t", sink);
    assertEquals(List.of("sample 47948620415 cpu=0 1599/1599 'phases' cpu-clock 250000"
        + " [caf\uFFFD (/x)]"), sink.events);
  }

  /** A reader that returns at most {@code chunk} chars per read. */
  static final class ChunkedReader extends Reader {
    private final String text;
    private final int chunk;
    private int pos;

    ChunkedReader(String text, int chunk) {
      this.text = text;
      this.chunk = chunk;
    }

    @Override
    public int read(char[] cbuf, int off, int len) {
      if (pos == text.length()) {
        return -1;
      }
      int n = Math.min(Math.min(len, chunk), text.length() - pos);
      text.getChars(pos, pos + n, cbuf, off);
      pos += n;
      return n;
    }

    @Override
    public void close() {}
  }
}
