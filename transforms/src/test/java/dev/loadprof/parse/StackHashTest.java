package dev.loadprof.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.model.Frame;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * The stack hash the text parser sends with each sample and switch is Arrays.hashCode of the
 * stack it sends (sinks key stacks by it without reading the frames again): through frame tables
 * that are cleared, recursive lines, stacks longer than the parser's first frame array, parts
 * parsed on threads and the parts' replay.
 */
class StackHashTest {
  /** Checks every hash; the calls without one must not come from the text parser. */
  private static final class HashCheckingSink implements dev.loadprof.model.TraceEventSink {
    long stacks;
    long frames;

    @Override
    public void sample(long timeNs, int cpu, int pid, int tid, String comm, String event,
        long period, Frame[] stack, int stackHash) {
      check(stack, stackHash);
    }

    @Override
    public void schedSwitch(long timeNs, int cpu, long period, int prevPid, int prevTid,
        String prevComm, String prevState, int nextTid, String nextComm, Frame[] prevStack,
        int prevStackHash) {
      check(prevStack, prevStackHash);
    }

    private void check(Frame[] stack, int hash) {
      assertEquals(Arrays.hashCode(stack), hash, Arrays.toString(stack));
      stacks++;
      frames += stack.length;
    }

    @Override
    public void sample(long timeNs, int cpu, int pid, int tid, String comm, String event,
        long period, Frame[] stack) {
      throw new AssertionError("a sample without its stack's hash");
    }

    @Override
    public void schedSwitch(long timeNs, int cpu, long period, int prevPid, int prevTid,
        String prevComm, String prevState, int nextTid, String nextComm, Frame[] prevStack) {
      throw new AssertionError("a switch without its stack's hash");
    }

    @Override
    public void contextSwitch(long timeNs, int cpu, int pid, int tid, String comm, boolean in,
        boolean preempt) {}

    @Override
    public void schedWakeup(long timeNs, int cpu, int wakerPid, int wakerTid, int tid,
        String comm, int targetCpu) {}

    @Override
    public void comm(long timeNs, int cpu, int pid, int tid, String comm, boolean exec) {}

    @Override
    public void fork(long timeNs, int pid, int tid, int parentPid, int parentTid) {}

    @Override
    public void exit(long timeNs, int pid, int tid) {}

    @Override
    public void lost(long timeNs, long count) {}

    @Override
    public void ignored(String event) {}

    @Override
    public void malformed(long lineNumber, String reason, String line) {}
  }

  /** Samples and switches with deep recursive stacks (300 frames), repeated lines, no stack. */
  private static byte[] deepTrace() {
    StringBuilder t = new StringBuilder();
    for (int r = 0; r < 40; r++) {
      t.append("deep 7/7 [001] 1.").append(String.format("%09d", 1000 + r))
          .append(": 250000 cpu-clock: \n");
      int depth = 1 + (r * 37) % 300;
      for (int d = 0; d < depth; d++) {
        int f = d < depth / 2 ? d % 5 : 9; // the deep half repeats one line (recursion)
        t.append("\t").append(Integer.toHexString(0x401000 + f)).append(" descend")
            .append(f).append(" (/tmp/deep)\n");
      }
      t.append("\n");
      t.append("deep 7/7 [001] 1.").append(String.format("%09d", 2000 + r))
          .append(": 1 sched:sched_switch: prev_comm=deep prev_pid=7 prev_prio=120")
          .append(" prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n");
      if (r % 3 != 0) {
        t.append("\tffffffff81000000 schedule ([kernel.kallsyms])\n")
            .append("\t401005 descend5 (/tmp/deep)\n");
      }
      t.append("\n");
    }
    return t.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] gunzip(java.nio.file.Path p) throws IOException {
    try (InputStream in = new GZIPInputStream(Files.newInputStream(p))) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      in.transferTo(out);
      return out.toByteArray();
    }
  }

  @Test
  void theHashSentIsTheStacksHashOnEveryPath() throws IOException {
    byte[][] texts = {deepTrace(), gunzip(TraceFixtures.path("phases")),
        gunzip(TraceFixtures.path("stalls"))};
    for (byte[] text : texts) {
      for (int maxFrames : new int[] {3, 64, PerfScriptParser.DEFAULT_MAX_FRAMES}) {
        HashCheckingSink sink = new HashCheckingSink();
        new PerfScriptParser(maxFrames, PerfScriptParser.DEFAULT_MAX_LINE_CHARS)
            .read(new ByteArrayInputStream(text), "t", sink);
        assertTrue(sink.stacks > 10, "stacks checked: " + sink.stacks);
      }
      for (int partBytes : new int[] {97, 4096}) {
        HashCheckingSink sink = new HashCheckingSink();
        new ParallelTextParser(2, partBytes, 1 << 24).read(new ByteArrayInputStream(text), "t",
            sink);
        assertTrue(sink.stacks > 10, "stacks checked: " + sink.stacks);
      }
    }
  }
}
